//go:build ibmmq

package cli

import (
	"flag"
	"fmt"
	"os"

	"github.com/poisonwatch/poisonwatch/backend/ibmmq"
	"github.com/poisonwatch/poisonwatch/doctor"
	"github.com/poisonwatch/poisonwatch/mqwatch"
)

// mqFlags are a command line's IBM MQ connection settings: MQ_* from the
// environment, then the flags. Only this build has them; each command
// parses them into its own value.
type mqFlags struct {
	settings ibmmq.Settings
	qmgrs    string // several queue managers to watch at once (--qmgrs)
}

func newMQFlags() *mqFlags { return &mqFlags{settings: ibmmq.FromEnv(os.Getenv)} }

func (m *mqFlags) register(fs *flag.FlagSet) {
	m.settings.RegisterFlags(fs)
	if fs.Lookup("qmgrs") == nil {
		fs.StringVar(&m.qmgrs, "qmgrs", "", "TOML file listing several queue managers to watch ([[qmgr]] name, channel, conn, ccdt_url, ...)")
	}
}

func (m *mqFlags) qmgrName() string { return m.settings.QMgr }

// backend builds the backend after flag parsing.
func (m *mqFlags) backend(prompt ibmmq.PasswordPrompter) (mqwatch.Connector, error) {
	if err := m.settings.Resolve(prompt); err != nil {
		return nil, err
	}
	return ibmmq.New(m.settings)
}

// backends builds one backend per queue manager of the --qmgrs file
// (the dashboard's flag, or this build's for other commands), or the one
// the flags name. Credentials are resolved (and prompted for) once.
func (m *mqFlags) backends(prompt ibmmq.PasswordPrompter, file string) ([]qmgrConn, error) {
	if file == "" {
		file = m.qmgrs
	}
	if file == "" {
		c, err := m.backend(prompt)
		if err != nil {
			return nil, err
		}
		return []qmgrConn{{name: m.settings.QMgr, conn: c}}, nil
	}
	data, err := readQMgrsFile(file)
	if err != nil {
		return nil, err
	}
	// The flags' connection checks are each entry's: a token or -keyr given
	// here serves entries that are client connections.
	if err := m.settings.ResolveForFile(prompt); err != nil {
		return nil, err
	}
	all, err := ibmmq.ParseQMgrFile(data, m.settings)
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

// doctorTargets is what `poisonwatch doctor` checks: each queue
// manager the same flags would watch, with how its connection was chosen.
func (m *mqFlags) doctorTargets(prompt ibmmq.PasswordPrompter, file string) ([]doctor.Target, error) {
	qs, err := m.backends(prompt, file)
	if err != nil {
		return []doctor.Target{{Name: m.settings.QMgr, Settings: doctor.Check{Name: "connection", Why: err.Error(),
			Details: m.settings.Explain(nil)}}}, nil
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

// listedBackend is the queue manager name of a --qmgrs file, connected with
// that entry's settings: a command that acts on one queue manager of the
// file.
func (m *mqFlags) listedBackend(prompt ibmmq.PasswordPrompter, file, name string) (mqwatch.Connector, error) {
	qs, err := m.backends(prompt, file)
	if err != nil {
		return nil, err
	}
	for _, q := range qs {
		if q.name == name {
			return q.conn, nil
		}
	}
	return nil, fmt.Errorf("--qmgrs %s does not list %s", file, name)
}

// pcfQueues are the --command-queue and --reply-model IBM MQ's flags
// declare (doctor checks them).
func (m *mqFlags) pcfQueues() (commandQueue, replyModel string) {
	return m.settings.CommandQueue, m.settings.ReplyModel
}
