package dlqrules

import (
	"strings"
	"testing"

	"github.com/poisonwatch/poisonwatch/codec/mqfmt"
)

// TestR10_RulesDryRunPredicts2087: a RETRY of dead letters for a queue
// manager with no route here is predicted to fail with 2087 alike by the
// preview, by Predict (the dashboard's rule line) and by run --dry-run,
// whose counts the exit code follows; the real run fails them the same way.
func TestR10_RulesDryRunPredicts2087(t *testing.T) {
	f := newFixture(t)
	for n := 1; n <= 3; n++ {
		f.deadFor(n, "STOCK.IN", "QM9", mqfmt.RCUnknownRemoteQMgr, nil)
	}
	f.dead(4, "ORDERS.IN", mqfmt.RCQFull, nil)
	table := "WAIT(NO)\nACTION(RETRY)\n"
	rep, err := Preview(f.ctx, f.source("ops"), mustParse(t, table), "")
	if err != nil {
		t.Fatal(err)
	}
	var preview []string
	for _, a := range rep.Rules[0].Does {
		preview = append(preview, says(a.Does, a.Outcome))
	}
	if len(preview) != 2 || !strings.Contains(preview[0], "would fail with MQRC_UNKNOWN_REMOTE_Q_MGR (2087)") {
		t.Fatalf("preview %q", preview)
	}
	res, err := f.runTable(t, table, RunOptions{DryRun: true})
	if err != nil {
		t.Fatal(err)
	}
	if act, not := res.DryRunActed(); act != 1 || not != 3 {
		t.Fatalf("run --dry-run: %d would act, %d would not (%s)", act, not, res)
	}
	if !strings.Contains(res.String(), "1 would be acted on, 3 would fail") {
		t.Fatalf("run --dry-run says %q", res)
	}
	res, err = f.runTable(t, table, RunOptions{})
	if err != nil || res.Done != 1 || res.Failed != 3 {
		t.Fatalf("run: %s %v", res, err)
	}
}

// TestR10_RulesPreviewOpensAsTheRun: the preview's prediction is the run's
// open: a user who may put but has no setall on the queue manager is told
// the retry would fail with 2035, which is what the run meets.
func TestR10_RulesPreviewOpensAsTheRun(t *testing.T) {
	f := newFixture(t)
	f.qm.MQSC("SET AUTHREC PRINCIPAL('ops') OBJTYPE(QMGR) AUTHRMV(SETALL)\n")
	f.dead(1, "ORDERS.IN", mqfmt.RCQFull, nil)
	rep, err := Preview(f.ctx, f.source("ops"), mustParse(t, "ACTION(RETRY)\n"), "")
	if err != nil {
		t.Fatal(err)
	}
	if d := rep.Rules[0].Does; len(d) != 1 || !strings.HasPrefix(d[0].Outcome, "would fail with MQRC_NOT_AUTHORIZED (2035): ") ||
		strings.Count(d[0].Outcome, "MQRC_NOT_AUTHORIZED") != 1 { // the reason once: from the item's data, not its sentence
		t.Fatalf("preview %+v", d)
	}
}

// TestR6_PutautDefRetries2035: PUTAUT(DEF), runmqdlq's default, puts with
// the handler's own authority whatever the MQDLH reason: a rule for
// MQRC_NOT_AUTHORIZED retries, FWD HEADER(NO) of a 2035 dead letter goes to
// the forward queue; the preview warns how many would be put with the
// operator's authority.
func TestR6_PutautDefRetries2035(t *testing.T) {
	f := newFixture(t)
	f.dead(1, "ORDERS.IN", mqfmt.RCNotAuthorized, nil)
	f.dead(2, "PAYMENTS.IN", mqfmt.RCNotAuthorized, nil)
	table := "WAIT(NO)\nDESTQ(ORDERS.IN) REASON(MQRC_NOT_AUTHORIZED) ACTION(RETRY)\n" +
		"REASON(MQRC_NOT_AUTHORIZED) ACTION(FWD) FWDQ(PARKING.Q) HEADER(NO)\n"
	rep, err := Preview(f.ctx, f.source(""), mustParse(t, table), "")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(strings.Join(rep.Warnings, "\n"), "2 dead letters refused by security (MQRC_NOT_AUTHORIZED 2035) would be put with your authority") {
		t.Errorf("warnings %q", rep.Warnings)
	}
	res, err := f.runTable(t, table, RunOptions{})
	if err != nil || res.Done != 2 {
		t.Fatalf("run: %s %v", res, err)
	}
	f.depths(t, map[string]int{"ORDERS.IN": 1, "PARKING.Q": 1, "QM1.DEADQ": 0})
}

