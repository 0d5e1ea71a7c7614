package dlqrules

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/poisonwatch/poisonwatch/backend/embedded"
	"github.com/poisonwatch/poisonwatch/codec/mqfmt"
)

func (f *fixture) runTable(t *testing.T, table string, o RunOptions) (*RunResult, error) {
	t.Helper()
	o.Sleep = f.clk.Sleep
	return Run(f.ctx, f.source(""), mustParse(t, table), o)
}

// RETRY(n) against a target that fails twice: attempts RETRYINT apart, the
// third works, the MQDLH is removed as a requeue removes it.
func TestRunRetryWithInjectedFailingTarget(t *testing.T) {
	f := newFixture(t)
	f.dead(1, "ORDERS.IN", mqfmt.RCQFull, nil)
	f.qm.Faults().Add(embedded.Fault{Verb: embedded.VerbPut, Queue: "ORDERS.IN", Times: 2, RC: mqfmt.RCQFull})
	res, err := f.runTable(t, "RETRYINT(7) WAIT(NO)\nREASON(MQRC_Q_FULL) ACTION(RETRY) RETRY(3)\n", RunOptions{})
	if err != nil {
		t.Fatalf("Run: %v (%s)", err, res)
	}
	var done []int
	for _, st := range res.Steps {
		done = append(done, st.Result.Done)
	}
	if fmt.Sprint(done) != "[0 0 1]" {
		t.Errorf("messages done per attempt = %v, want two failed attempts and a third that works", done)
	}
	if res.Done != 1 || res.Failed != 0 || res.Left != 0 {
		t.Errorf("result = %s", res)
	}
	retries := 0
	for _, d := range f.clk.sleeps {
		if d == 7*time.Second {
			retries++
		}
	}
	if retries != 2 {
		t.Errorf("slept %v, want two RETRYINT(7) waits", f.clk.sleeps)
	}
	got := f.browse("ORDERS.IN")
	if len(got) != 1 || mqfmt.Trim(got[0].MD.Format) != "MQSTR" || string(got[0].Data) != `{"n":1}` {
		t.Fatalf("ORDERS.IN = %+v", got)
	}
	f.depths(t, map[string]int{"QM1.DEADQ": 0})
}

// When a rule's attempts are spent, the next matching rule is tried, as
// runmqdlq does; FWD keeps the MQDLH by default.
func TestRunFallsThroughToTheNextRuleWhenAttemptsAreSpent(t *testing.T) {
	f := newFixture(t)
	f.dead(1, "ORDERS.IN", mqfmt.RCQFull, nil)
	f.qm.Faults().Add(embedded.Fault{Verb: embedded.VerbPut, Queue: "ORDERS.IN", RC: mqfmt.RCPutInhibited})
	res, err := f.runTable(t, "RETRYINT(3) WAIT(NO)\nREASON(MQRC_Q_FULL) ACTION(RETRY) RETRY(2)\nACTION(FWD) FWDQ(PARKING.Q)\n", RunOptions{})
	if err != nil {
		t.Fatalf("Run: %v", err)
	}
	var rules []int
	for _, st := range res.Steps {
		rules = append(rules, st.Rule)
	}
	if fmt.Sprint(rules) != "[1 1 2]" {
		t.Errorf("steps by rule = %v, want [1 1 2]", rules)
	}
	got := f.browse("PARKING.Q")
	if len(got) != 1 || mqfmt.Trim(got[0].MD.Format) != "MQDEAD" {
		t.Fatalf("PARKING.Q = %+v, want the message with its MQDLH", got)
	}
}

