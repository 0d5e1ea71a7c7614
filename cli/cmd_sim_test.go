package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/poisonwatch/poisonwatch/demo"
	"github.com/poisonwatch/poisonwatch/internal/doctext"
)

func sim(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	code := Run(context.Background(), append([]string{"sim"}, args...), &out, &errb)
	return code, out.String(), errb.String()
}

// TestSimJSONBuiltinDemo runs `poisonwatch sim --json` on the built-in demo
// and checks the figures: every message accounted for once, and the
// incidents where they belong.
func TestSimJSONBuiltinDemo(t *testing.T) {
	code, out, errs := sim(t, "--json", "--duration", "10m")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var res demo.Result
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		t.Fatal(err)
	}
	a := res.Accounting
	if !a.Balanced || a.Accounted != a.Produced || a.Missing+a.Duplicated+a.Unknown+a.DuplicateMsgIds != 0 {
		t.Fatalf("accounting %+v", a)
	}
	if res.Scenario != "builtin" || res.Seed != 42 || res.Simulated != "10m0s" || len(res.QMgrs) != 3 {
		t.Fatalf("scenario %q seed %d simulated %s qmgrs %d", res.Scenario, res.Seed, res.Simulated, len(res.QMgrs))
	}
	t.Logf("produced %d: consumed %d, input queues %d, BOQs %d, DEADQs %d, xmitq %d, other %d, discarded %v, reported %d (%d reports)",
		a.Produced, a.Consumed, a.OnInputQueue, a.OnBOQ, a.OnDeadQ, a.OnXmitQ, a.OnOtherQueue, a.Discarded, a.Reported, a.Reports)
	got := map[string]int{}
	for _, q := range res.QMgrs {
		for _, qr := range q.Queues {
			for _, r := range qr.Reasons {
				got[q.Name+" "+r.DestQ+" "+r.Name] += r.Count
			}
			if qr.Role == demo.RoleInput || qr.Role == demo.RoleBOQ || qr.Role == demo.RoleDeadQ {
				t.Logf("%s %-40s %-5s depth %5d/%5d BOTHRESH %d max BackoutCount %d IPPROCS %d", q.Name, qr.Name, qr.Role,
					qr.Depth, qr.MaxDepth, qr.BackoutThresh, qr.MaxBackoutCount, qr.OpenInput)
			}
		}
	}
	for _, want := range []string{
		"QM1 ORDERS.EXPRESS MQRC_Q_FULL", "QM1 SHIPPING.IN MQRC_BACKOUT_THRESHOLD_REACHED",
		"QM1 ORDERS.RETURNS.IN MQRC_JMS_FORMAT_ERROR", "QM2 INVOICE.IN MQRC_UNKNOWN_OBJECT_NAME",
		"QM2 AUDIT.IN MQRC_Q_FULL", "QM2 STOCK.IN MQRC_UNKNOWN_REMOTE_Q_MGR", "QM2 PAYROLL.IN MQRC_NOT_AUTHORIZED",
		"QM2 PRICING.CLUSTER.Q MQRC_CLUSTER_RESOLUTION_ERROR",
	} {
		if got[want] == 0 {
			t.Errorf("no dead letters %q in %v", want, got)
		}
	}
	t.Logf("dead letters %v", got)
	for _, r := range res.Routes {
		t.Logf("route %s %-18s %-16s %6d %-4s %s %s %d", r.QMgr, r.Consumer, r.Style, r.Count, r.Rule, r.Action, r.Target, r.Reason)
	}
}

func TestSimTextOutput(t *testing.T) {
	code, out, errs := sim(t, "--duration", "3m", "--seed", "7")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	for _, want := range []string{
		"scenario builtin, seed 7, 3m0s simulated",
		"QM1  DEADQ SYSTEM.DEAD.LETTER.QUEUE",
		"ORDERS.IN open by OrderService (input) ×4, WebShop (output)",
		"2085 MQRC_UNKNOWN_OBJECT_NAME → INVOICE.IN@QM2 (put by amqrmppa)",
		"examples on ORDERS.BO:",
		"R1c  loop forever, rolled back",
		"BillingMDB",
		"stopped (R4f)",
		"every message accounted for exactly once",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q", want)
		}
	}
	if strings.ContainsRune(out, '\x1b') {
		t.Error("output holds an escape character")
	}
}

