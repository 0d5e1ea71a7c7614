package model

import (
	"runtime"
	"testing"
	"time"

	"github.com/poisonwatch/poisonwatch/actions/dlqrules"
	"github.com/poisonwatch/poisonwatch/mqwatch"
)

// TestPredictionFindsEachMessageByIdentity: a prediction's verdict of a
// message is found by its identity, a message it did not predict has none,
// and where identities repeat the last message with it answers, as a map
// of them did.
func TestPredictionFindsEachMessageByIdentity(t *testing.T) {
	sums := rulesMsgs(0, 5000)
	sums = append(sums, sums[17]) // the same identity again, later
	inv := (*mqwatch.Inventory)(nil).Append(sums...)
	vs := verdictsOf(inv.Len(), func(i int) dlqrules.Verdict {
		return dlqrules.Verdict{Rule: i % 7, Outcome: []string{"would succeed", "would fail"}[i%2]}
	})
	ps, q := Predictions{}, QueueRef{"QM1", "QM1.DEADQ"}
	if !ps.Begin(q, inv, t0) {
		t.Fatal("no prediction begun")
	}
	ps.Finish(q, NewAnswer(inv, vs, nil), t0)
	for i := range inv.Len() - 1 {
		if i == 17 {
			continue
		}
		if got := ps.Verdict(q, inv.At(i)); got == nil || *got != *vs.Of(i) {
			t.Fatalf("message %d: %+v, want %+v", i, got, *vs.Of(i))
		}
	}
	if got := ps.Verdict(q, &sums[17]); got == nil || *got != *vs.Of(inv.Len() - 1) {
		t.Errorf("a repeated identity: %+v, want the last one's %+v", got, *vs.Of(inv.Len() - 1))
	}
	other := rulesMsgs(9000, 1)[0]
	if got := ps.Verdict(q, &other); got != nil {
		t.Errorf("a message it did not predict: %+v", got)
	}
}

// TestBeginAndFinishCopyNoMessage: on the update loop a prediction costs
// the same at 100 messages as at 100,000: Begin and Finish keep pointers
// and copy no message (the answer was made where the prediction ran).
func TestBeginAndFinishCopyNoMessage(t *testing.T) {
	for _, n := range []int{100, 100_000} {
		inv := (*mqwatch.Inventory)(nil).Append(rulesMsgs(0, n)...)
		ans := NewAnswer(inv, verdictsOf(n, func(int) dlqrules.Verdict { return dlqrules.Verdict{Rule: 1} }), nil)
		q, now := QueueRef{"QM1", "QM1.DEADQ"}, t0
		ps := Predictions{}
		const runs = 20
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		for range runs {
			now = now.Add(PredictEvery)
			if !ps.Begin(q, inv, now) {
				t.Fatal("no prediction begun")
			}
			ps.Finish(q, ans, now)
			ps[q].Gen = 0 // so that the next Begin starts again for the same inventory
		}
		runtime.ReadMemStats(&after)
		if per := (after.TotalAlloc - before.TotalAlloc) / runs; per > 1024 {
			t.Errorf("%d messages: Begin and Finish allocated %d bytes, want none per message", n, per)
		}
	}
}

// TestAnswerOfAShortPredictionIsAnError: verdicts for fewer messages than
// the inventory holds are an error, not a prediction with holes.
func TestAnswerOfAShortPredictionIsAnError(t *testing.T) {
	inv := (*mqwatch.Inventory)(nil).Append(rulesMsgs(0, 10)...)
	ps, q := Predictions{}, QueueRef{"QM1", "QM1.DEADQ"}
	ps.Begin(q, inv, t0)
	ps.Finish(q, NewAnswer(inv, verdictsOf(9, func(int) dlqrules.Verdict { return dlqrules.Verdict{} }), nil), t0.Add(time.Second))
	if p := ps.Of(q); p.Err == nil || p.Verdict(inv.At(0)) != nil {
		t.Fatalf("a short prediction was kept: %+v", p)
	}
}
