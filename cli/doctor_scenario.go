package cli

import (
	"context"
	"fmt"
	"strings"

	"github.com/poisonwatch/poisonwatch/backend/embedded"
	"github.com/poisonwatch/poisonwatch/backend/ibmmq"
	"github.com/poisonwatch/poisonwatch/codec/mqfmt"
	"github.com/poisonwatch/poisonwatch/demo"
	"github.com/poisonwatch/poisonwatch/doctor"
)

// scenarioDoctorTargets are the queue managers of --scenario (the built-in
// demo by default) the dashboard would watch, each with its command server
// running: those --qmgr or --qmgrs name, else every one. --mqsc files run
// on the --qmgr one (else the first) after the scenario's own, as a fix
// would be tried. The scenario is simulated first, as sim runs it, so the
// checks see the objects and messages the dashboard would.
func scenarioDoctorTargets(ctx context.Context, o *doctorOpts) ([]doctor.Target, func(), error) {
	b := &o.backend
	s, err := loadScenario(b.scenario)
	if err != nil {
		return nil, nil, fmt.Errorf("--scenario: %w", err)
	}
	res, err := s.Simulate(ctx, demo.SimOptions{})
	if err != nil {
		return nil, nil, fmt.Errorf("--scenario: %w", err)
	}
	qms, err := pickDoctorQMgrs(res.Embedded, b.qmgr, b.qmgrs)
	if err != nil {
		return nil, nil, err
	}
	var notes []string
	for _, f := range b.mqsc.paths() {
		rep, err := runMQSCFile(qms[0], f)
		if err != nil {
			return nil, nil, fmt.Errorf("--mqsc: %w", err)
		}
		notes = append(notes, rep.Notes()...)
	}
	source := "of the scenario " + b.scenario
	if b.scenario == "builtin" || b.scenario == "" {
		source = "of the built-in demo"
	}
	var targets []doctor.Target
	var stops []func()
	stop := func() {
		for _, f := range stops {
			f()
		}
	}
	for _, qm := range qms {
		ts, st, err := embeddedDoctorTarget(qm, source, o.user, notes)
		if err != nil {
			stop()
			return nil, nil, err
		}
		targets, stops = append(targets, ts...), append(stops, st)
		notes = nil // the --mqsc files ran on the first one only
	}
	return targets, stop, nil
}

// pickDoctorQMgrs keeps the queue managers --qmgr or --qmgrs name, in
// that order, else all.
func pickDoctorQMgrs(all []*embedded.QMgr, qmgr, qmgrsFile string) ([]*embedded.QMgr, error) {
	var want []string
	if qmgr != "" {
		want = []string{qmgr}
	}
	if qmgrsFile != "" && qmgr == "" {
		data, err := readQMgrsFile(qmgrsFile)
		if err != nil {
			return nil, err
		}
		entries, err := ibmmq.ParseQMgrFile(data, ibmmq.Settings{})
		if err != nil {
			return nil, fmt.Errorf("--qmgrs %s: %w", mqfmt.Sanitize(qmgrsFile), err)
		}
		for _, e := range entries {
			want = append(want, e.QMgr)
		}
	}
	if len(want) == 0 {
		return all, nil
	}
	byName := map[string]*embedded.QMgr{}
	var names []string
	for _, qm := range all {
		byName[qm.Name()], names = qm, append(names, qm.Name())
	}
	var out []*embedded.QMgr
	for _, n := range want {
		qm, ok := byName[n]
		if !ok {
			return nil, fmt.Errorf("%s: not among the scenario's queue managers (%s)", mqfmt.Sanitize(n), strings.Join(names, ", "))
		}
		out = append(out, qm)
	}
	return out, nil
}
