package cli

import (
	"context"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/poisonwatch/poisonwatch/incident/journal"

	"github.com/poisonwatch/poisonwatch/actions"
	"github.com/poisonwatch/poisonwatch/backend/embedded"
	"github.com/poisonwatch/poisonwatch/backend/ibmmq"
	"github.com/poisonwatch/poisonwatch/codec/mqfmt"
	"github.com/poisonwatch/poisonwatch/doctor"
	"github.com/poisonwatch/poisonwatch/incident/record"
	"github.com/poisonwatch/poisonwatch/model"
	"github.com/poisonwatch/poisonwatch/mqwatch"
	"github.com/poisonwatch/poisonwatch/ui"
)

// qmgrConn is one queue manager the dashboard watches.
type qmgrConn struct {
	name string
	conn mqwatch.Connector
}

// backend is what the dashboard runs on: the queue managers, the operations
// engine for actions, and how to stop them.
type backend struct {
	qmgrs  []qmgrConn
	alerts *model.AlertBook // alert histories kept in the state directory; nil: each App its own
	rec    *record.Writer   // the recording, nil when not recording
	// journal is the account of acts the engines write and every view
	// reads (acts); made on first use.
	journal *journal.Journal
	ops     ui.Operations
	rules   ui.RulesOps // the rules table predictions, on the same engines
	stop    func()
	styles  map[string]map[string]actions.Style // known consumer styles, per queue manager
	// pauseAfter holds asf MDBs' maxSequentialDeliveryFailures + 1 (R6i),
	// per queue manager and queue.
	pauseAfter map[string]map[string]int32
	// now is the queue managers' clock when it is not the wall clock (the
	// demo's warm-up); warm is closed once it is.
	now  func() time.Time
	warm <-chan struct{}
	// doctor lists the embedded queue managers the doctor checks as the
	// dashboard starts (--mqsc with --user); IBM MQ ones are found in qmgrs.
	doctor []doctor.Target
	// fleet is the fleet read from Prometheus (--prometheus), nil without.
	fleet ui.FleetFeed
	// unattended is R8f's threshold per queue manager (--unattended-after,
	// a --qmgrs entry's unattended_after).
	unattended map[string]time.Duration
}

// acts is the backend's journal: one for the process, shared by its
// engines, its screens (and, with serve, its room) and its recording.
func (be *backend) acts() *journal.Journal {
	if be.journal == nil {
		be.journal = journal.New()
	}
	return be.journal
}

func startBackend(ctx context.Context, o tuiOpts) (*backend, error) {
	switch o.backend {
	case "ibmmq":
		if o.user != "" {
			return nil, fmt.Errorf("--user is for the embedded backend; IBM MQ authenticates MQ_USER")
		}
		qs, err := o.mq.backends(promptPassword, o.qmgrs)
		if err != nil {
			return nil, err
		}
		be := &backend{qmgrs: qs, stop: func() {}}
		if be.unattended, err = unattendedAfter(o, qs); err != nil {
			return nil, err
		}
		return be, nil
	case "embedded":
	default:
		return nil, fmt.Errorf("unknown backend %q (embedded or ibmmq)", o.backend)
	}
	if o.user != "" && o.mqsc == "" {
		return nil, fmt.Errorf("--user needs --mqsc: the file's SET AUTHREC records say what the user may do")
	}
	be, err := startEmbedded(ctx, o)
	if err == nil && o.user != "" {
		err = be.runAs(o)
	}
	if err == nil && o.qmgrs != "" {
		be.qmgrs, err = watchListed(be.qmgrs, o.qmgrs, os.Stderr)
	}
	if err == nil && o.qmgr != "" {
		be.qmgrs, err = watchOne(be.qmgrs, o.qmgr)
	}
	if err == nil {
		be.unattended, err = unattendedAfter(o, be.qmgrs)
	}
	if err != nil && be != nil {
		be.stop()
	}
	if err != nil {
		return nil, err
	}
	return be, nil
}

