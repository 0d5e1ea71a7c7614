package cli

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestVerbsStartWhereTheDashboardDoes: with no backend flags the commands
// that only look (doctor, fix --list, rules preview and generate) look at
// the built-in demo, as `poisonwatch` shows it; the ones that change a
// queue or a message still ask for a queue manager (docs/actions.md), a
// dry run included. Each case runs the command line as an operator types it.
func TestVerbsStartWhereTheDashboardDoes(t *testing.T) {
	t.Setenv("XDG_STATE_HOME", t.TempDir())
	qm2 := filepath.Join(t.TempDir(), "qmgrs.toml")
	if err := os.WriteFile(qm2, []byte("[[qmgr]]\nname = \"QM2\"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name string
		args []string
		code int
		want []string // in stdout, or stderr for a usage error
	}{
		{"doctor_checks_the_demo", []string{"doctor"}, 0,
			[]string{"QM1 (embedded, of the built-in demo)", "poisonwatch doctor: QM2", "poisonwatch doctor: QM3", "all checks passed"}},
		{"doctor_qmgr_checks_one", []string{"doctor", "--qmgr", "QM2"}, 0, []string{"QM2 (embedded, of the built-in demo)"}},
		{"doctor_qmgrs_checks_those_listed", []string{"doctor", "--qmgrs", qm2}, 0, []string{"poisonwatch doctor: QM2"}},
		{"doctor_scenario_builtin_is_the_default", []string{"doctor", "--scenario", "builtin", "--qmgr", "QM1"}, 0, []string{"of the built-in demo"}},
		{"doctor_mqsc_twice", []string{"doctor", "--mqsc", "../testdata/doctor/app1.mqsc", "--mqsc", exMQSC}, 0,
			[]string{"defined by --mqsc ../testdata/doctor/app1.mqsc, " + exMQSC}},
		{"fix_list_lists_the_demo", []string{"fix", "--list"}, 0, []string{"R1c:ORDERS.IN", "R8b:ORDERS.BO"}},
		{"fix_list_qmgrs_picks_its_entry", []string{"fix", "--list", "--qmgrs", qm2}, 0, []string{"QM2"}},
		{"fix_alert_needs_a_queue_manager", []string{"fix", "--alert", "R8b:ORDERS.BO", "--dry-run"}, ExitUsage, []string{"no queue manager to act on"}},
		{"fix_alert_on_the_demo_when_named", []string{"fix", "--alert", "R8b:ORDERS.BO", "--dry-run", "--scenario", "builtin"}, 0, []string{"every step would be applied"}},
		{"rules_preview_previews_the_demo", []string{"rules", "preview", "../testdata/rules/demo.rules"}, 0, []string{"ORDERS"}},
		{"rules_generate_reads_the_demo", []string{"rules", "generate"}, 0, []string{"ACTION("}},
		{"rules_run_needs_a_queue_manager", []string{"rules", "run", "../testdata/rules/demo.rules", "--dry-run"}, ExitUsage, []string{"no queue manager to act on"}},
		{"requeue_needs_a_queue_manager", []string{"requeue", "--queue", "SYSTEM.DEAD.LETTER.QUEUE", "--all", "--dry-run"}, ExitUsage, []string{"--scenario builtin for the demo"}},
		{"edit_needs_a_queue_manager", []string{"edit", "--queue", "Q", "--msgid", strings.Repeat("00", 24), "--body-file", exMQSC}, ExitUsage, []string{"no queue manager to act on"}},
		{"requeue_on_the_demo_when_named", []string{"requeue", "--scenario", "builtin", "--queue", "SYSTEM.DEAD.LETTER.QUEUE", "--all", "--dry-run", "--limit", "3"}, ExitFailed, []string{"would come back"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel() // each simulates the demo: one per core
			var out, errb bytes.Buffer
			code := Run(context.Background(), tc.args, &out, &errb)
			got := out.String() + errb.String()
			if code != tc.code {
				t.Fatalf("exit %d, want %d\n%s", code, tc.code, got)
			}
			for _, w := range tc.want {
				if !strings.Contains(got, w) {
					t.Errorf("output lacks %q:\n%s", w, got)
				}
			}
		})
	}
}

// TestDashboardQMgrWatchesOne: the dashboard takes --qmgr as the verbs do;
// on the embedded backend it keeps that queue manager of the scenario.
func TestDashboardQMgrWatchesOne(t *testing.T) {
	be, err := startBackend(context.Background(), tuiOpts{backend: "embedded", qmgr: "QM2"})
	if err != nil {
		t.Fatal(err)
	}
	defer be.stop()
	if len(be.qmgrs) != 1 || be.qmgrs[0].name != "QM2" {
		t.Fatalf("watching %v", be.qmgrs)
	}
	if _, err := startBackend(context.Background(), tuiOpts{backend: "embedded", qmgr: "QM9"}); err == nil || !strings.Contains(err.Error(), "QM1, QM2, QM3") {
		t.Errorf("--qmgr QM9: %v", err)
	}
}

// TestPathListKeepsEachFileWhole: --mqsc is repeatable and a name with a
// comma is one file.
func TestPathListKeepsEachFileWhole(t *testing.T) {
	var p pathList
	for _, v := range []string{"a.mqsc", "b,c.mqsc"} {
		if err := p.Set(v); err != nil {
			t.Fatal(err)
		}
	}
	if got := p.paths(); len(got) != 2 || got[1] != "b,c.mqsc" {
		t.Errorf("paths %q", got)
	}
	if p.Set("") == nil || p.Set("a\x00b") == nil {
		t.Error("an empty name or one with a NUL accepted")
	}
}
