//go:build ibmmq

package cli

import (
	"flag"
	"fmt"
	"os"

	"github.com/poisonwatch/poisonwatch/internal/doctor"
	"github.com/poisonwatch/poisonwatch/mqwatch"
	"github.com/poisonwatch/poisonwatch/mqwatch/ibmmq"
)

// mqSettings is filled from the environment, then from the flags.
var mqSettings = ibmmq.FromEnv(os.Getenv)

// qmgrsFile lists several queue managers to watch at once (--qmgrs).
var qmgrsFile string

func registerMQFlags(fs *flag.FlagSet) {
	mqSettings.RegisterFlags(fs)
	if fs.Lookup("qmgrs") == nil {
		fs.StringVar(&qmgrsFile, "qmgrs", "", "TOML file listing several queue managers to watch ([[qmgr]] name, channel, conn, ccdt_url, ...)")
	}
}

func mqQMgrName() string { return mqSettings.QMgr }

// ibmmqBackend builds the backend after flag parsing.
func ibmmqBackend(prompt ibmmq.PasswordPrompter) (mqwatch.Connector, error) {
	if err := mqSettings.Resolve(prompt); err != nil {
		return nil, err
	}
	return ibmmq.New(mqSettings)
}

// ibmmqBackends builds one backend per queue manager of the --qmgrs file
// (the dashboard's flag, or this build's for other commands), or the one
// the flags name. Credentials are resolved (and prompted for) once.
func ibmmqBackends(prompt ibmmq.PasswordPrompter, file string) ([]qmgrConn, error) {
	if file == "" {
		file = qmgrsFile
	}
	if file == "" {
		c, err := ibmmqBackend(prompt)
		if err != nil {
			return nil, err
		}
		return []qmgrConn{{name: mqSettings.QMgr, conn: c}}, nil
	}
	data, err := readBounded(file, 1<<20)
	if err != nil {
		return nil, err
	}
	if err := mqSettings.Resolve(prompt); err != nil {
		return nil, err
	}
	all, err := ibmmq.ParseQMgrFile(data, mqSettings)
	if err != nil {
		return nil, err
	}
	var out []qmgrConn
	for _, s := range all {
		if err := s.Resolve(nil); err != nil {
			return nil, fmt.Errorf("%s: %w", s.QMgr, err)
		}
		c, err := ibmmq.New(s)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", s.QMgr, err)
		}
		out = append(out, qmgrConn{name: s.QMgr, conn: c})
	}
	return out, nil
}

// defaultBackend: the IBM MQ edition watches a real queue manager by default.
const defaultBackend = "ibmmq"

// ibmmqDoctorTargets is what `poisonwatch doctor` checks: each queue
// manager the same flags would watch, with how its connection was chosen.
func ibmmqDoctorTargets(prompt ibmmq.PasswordPrompter, file string) ([]doctor.Target, error) {
	qs, err := ibmmqBackends(prompt, file)
	if err != nil {
		return []doctor.Target{{Name: mqSettings.QMgr, Settings: doctor.Check{Name: "connection", Why: err.Error(),
			Details: mqSettings.Explain(nil)}}}, nil
	}
	out := make([]doctor.Target, 0, len(qs))
	for _, q := range qs {
		if t, ok := ibmmqDoctorTarget(q); ok {
			out = append(out, t)
		}
	}
	return out, nil
}

// ibmmqDoctorTarget is one IBM MQ queue manager for the doctor.
func ibmmqDoctorTarget(q qmgrConn) (doctor.Target, bool) {
	b, ok := q.conn.(*ibmmq.Backend)
	if !ok {
		return doctor.Target{}, false
	}
	s := b.Settings()
	why := s.Mode().String()
	if w := b.ConnectWarning(); w != nil {
		why += "; last MQCONNX warned: " + w.Error()
	}
	return doctor.Target{Name: q.name, Connector: b, Connect: mqwatch.ConnectOptions{ApplName: doctorAppl},
		Principal: s.Principal(), Client: s.Mode() != ibmmq.ModeBindings, Admin: ibmmq.DoctorAdmin,
		Settings: doctor.Check{Name: "connection", OK: true, Why: why, Details: s.Explain(fileExists)}}, true
}

func fileExists(name string) bool { _, err := os.Stat(name); return err == nil }