func TestSimScenarioDirectoryWithExtraMQSC(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, dir, "scenario.toml", `name = "tiny"
seed = 3
duration = "1m"
[[qmgr]]
name = "QM1"
mqsc = ["objects.mqsc"]
[[producer]]
name = "P"
queue = "IN"
rate = 2
poison = 0.5
[[consumer]]
name = "C"
queue = "IN"
style = "async"
fail = "body contains POISON"
`)
	writeFile(t, dir, "objects.mqsc", "DEFINE QLOCAL(IN)\nDEFINE QLOCAL(IN.BO)\n")
	writeFile(t, dir, "fix.mqsc", "ALTER QLOCAL(IN) BOTHRESH(2) BOQNAME(IN.BO)\n")
	run := func(args ...string) demo.Result {
		t.Helper()
		code, out, errs := sim(t, append([]string{"--json", "--scenario", dir}, args...)...)
		if code != 0 {
			t.Fatalf("exit %d: %s", code, errs)
		}
		var res demo.Result
		if err := json.Unmarshal([]byte(out), &res); err != nil {
			t.Fatal(err)
		}
		return res
	}
	moved := func(res demo.Result) (n int64) {
		for _, r := range res.Routes {
			if r.Action == "move to BOQ" {
				n += r.Count
			}
		}
		return n
	}
	before := run()
	after := run("--mqsc", "QM1="+filepath.Join(dir, "fix.mqsc"))
	if before.Scenario != "tiny" || before.Simulated != "1m0s" || moved(before) != 0 || moved(after) == 0 {
		t.Fatalf("moves to the BOQ: %d without the extra MQSC, %d with it", moved(before), moved(after))
	}
}

func writeFile(t *testing.T, dir, name, text string) {
	t.Helper()
	if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestSimFlagAndInputErrors(t *testing.T) {
	empty := filepath.Join(t.TempDir(), "empty.mqsc") // a regular file: devices are refused as inputs
	if err := os.WriteFile(empty, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		args []string
		code int
		want string
	}{
		{"help", []string{"--help"}, 0, "Usage: poisonwatch sim"},
		{"unknown_flag", []string{"--colour"}, 2, "flag provided but not defined"},
		{"positional_argument", []string{"extra"}, 2, "Usage"},
		{"negative_duration", []string{"--duration", "-1m"}, 2, "Usage"},
		{"missing_scenario", []string{"--scenario", "/nonexistent/scenario"}, 1, "no such file"},
		{"missing_mqsc_file", []string{"--mqsc", "/nonexistent.mqsc"}, 1, "--mqsc"},
		{"mqsc_for_an_unknown_queue_manager", []string{"--mqsc", "QM7=" + empty}, 1, "no queue manager \"QM7\""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, _, errs := sim(t, tt.args...)
			if code != tt.code || !strings.Contains(errs, tt.want) {
				t.Fatalf("exit %d, stderr %q; want %d and %q", code, errs, tt.code, tt.want)
			}
		})
	}
}

// TestSimReadmeExampleRuns keeps the scenario example of the documentation honest: its
// TOML and MQSC, written to a directory, run and balance.
func TestSimReadmeExampleRuns(t *testing.T) {
	// Only the scenario-format section (in the README or the docs page it
	// moved to): other sections show other TOML files.
	sec, err := doctext.Section("..", "Scenario format")
	if err != nil {
		t.Fatal(err)
	}
	blocks := regexp.MustCompile("(?s)```(\\w*)\\n(.*?)```").FindAllStringSubmatch(sec, -1)
	dir := t.TempDir()
	var mqsc []string
	for _, b := range blocks {
		switch {
		case b[1] == "toml":
			writeFile(t, dir, "scenario.toml", b[2])
		case b[1] == "" && strings.HasPrefix(b[2], "ALTER QMGR"):
			mqsc = append(mqsc, b[2])
		}
	}
	if len(mqsc) != 2 {
		t.Fatalf("%d MQSC examples", len(mqsc))
	}
	writeFile(t, dir, "qm1.mqsc", mqsc[0])
	writeFile(t, dir, "qm2.mqsc", mqsc[1])
	code, out, errs := sim(t, "--scenario", dir, "--duration", "20m")
	if code != 0 || !strings.Contains(out, "every message accounted for exactly once") || !strings.Contains(out, "R9c") {
		t.Fatalf("exit %d: %s\n%s", code, errs, out)
	}
}