// HEADER(NO) strips the MQDLH; DISCARD archives before removing; IGNORE and
// unmatched messages stay; one audit line per message acted on.
func TestRunHeaderDiscardIgnoreAndAudit(t *testing.T) {
	f := newFixture(t)
	f.dead(1, "ORDERS.IN", mqfmt.RCQFull, nil)
	f.dead(2, "PAYMENTS.IN", mqfmt.RCQFull, nil)
	f.dead(3, "OTHER.IN", mqfmt.RCQFull, nil)
	f.dead(4, "ELSE.IN", mqfmt.RCQFull, nil)
	res, err := f.runTable(t, "WAIT(NO)\nDESTQ(ORDERS.IN) ACTION(FWD) FWDQ(PARKING.Q) HEADER(NO)\n"+
		"DESTQ(PAYMENTS.IN) ACTION(DISCARD)\nDESTQ(OTHER.IN) ACTION(IGNORE)\n", RunOptions{})
	if err != nil {
		t.Fatalf("Run: %v", err)
	}
	if res.Done != 2 || res.Left != 2 {
		t.Errorf("result = %s", res)
	}
	got := f.browse("PARKING.Q")
	if len(got) != 1 || mqfmt.Trim(got[0].MD.Format) != "MQSTR" || string(got[0].Data) != `{"n":1}` {
		t.Fatalf("PARKING.Q = %+v, want the message without MQDLH", got)
	}
	archives, _ := filepath.Glob(filepath.Join(f.dir, "archive", "*"))
	if len(archives) != 1 {
		t.Errorf("archives = %v, want one", archives)
	}
	audit, _ := os.ReadFile(filepath.Join(f.dir, "audit.jsonl"))
	// Each message: "pending" before its batch's get, its outcome after
	// MQCMIT; each run (a requeue, a discard): one line for the act.
	n, p, acts := strings.Count(string(audit), "\n"), strings.Count(string(audit), `"outcome":"pending"`), strings.Count(string(audit), `"act":"run"`)
	if n != 6 || p != 2 || acts != 2 {
		t.Errorf("audit has %d lines (%d pending, %d acts), want 6 (2 pending, 2 acts):\n%s", n, p, acts, audit)
	}
	f.depths(t, map[string]int{"QM1.DEADQ": 2})
}

// A dry run reports per message and changes nothing.
func TestRunDryRunChangesNothing(t *testing.T) {
	f := newFixture(t)
	f.dead(1, "ORDERS.IN", mqfmt.RCQFull, nil)
	res, err := f.runTable(t, "REASON(MQRC_Q_FULL) ACTION(RETRY)\n", RunOptions{DryRun: true})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Steps) != 1 || res.Steps[0].Result.Items[0].Text(res.Steps[0].Result.Plan.Request.Op) != "would requeue" || res.Done != 0 {
		t.Errorf("dry run = %+v", res)
	}
	f.depths(t, map[string]int{"QM1.DEADQ": 1, "ORDERS.IN": 0})
}

// PUTAUT(CTX) puts with the message's user's authority (alternate user): the
// fixture's operator may put to ORDERS.IN but alice may not, so the retry is
// refused with 2035, says which setmqaut is missing, and the message stays.
func TestRunPutautCtxPutsAsTheMessagesUser(t *testing.T) {
	f := newFixture(t)
	f.dead(1, "ORDERS.IN", mqfmt.RCQFull, nil)
	res, err := f.runTable(t, "WAIT(NO)\nACTION(RETRY) PUTAUT(CTX) RETRY(1)\n", RunOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if res.Done != 0 || len(res.Steps) == 0 {
		t.Fatalf("result = %s", res)
	}
	last := res.Steps[len(res.Steps)-1].Result
	out := last.Items[0].Text(last.Plan.Request.Op)
	if !strings.Contains(out, "MQRC_NOT_AUTHORIZED (2035)") || !strings.Contains(out, "alice") || !strings.Contains(out, "+altusr") {
		t.Errorf("outcome %q: want 2035 for the message's user alice and the setmqaut needed", out)
	}
	f.depths(t, map[string]int{"QM1.DEADQ": 1, "ORDERS.IN": 0})

	// Without PUTAUT(CTX) the operator's own authority puts it.
	if res, err = f.runTable(t, "WAIT(NO)\nACTION(RETRY)\n", RunOptions{}); err != nil || res.Done != 1 {
		t.Fatalf("PUTAUT(DEF) retry: %v %s", err, res)
	}
}

// WAIT(nnn) waits that long in MQGET (not a sleep) for a new message, then
// stops after one more look; a message left by IGNORE does not wake it;
// WAIT(NO) and --once stop at once; cancelling stops a WAIT(YES) run.
func TestRunWaitEndsAfterTheIdleInterval(t *testing.T) {
	f := newFixture(t)
	f.dead(1, "ORDERS.IN", mqfmt.RCQFull, nil) // stays: IGNORE
	var idles []time.Duration
	res, err := f.runTable(t, "WAIT(1)\nACTION(IGNORE)\n", RunOptions{Idle: func(d time.Duration) { idles = append(idles, d) }})
	if err != nil {
		t.Fatal(err)
	}
	if fmtDurations(idles) != "1s" || len(f.clk.sleeps) != 0 || res.Passes != 2 || res.Left != 1 {
		t.Errorf("WAIT(1): waited %v, slept %v, %d passes, %d left; want one 1s MQGET wait, no sleep, 2 passes, 1 left",
			idles, f.clk.sleeps, res.Passes, res.Left)
	}
	idles = nil
	if _, err := f.runTable(t, "WAIT(YES)\nACTION(DISCARD)\n", RunOptions{Once: true, Idle: func(d time.Duration) { idles = append(idles, d) }}); err != nil || len(f.clk.sleeps) != 0 || len(idles) != 0 {
		t.Errorf("--once: err %v, slept %v, waited %v", err, f.clk.sleeps, idles)
	}
	if len(f.browse("QM1.DEADQ")) != 0 {
		t.Errorf("--once left %d messages", len(f.browse("QM1.DEADQ")))
	}
	ctx, cancel := context.WithCancel(f.ctx)
	cancel()
	_, err = Run(ctx, f.source(""), mustParse(t, "ACTION(DISCARD)"), RunOptions{Sleep: f.clk.Sleep})
	if !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled WAIT(YES) run: %v", err)
	}
}

