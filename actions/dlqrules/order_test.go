package dlqrules

import (
	"fmt"
	"strings"
	"testing"

	"github.com/poisonwatch/poisonwatch/codec/mqfmt"
	"github.com/poisonwatch/poisonwatch/mqwatch"
)

// Rules forwarding to one queue keep the DEADQ's order there, as
// runmqdlq's one message at a time does: here the queue holds rule 3's
// message first, then rule 4's, then rule 1's, then rule 3's again, all for
// PARKING.Q; each goes in queue order, in a request of its rule's (one
// worker, as rules run's --workers 1 default).
func TestR10_RulesToOneQueueKeepTheDEADQOrder(t *testing.T) {
	for _, dry := range []bool{false, true} {
		t.Run(fmt.Sprintf("dry_run_%v", dry), func(t *testing.T) {
			f := newFixture(t)
			f.dead(1, "PAYMENTS.IN", mqfmt.RCQFull, nil)
			f.dead(2, "OTHER.IN", mqfmt.RCQFull, nil)
			f.dead(3, "ORDERS.IN", mqfmt.RCQFull, nil)
			f.dead(4, "PAYMENTS.IN", mqfmt.RCQFull, nil)
			res, err := f.runTable(t, "WAIT(NO)\nDESTQ(ORDERS.IN) ACTION(FWD) FWDQ(PARKING.Q)\nDESTQ(NONE.IN) ACTION(IGNORE)\n"+
				"DESTQ(PAYMENTS.IN) ACTION(FWD) FWDQ(PARKING.Q)\nDESTQ(OTHER.IN) ACTION(FWD) FWDQ(PARKING.Q)\n", RunOptions{DryRun: dry, Workers: 1})
			if err != nil {
				t.Fatal(err)
			}
			var rules []int
			var order []byte
			for _, st := range res.Steps {
				rules = append(rules, st.Rule)
				for _, it := range st.Result.Items {
					order = append(order, '0'+it.Msg.MsgId[23])
				}
			}
			if fmt.Sprint(rules) != "[3 4 1 3]" || string(order) != "1234" {
				t.Errorf("steps by rule %v, messages in order %s; want [3 4 1 3] and 1234", rules, order)
			}
			if dry {
				return
			}
			var parked []byte
			for _, m := range f.browse("PARKING.Q") {
				parked = append(parked, '0'+m.MD.MsgId[23])
			}
			if string(parked) != "1234" {
				t.Errorf("PARKING.Q holds %s, want 1234 (the DEADQ's order)", parked)
			}
		})
	}
}

// The dashboard's verdicts are the preview's: Predict over the messages the
// preview browsed gives each one the rule, action and outcome the preview
// counts; over summaries (the dashboard's lists) the same up to the first
// rule that tests what a summary lacks, which every later message may meet.
func TestPredictSaysWhatThePreviewSays(t *testing.T) {
	f := previewFixture(t)
	tb := mustParse(t, previewTable)
	src := f.source("ops")
	rep, err := Preview(f.ctx, src, tb, "")
	if err != nil {
		t.Fatal(err)
	}
	var full, partial []Subject
	for _, m := range f.browse("QM1.DEADQ") {
		s := mqwatch.Summarize(&m)
		full = append(full, SubjectOfMessage(&m, &s))
		partial = append(partial, SubjectOfSummary(&s))
	}
	vs, err := Predict(f.ctx, src, tb, "QM1.DEADQ", full)
	if err != nil {
		t.Fatal(err)
	}
	counts := map[int]map[ActionCount]int{}
	for i := range vs {
		v := &vs[i]
		if v.Rule < 0 {
			if v.Why == "" {
				t.Errorf("message %d matches no rule and says not why", i+1)
			}
			continue
		}
		if counts[v.Rule] == nil {
			counts[v.Rule] = map[ActionCount]int{}
		}
		counts[v.Rule][ActionCount{Does: v.Does, Outcome: v.Outcome}]++
	}
	for r, rr := range rep.Rules {
		for _, a := range rr.Does {
			if n := counts[r][ActionCount{Does: a.Does, Outcome: a.Outcome}]; n != a.Count {
				t.Errorf("rule %d: preview %d × %q, Predict %d", r+1, a.Count, says(a.Does, a.Outcome), n)
			}
		}
	}
	want := "rule 4 (line 5): retry to NOPE.IN (MQDLH removed): would fail with MQRC_UNKNOWN_OBJECT_NAME (2085)"
	if got := tb.ExplainVerdict(&vs[5]); len(got) < len(want) || got[:len(want)] != want {
		t.Errorf("message 6: %q, want %q…", got, want)
	}
	pv, err := Predict(f.ctx, src, tb, "QM1.DEADQ", partial)
	if err != nil {
		t.Fatal(err)
	}
	for i := range pv {
		if i >= 8 { // rule 7 tests MSGTYPE and REPLYQ: from here on a summary may meet it
			if pv[i].Certain || pv[i].Rule != 6 {
				t.Errorf("message %d from its summary: %+v, want rule 7, uncertain", i+1, pv[i])
			}
			continue
		}
		if strings.Contains(pv[i].Then, ifWhole) { // the fallback meets a rule the list cannot decide
			pv[i].Then = vs[i].Then
		}
		if pv[i] != vs[i] {
			t.Errorf("message %d: from its summary %+v, from the whole message %+v", i+1, pv[i], vs[i])
		}
	}
}

// A retry to the queue manager that refused the message says it would come
// back to a DEADQ there, as the engine's plan says, not that it would
// succeed: the transmission queue takes it, the remote side refuses again.
func TestPredictSaysARefusedRemotePutComesBack(t *testing.T) {
	f := newFixture(t)
	f.deadFor(1, "AUDIT.IN", "QM2", mqfmt.RCQFull, nil)
	m := f.browse("QM1.DEADQ")[0]
	s := mqwatch.Summarize(&m)
	vs, err := Predict(f.ctx, f.source("ops"), mustParse(t, "REASON(MQRC_Q_FULL) ACTION(RETRY)"), "QM1.DEADQ", []Subject{SubjectOfSummary(&s)})
	if err != nil {
		t.Fatal(err)
	}
	want := "retry to AUDIT.IN on QM2 (MQDLH removed): would be dead-lettered again: QM2 refused it with MQRC_Q_FULL"
	if got := vs[0].String(); !strings.HasPrefix(got, want) {
		t.Errorf("verdict %q, want %q…", got, want)
	}
}

// A message listed by the dashboard that has left the queue since is not
// predicted as if it were there: the engine's plan finds it gone.
func TestPredictSaysAListedMessageIsGone(t *testing.T) {
	f := newFixture(t)
	f.dead(1, "ORDERS.IN", mqfmt.RCQFull, nil)
	m := f.browse("QM1.DEADQ")[0]
	s := mqwatch.Summarize(&m)
	gone := s
	gone.MsgId[0] ^= 0xff
	vs, err := Predict(f.ctx, f.source("ops"), mustParse(t, "REASON(MQRC_Q_FULL) ACTION(RETRY)"), "QM1.DEADQ",
		[]Subject{SubjectOfSummary(&s), SubjectOfSummary(&gone)})
	if err != nil {
		t.Fatal(err)
	}
	if vs[0].Outcome != "would succeed" || !strings.HasPrefix(vs[1].Outcome, "would be left: gone") {
		t.Errorf("verdicts %q and %q; want the first to succeed and the second gone", vs[0].String(), vs[1].String())
	}
}
