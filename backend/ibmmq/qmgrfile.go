package ibmmq

import (
	"fmt"

	"github.com/poisonwatch/poisonwatch/internal/safeload"
)

// qmgrEntry is one queue manager of a --qmgrs file. Empty fields keep the
// value the environment and flags gave (credentials come only from there).
type qmgrEntry struct {
	Name      string `toml:"name"`
	Channel   string `toml:"channel"`
	ConnName  string `toml:"conn"`
	Cipher    string `toml:"cipher"`
	KeyRepo   string `toml:"key_repository"`
	CertLabel string `toml:"cert_label"`
	CCDTURL   string `toml:"ccdt_url"`
	TimeZone  string `toml:"time_zone"`
	// UnattendedAfter is how long dead letters may wait on this queue
	// manager before R8f; the dashboard reads it, the connection does not.
	UnattendedAfter string `toml:"unattended_after"`
}

// ParseQMgrFile reads the queue managers a dashboard watches at once:
//
//	[[qmgr]]
//	name = "QM1"
//	channel = "APP.SVRCONN"
//	conn = "mq1.example.com(1414)"
//
//	[[qmgr]]
//	name = "QM2"
//	ccdt_url = "file:///etc/mq/ccdt.json"
//
// Each entry starts from base (the environment and flags), so MQ_USER and
// MQ_PASSWORD apply to all; unknown keys are an error.
func ParseQMgrFile(data []byte, base Settings) ([]Settings, error) {
	var f struct {
		QMgr []qmgrEntry `toml:"qmgr"`
	}
	// The file is checked for size, nesting and key count before decoding.
	if err := safeload.DecodeTOML(data, &f, safeload.Limits{}); err != nil {
		return nil, fmt.Errorf("queue manager file: %w", err)
	}
	if len(f.QMgr) == 0 {
		return nil, fmt.Errorf("queue manager file: no [[qmgr]] entry")
	}
	seen := map[string]bool{}
	out := make([]Settings, 0, len(f.QMgr))
	for i, e := range f.QMgr {
		if e.Name == "" {
			return nil, fmt.Errorf("queue manager file: entry %d has no name", i+1)
		}
		if seen[e.Name] {
			return nil, fmt.Errorf("queue manager file: %s is listed twice", e.Name)
		}
		seen[e.Name] = true
		s := base
		s.cloneSources()
		s.QMgr = e.Name
		s.note("qmgr", "--qmgrs entry "+e.Name)
		entryWins(&s, e)
		set := func(dst *string, v string) {
			if v != "" {
				*dst = v
			}
		}
		set(&s.Channel, e.Channel)
		set(&s.ConnName, e.ConnName)
		set(&s.CipherSpec, e.Cipher)
		set(&s.KeyRepository, e.KeyRepo)
		set(&s.CertLabel, e.CertLabel)
		set(&s.CCDTURL, e.CCDTURL)
		set(&s.TimeZone, e.TimeZone)
		s.UnattendedAfter = e.UnattendedAfter
		out = append(out, s)
	}
	if err := shareTLSPerProcess(out); err != nil {
		return nil, fmt.Errorf("queue manager file: %w", err)
	}
	return out, nil
}
