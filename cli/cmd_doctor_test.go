package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/poisonwatch/poisonwatch/doctor"
)

func runDoctorArgs(t *testing.T, args ...string) (string, string, int) {
	t.Helper()
	var out, errb bytes.Buffer
	code := Run(context.Background(), append([]string{"doctor"}, args...), &out, &errb)
	return out.String(), errb.String(), code
}

// TestDoctorCommandShowsTheGrantsApp1Needs is the README's example: the
// restricted user's missing authorities, each with its setmqaut line.
func TestDoctorCommandShowsTheGrantsApp1Needs(t *testing.T) {
	out, errs, code := runDoctorArgs(t, "--mqsc", "../testdata/doctor/app1.mqsc", "--user", "app1")
	if code != doctor.ExitDegraded {
		t.Fatalf("exit %d, stderr %s\n%s", code, errs, out)
	}
	for _, want := range []string{
		"✔ MQCONNX: connected to QM1",
		"✔ command server: MQCMD_PING_Q_MGR answered",
		"✘ dashboard: display and browse the DEADQ: app1 lacks +browse +dsp on SYSTEM.DEAD.LETTER.QUEUE",
		"    fix: setmqaut -m QM1 -t q -n SYSTEM.DEAD.LETTER.QUEUE -p app1 +browse +dsp",
		"    fix: setmqaut -m QM1 -t q -n APP.ORDERS -p app1 +setall",
		"    fix: setmqaut -m QM1 -t qmgr -p app1 +setall +altusr",
		"will not work fully",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
}

func TestDoctorCommandJSON(t *testing.T) {
	out, _, code := runDoctorArgs(t, "--mqsc", "../testdata/doctor/app1.mqsc", "--json")
	if code != doctor.ExitOK {
		t.Fatalf("exit %d:\n%s", code, out)
	}
	var rs []doctor.Report
	if err := json.Unmarshal([]byte(out), &rs); err != nil || len(rs) != 1 || rs[0].Exit != 0 || len(rs[0].Checks) < 5 {
		t.Fatalf("%v: %s", err, out)
	}
}

func TestDoctorCommandUsage(t *testing.T) {
	for _, args := range [][]string{{"--backend", "nope"}, {"--mqsc", "../testdata/doctor/missing.mqsc"},
		{"--qmgr", "QM9"}, {"--backend", "ibmmq", "--scenario", "builtin"}, {"--user", "app1", "--backend", "ibmmq"}} {
		if _, errs, code := runDoctorArgs(t, args...); code != doctor.ExitNoConnection || errs == "" {
			t.Errorf("%v: exit %d, stderr %q", args, code, errs)
		}
	}
}
