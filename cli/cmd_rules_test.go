package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

func runRulesCLI(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	t.Setenv("XDG_STATE_HOME", t.TempDir())
	var out, errb bytes.Buffer
	code := Run(context.Background(), append([]string{"rules"}, args...), &out, &errb)
	return code, out.String(), errb.String()
}

func TestRulesCheck(t *testing.T) {
	code, out, _ := runRulesCLI(t, "check", "../actions/dlqrules/testdata/ibm-example.rules")
	if code != ExitDone || !strings.Contains(out, "8 rules") {
		t.Errorf("check of IBM's example: exit %d\n%s", code, out)
	}
	bad := filepath.Join(t.TempDir(), "bad.rules")
	if err := os.WriteFile(bad, []byte("REASON(MQRC_Q_FULL) ACTION(RETRY)\n  DESTQ(X) ACTON(FWD)\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	code, _, errOut := runRulesCLI(t, "check", bad)
	if code != ExitUsage || !strings.Contains(errOut, "bad.rules:2:12: unknown keyword ACTON") || !strings.Contains(errOut, "bad.rules: 1 error: ") {
		t.Errorf("check of a bad table: exit %d\n%s", code, errOut)
	}
	if code, _, _ := runRulesCLI(t, "check"); code != ExitUsage {
		t.Errorf("check without a file: exit %d", code)
	}
}

// The preview of the demo table on the built-in demo, whose DEADQ is known:
// 7 Q_FULL retried (they would come back: their consumer's BOQ is full), 13
// forwarded without MQDLH to the consumer that refused their content (they
// would come back too), 4 forwarded to a queue that does not exist, a
// shadowed rule (a fallback, not dead) and a dead one.
func TestRulesPreviewOnTheBuiltinDemo(t *testing.T) {
	code, out, errOut := runRulesCLI(t, "preview", "../testdata/rules/demo.rules", "--scenario", "builtin", "--json")
	if code != ExitDone {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var rep struct {
		Queue string
		Total int
		Rules []struct {
			Matched    int
			ShadowedBy int
			Dead       bool
			Does       []struct {
				Does, Outcome string
				Count         int
			}
		}
	}
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatal(err)
	}
	if rep.Queue != "SYSTEM.DEAD.LETTER.QUEUE" || rep.Total != 24 || len(rep.Rules) != 5 {
		t.Fatalf("report: %s", out)
	}
	want := []string{
		"7 retry to ORDERS.EXPRESS (MQDLH removed): would come back: consumer of ORDERS.EXPRESS.IN (sync-transacted) dead-letters them while ORDERS.BO is full (40/40)",
		"",
		"13 forward to ORDERS.RETURNS.IN (MQDLH removed): would come back: consumer of ORDERS.RETURNS.IN refused them for their content",
		"4 forward to PARKING.NOWHERE (MQDLH kept): would fail with MQRC_UNKNOWN_OBJECT_NAME (2085)",
		"",
	}
	for i, w := range want {
		r := rep.Rules[i]
		got := ""
		if len(r.Does) == 1 {
			got = strings.Join([]string{strconv.Itoa(r.Does[0].Count), r.Does[0].Does + ":", r.Does[0].Outcome}, " ")
		}
		if !strings.HasPrefix(got, w) || (i == 4) != r.Dead {
			t.Errorf("rule %d: %q, dead %v; want %q", i+1, got, r.Dead, w)
		}
	}
	if rep.Rules[1].ShadowedBy != 1 {
		t.Errorf("rule 2 shadowed by %d, want 1", rep.Rules[1].ShadowedBy)
	}
	// Values are exact: FWDQ(&DESTQ) is not HTML-escaped.
	if !strings.Contains(out, "FWDQ(&DESTQ)") || strings.Contains(out, `\u0026`) {
		t.Errorf("the JSON escapes & as HTML does:\n%s", out)
	}
}

// Run and generate on the built-in demo: what the preview said happens.
func TestRulesRunAndGenerateOnTheBuiltinDemo(t *testing.T) {
	code, out, errOut := runRulesCLI(t, "run", "../testdata/rules/demo.rules", "--scenario", "builtin", "--once")
	if code != ExitPartial || !strings.Contains(out, "20 acted on, 4 left after their rules' attempts failed") {
		t.Errorf("run: exit %d\n%s\n%s", code, out, errOut)
	}
	code, out, _ = runRulesCLI(t, "run", "../testdata/rules/demo.rules", "--scenario", "builtin", "--dry-run")
	if code != ExitFailed {
		t.Errorf("dry run: exit %d, want 3 (every message would fail or come back)\n%s", code, out)
	}
	// The dry run says per rule, in table order, what the plan predicts.
	wantInOrder := []string{
		"pass 1, rule 1: Requeue 7 messages", "dry run: 7 of 7 messages would be acted on, 7 would come back",
		"would come back ×7: consumer of ORDERS.EXPRESS.IN (sync-transacted) dead-letters them while ORDERS.BO is full (40/40)",
		"pass 1, rule 3: Requeue 13 messages", "dry run: 13 of 13 messages would be acted on, 13 would come back",
		"pass 1, rule 4: Move 4 messages", "dry run: 0 of 4 messages would be acted on, 4 would fail",
		"would fail ×4: PARKING.NOWHERE does not exist (MQRC_UNKNOWN_OBJECT_NAME)",
		"dry run: 20 would be acted on, 4 would fail, 20 would come back, 0 skipped, 0 left by IGNORE or no rule; nothing changed",
	}
	rest := out
	for _, w := range wantInOrder {
		i := strings.Index(rest, w)
		if i < 0 {
			t.Fatalf("dry run output lacks %q after what came before:\n%s", w, out)
		}
		rest = rest[i+len(w):]
	}
	gen := filepath.Join(t.TempDir(), "gen.rules")
	code, out, errOut = runRulesCLI(t, "generate", "--scenario", "builtin", "--out", gen)
	if code != ExitDone {
		t.Fatalf("generate: exit %d: %s", code, errOut)
	}
	// Success says so: what was written, where.
	if want := "wrote " + gen + ": 3 rules, one per group of the 24 messages on SYSTEM.DEAD.LETTER.QUEUE of QM1"; !strings.HasPrefix(out, want) {
		t.Errorf("generate --out said %q, want %q...", out, want)
	}
	code, out, _ = runRulesCLI(t, "check", gen)
	if code != ExitDone || !strings.Contains(out, "3 rules") {
		t.Errorf("generated table: exit %d\n%s", code, out)
	}
}

// A table line past 72 significant characters is worth one warning, not
// one on stderr as the table is read and the same again in the report.
func TestRulesPreviewWarnsOnce(t *testing.T) {
	long := filepath.Join(t.TempDir(), "long.rules")
	line := "REASON(MQRC_Q_FULL) DESTQ(ORDERS.EXPRESS) ACTION(RETRY) RETRY(3) REPLYQ(ABCDEFG)\n"
	if err := os.WriteFile(long, []byte(line), 0o600); err != nil {
		t.Fatal(err)
	}
	code, out, errOut := runRulesCLI(t, "preview", long, "--scenario", "builtin")
	if code != ExitDone {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if n := strings.Count(out+errOut, "80 significant characters; IBM's conventions allow 72"); n != 1 {
		t.Errorf("the 72-character warning is printed %d times:\n%s%s", n, out, errOut)
	}
}