// A message put while a WAIT(YES) run waits in MQGET wakes it and is
// processed in the next pass; cancelling then ends the run.
func TestRunWaitProcessesAMessageArrivingDuringTheWait(t *testing.T) {
	f := newFixture(t)
	ctx, cancel := context.WithCancel(f.ctx)
	defer cancel()
	idle := make(chan time.Duration, 8)
	type result struct {
		res *RunResult
		err error
	}
	done := make(chan result, 1)
	src := f.source("")
	tab := mustParse(t, "WAIT(YES)\nREASON(MQRC_Q_FULL) ACTION(DISCARD)\n")
	go func() {
		res, err := Run(ctx, src, tab, RunOptions{Sleep: f.clk.Sleep, Idle: func(d time.Duration) { idle <- d }})
		done <- result{res, err}
	}()
	if d := <-idle; d != waitForever {
		t.Errorf("WAIT(YES) waits %v per MQGET, want %v", d, waitForever)
	}
	f.dead(1, "ORDERS.IN", mqfmt.RCQFull, nil)
	select {
	case <-idle: // processed, waiting again
	case r := <-done:
		t.Fatalf("the run ended: %v, %v", r.res, r.err)
	case <-time.After(30 * time.Second):
		t.Fatal("the message put during the wait was not processed")
	}
	if n := len(f.browse("QM1.DEADQ")); n != 0 {
		t.Errorf("%d messages left on the DEADQ", n)
	}
	cancel()
	r := <-done
	if !errors.Is(r.err, context.Canceled) || r.res.Done != 1 || r.res.Passes != 3 {
		t.Errorf("run: %v, err %v; want 1 done in 3 passes, cancelled", r.res, r.err)
	}
}

func fmtDurations(ds []time.Duration) string {
	s := make([]string, len(ds))
	for i, d := range ds {
		s[i] = d.String()
	}
	return strings.Join(s, " ")
}

// A request the engine refuses outright counts as an attempt for each of
// its messages: the run ends instead of trying forever.
func TestRunEndsWhenTheEngineRefusesARequest(t *testing.T) {
	f := newFixture(t)
	f.dead(1, "ORDERS.IN", mqfmt.RCQFull, nil)
	res, err := f.runTable(t, "WAIT(NO) RETRYINT(1)\nACTION(RETRY) RETRY(2)\n", RunOptions{Batch: 1_000_000})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Steps) != 2 || res.Steps[0].Err == nil || res.Failed != 1 || res.Done != 0 {
		t.Errorf("result = %s, %d steps", res, len(res.Steps))
	}
}