// TestR6_BlankReferenceFallsToTheNextRule: FWDQ(&REPLYQ) for a message
// without a ReplyToQ cannot act; as with a failed put, the next matching
// rule is tried (IBM's example: "if this fails, put the message on the
// manual intervention queue").
func TestR6_BlankReferenceFallsToTheNextRule(t *testing.T) {
	f := newFixture(t)
	f.dead(1, "ORDERS.IN", mqfmt.RCQFull, nil)
	table := "WAIT(NO)\nACTION(FWD) FWDQ(&REPLYQ)\nACTION(FWD) FWDQ(PARKING.Q)\n"
	rep, err := Preview(f.ctx, f.source(""), mustParse(t, table), "")
	if err != nil {
		t.Fatal(err)
	}
	if rep.Rules[1].Matched != 1 || rep.Rules[0].Matched != 0 {
		t.Fatalf("rule 1 matched %d, rule 2 %d; want the message on rule 2", rep.Rules[0].Matched, rep.Rules[1].Matched)
	}
	res, err := f.runTable(t, table, RunOptions{})
	if err != nil || res.Done != 1 {
		t.Fatalf("run: %s %v", res, err)
	}
	f.depths(t, map[string]int{"PARKING.Q": 1, "QM1.DEADQ": 0})
}

// TestR6_CatchAllIsAFallbackNotDead: a catch-all after a specific rule that
// takes every message now is a fallback (it acts when that rule's retries
// are spent), not a dead rule; a rule no message can reach is dead.
func TestR6_CatchAllIsAFallbackNotDead(t *testing.T) {
	f := newFixture(t)
	f.dead(1, "ORDERS.IN", mqfmt.RCQFull, nil)
	table := "REASON(MQRC_Q_FULL) ACTION(RETRY) RETRY(3)\nDESTQ(NEVER.*) ACTION(DISCARD)\nACTION(FWD) FWDQ(PARKING.Q)\n"
	rep, err := Preview(f.ctx, f.source(""), mustParse(t, table), "")
	if err != nil {
		t.Fatal(err)
	}
	if c := rep.Rules[2]; c.Dead || c.Fallback != 1 || c.Matched != 0 {
		t.Fatalf("catch-all %+v, want a fallback for 1, not dead", c)
	}
	if !rep.Rules[1].Dead {
		t.Fatalf("DESTQ(NEVER.*) %+v, want dead", rep.Rules[1])
	}
	var b strings.Builder
	rep.WriteText(&b)
	if !strings.Contains(b.String(), "fallback: takes none first; 1 messages reach it") {
		t.Fatalf("text:\n%s", b.String())
	}
}

// TestR6_FailedPutFallsToTheNextRule: a put that fails counts an attempt
// against its rule's RETRY; once they are spent, the next matching rule is
// tried (IBM, "Processing the rules table": "If all attempts fail, the DLQ
// handler searches for the next matching rule in the table").
func TestR6_FailedPutFallsToTheNextRule(t *testing.T) {
	f := newFixture(t)
	f.dead(1, "ORDERS.IN", mqfmt.RCQFull, nil)
	table := "WAIT(NO) RETRYINT(5)\nACTION(FWD) FWDQ(NO.SUCH.Q) RETRY(2)\nACTION(FWD) FWDQ(PARKING.Q)\n"
	// The preview says where the message ends: rule 1 would fail, then rule 2.
	rep, err := Preview(f.ctx, f.source(""), mustParse(t, table), "")
	if err != nil {
		t.Fatal(err)
	}
	if d := rep.Rules[0].Does; len(d) != 1 || d[0].Then != "rule 2 (line 3): forward to PARKING.Q (MQDLH kept): would succeed" {
		t.Fatalf("preview of rule 1: %+v", d)
	}
	res, err := f.runTable(t, table, RunOptions{})
	if err != nil || res.Done != 1 || res.Failed != 0 {
		t.Fatalf("run: %s %v", res, err)
	}
	var rules []int
	for _, st := range res.Steps {
		rules = append(rules, st.Rule)
	}
	if len(rules) != 3 || rules[0] != 1 || rules[1] != 1 || rules[2] != 2 {
		t.Fatalf("steps by rule %v, want rule 1 twice (RETRY(2)), then rule 2", rules)
	}
	f.depths(t, map[string]int{"PARKING.Q": 1, "QM1.DEADQ": 0})
}
