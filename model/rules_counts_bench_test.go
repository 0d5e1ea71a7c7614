package model

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/poisonwatch/poisonwatch/actions/dlqrules"
	"github.com/poisonwatch/poisonwatch/mqwatch"
)

// BenchmarkTriageRules1M50Rules is what a loaded 50-rule table costs the
// DEADQ triage per poll at 1,000,000 messages once the first match is made:
// each poll 500 messages arrive and 500 are taken from the head (a
// consumer, a requeue), and the groups' rules and predicted outcomes are
// brought up to date (ms/op; the inventory's own append and trim, the
// watcher's work, are not timed). BenchmarkTriageRulesFirstMatch1M50Rules
// is the first match, and the pass a new table or prediction costs:
//
//	go test -run '^$' -bench 'TriageRules.*1M50Rules' -benchtime 20x ./model/
func BenchmarkTriageRules1M50Rules(b *testing.B) {
	tab, inv, p := rulesBench1M(b)
	var c GroupRules
	c.Match(tab, inv, DimReasonDest, p)
	next := inv.Len()
	b.ResetTimer()
	for b.Loop() {
		b.StopTimer()
		inv = inv.Append(rulesMsgs(next, 500)...).DropHead(500)
		next += 500
		b.StartTimer()
		c.Match(tab, inv, DimReasonDest, p)
	}
	if c.Recounts() != 1 {
		b.Fatalf("%d passes over every message, want the first only", c.Recounts())
	}
}

func BenchmarkTriageRulesFirstMatch1M50Rules(b *testing.B) {
	tab, inv, p := rulesBench1M(b)
	for b.Loop() {
		var c GroupRules
		c.Match(tab, inv, DimReasonDest, p)
	}
}

// rulesBench1M is a 1,000,000-message DEADQ of a dozen classes, a 50-rule
// table (47 rules that match nothing, tested against every class, then three
// that do), and a prediction with a verdict for every message.
func rulesBench1M(b *testing.B) (*dlqrules.Table, *mqwatch.Inventory, *Prediction) {
	var t strings.Builder
	for i := range 47 {
		fmt.Fprintf(&t, "DESTQ(NEVER%d.*) APPLNAME('app-%d') ACTION(DISCARD)\n", i, i)
	}
	t.WriteString("REASON(MQRC_Q_FULL) ACTION(RETRY) RETRY(3)\nDESTQ(INVOICE.*) ACTION(FWD) FWDQ(PARKING.Q) HEADER(NO)\nACTION(IGNORE)\n")
	tab, err := dlqrules.Parse(strings.NewReader(t.String()))
	if err != nil {
		b.Fatal(err)
	}
	const n = 1_000_000
	var inv *mqwatch.Inventory
	for i := 0; i < n; i += 4096 {
		inv = inv.Append(rulesMsgs(i, min(4096, n-i))...)
	}
	ps := Predictions{}
	q := QueueRef{"QM1", "QM1.DEADQ"}
	ps.Begin(q, inv, time.Unix(0, 0))
	var s mqwatch.Summary
	vs := verdictsOf(n, func(i int) dlqrules.Verdict {
		inv.Load(i, &s)
		m := tab.MatchSummary(&s)
		return dlqrules.Verdict{Rule: m.Rule, Certain: m.Certain, Does: "act", Outcome: []string{"would succeed", "would fail"}[i%2]}
	})
	ps.Finish(q, NewAnswer(inv, vs, nil), time.Unix(0, 0))
	p := ps[q]
	return tab, inv, p
}