// startEmbedded runs the queue managers of the scenario (the built-in
// demo by default), or QM1 made of the --mqsc files; with both, the files
// run on the scenario's queue manager (--qmgr, else its first) once it is
// defined.
func startEmbedded(ctx context.Context, o tuiOpts) (*backend, error) {
	if o.mqsc != "" && o.scenario == "" {
		qm := embedded.New(embedded.Options{Name: "QM1"})
		if err := runMQSCFiles(qm, o.mqsc); err != nil {
			return nil, err
		}
		return &backend{qmgrs: []qmgrConn{{name: qm.Name(), conn: qm}}, stop: func() {}}, nil
	}
	be, err := startDemo(ctx, o.scenario)
	if err != nil || o.mqsc == "" {
		return be, err
	}
	for _, q := range be.qmgrs {
		if o.qmgr != "" && q.name != o.qmgr {
			continue
		}
		if e, ok := q.conn.(interface{ Embedded() *embedded.QMgr }); ok && e.Embedded() != nil {
			err = runMQSCFiles(e.Embedded(), o.mqsc)
		}
		break
	}
	if err != nil {
		be.stop()
		return nil, err
	}
	return be, nil
}

// runMQSCFiles runs each --mqsc file on qm, in order; their notes (what
// the embedded queue manager does not model) are left on stderr, on the
// screen when the dashboard exits.
func runMQSCFiles(qm *embedded.QMgr, files pathList) error {
	for _, f := range files.paths() {
		rep, err := runMQSCFile(qm, f)
		if err != nil {
			return fmt.Errorf("--mqsc: %w", err)
		}
		for _, n := range rep.Notes() {
			fmt.Fprintf(os.Stderr, "poisonwatch: --mqsc %s: %s\n", mqfmt.Sanitize(f), n)
		}
	}
	return nil
}

// watchOne keeps the queue manager --qmgr names.
func watchOne(all []qmgrConn, name string) ([]qmgrConn, error) {
	var names []string
	for _, q := range all {
		if q.name == name {
			return []qmgrConn{q}, nil
		}
		names = append(names, q.name)
	}
	return nil, fmt.Errorf("--qmgr %s: not among the embedded queue managers (%s)", mqfmt.Sanitize(name), strings.Join(names, ", "))
}

// watchListed keeps the queue managers a --qmgrs file names, in its order.
// The embedded backend runs its queue managers in this process, so the file
// chooses among the scenario's (a fleet's QM01 ... QM50): a name the
// scenario lacks is an error, and connection settings are not used (said
// on stderr, so that a file written for IBM MQ is not misread).
func watchListed(all []qmgrConn, file string, stderr io.Writer) ([]qmgrConn, error) {
	data, err := readQMgrsFile(file)
	if err != nil {
		return nil, err
	}
	entries, err := ibmmq.ParseQMgrFile(data, ibmmq.Settings{})
	if err != nil {
		return nil, fmt.Errorf("--qmgrs %s: %w", mqfmt.Sanitize(file), err)
	}
	byName := make(map[string]qmgrConn, len(all))
	for _, q := range all {
		byName[q.name] = q
	}
	var out []qmgrConn
	var unknown, connected []string
	for _, s := range entries {
		q, ok := byName[s.QMgr]
		if !ok {
			unknown = append(unknown, s.QMgr)
			continue
		}
		out = append(out, q)
		if s.HasConnectionSettings() {
			connected = append(connected, q.name)
		}
	}
	if len(unknown) > 0 {
		return nil, fmt.Errorf("--qmgrs %s: %s not among the embedded queue managers (%s ... %s)", mqfmt.Sanitize(file),
			mqfmt.Sanitize(strings.Join(unknown, ", ")), all[0].name, all[len(all)-1].name)
	}
	if len(connected) > 0 {
		fmt.Fprintf(stderr, "poisonwatch: --qmgrs %s: the embedded backend connects in this process; the connection settings of %s are not used\n",
			mqfmt.Sanitize(file), mqfmt.Sanitize(strings.Join(connected, ", ")))
	}
	return out, nil
}
