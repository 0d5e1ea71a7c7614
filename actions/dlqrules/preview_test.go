package dlqrules

import (
	"fmt"
	"strings"
	"testing"

	"github.com/poisonwatch/poisonwatch/codec/mqfmt"
)

const previewTable = `* the preview test's table
REASON(MQRC_Q_FULL) ACTION(RETRY) RETRY(3)
REASON(MQRC_Q_FULL) DESTQ(FULL.IN) ACTION(DISCARD)
REASON(MQRC_PUT_INHIBITED) ACTION(RETRY)
REASON(MQRC_UNKNOWN_OBJECT_NAME) ACTION(RETRY)
REASON(MQRC_NOT_AUTHORIZED) ACTION(RETRY)
DESTQ(QM1.DEADQ) ACTION(FWD) FWDQ(&DESTQ)
MSGTYPE(MQMT_REQUEST) REPLYQ('?*') ACTION(FWD) FWDQ(&REPLYQ) FWDQM(&REPLYQM)
PERSIST(MQPER_NOT_PERSISTENT) ACTION(DISCARD)
DESTQ(NEVER.*) ACTION(IGNORE)
`

// previewFixture fills the DEADQ with messages whose fate is known: three
// retries that work, one to a full queue (2053), one put-inhibited (2051),
// one to a queue that does not exist (2085), one the operator may not put
// (2035), one that would land on the DEADQ again, one forwarded to its
// reply queue on QM2, one non-persistent discard and one no rule matches.
func previewFixture(t *testing.T) *fixture {
	f := newFixture(t)
	f.put("FULL.IN", "fills it")
	for n := 1; n <= 3; n++ {
		f.dead(n, "ORDERS.IN", mqfmt.RCQFull, nil)
	}
	f.dead(4, "FULL.IN", mqfmt.RCQFull, nil)
	f.dead(5, "OFF.IN", mqfmt.RCPutInhibited, nil)
	f.dead(6, "NOPE.IN", mqfmt.RCUnknownObjectName, nil)
	f.dead(7, "SECURE.Q", mqfmt.RCNotAuthorized, nil)
	f.dead(8, "QM1.DEADQ", mqfmt.Reason(2189), nil)
	f.dead(9, "PAYMENTS.IN", mqfmt.Reason(2087), func(md *mqfmt.MQMD) {
		md.MsgType, md.ReplyToQ, md.ReplyToQMgr = mqfmt.MTRequest, "REPLY.Q", "QM2"
	})
	f.dead(10, "PAYMENTS.IN", mqfmt.Reason(2087), func(md *mqfmt.MQMD) { md.Persistence = mqfmt.PerNotPersistent })
	f.dead(11, "PAYMENTS.IN", mqfmt.Reason(2087), nil)
	return f
}

// The preview of a queue whose outcome is known: per rule, counts, groups
// and each resolved action with the engine's prediction; the shadowed rule,
// the dead rule and the unmatched message.
func TestPreviewPredictsEveryRule(t *testing.T) {
	f := previewFixture(t)
	rep, err := Preview(f.ctx, f.source("ops"), mustParse(t, previewTable), "")
	if err != nil {
		t.Fatal(err)
	}
	if rep.Queue != "QM1.DEADQ" || rep.Total != 11 || rep.UnmatchedCount != 1 || len(rep.Rules) != 9 {
		t.Fatalf("report %s: %d messages, %d unmatched, %d rules", rep.Queue, rep.Total, rep.UnmatchedCount, len(rep.Rules))
	}
	want := []struct {
		matched int
		does    []string // "count does: outcome" in order
	}{
		{4, []string{"3 retry to ORDERS.IN (MQDLH removed): would succeed",
			"1 retry to FULL.IN (MQDLH removed): would fail with MQRC_Q_FULL (2053)"}},
		{0, nil},
		{1, []string{"1 retry to OFF.IN (MQDLH removed): would fail with MQRC_PUT_INHIBITED (2051)"}},
		{1, []string{"1 retry to NOPE.IN (MQDLH removed): would fail with MQRC_UNKNOWN_OBJECT_NAME (2085)"}},
		{1, []string{"1 retry to SECURE.Q (MQDLH removed): would fail with MQRC_NOT_AUTHORIZED (2035)"}},
		{1, []string{"1 forward to QM1.DEADQ (MQDLH kept): would loop back to the DEADQ: its target is the DEADQ itself"}},
		{1, []string{"1 forward to REPLY.Q on QM2 (MQDLH kept): would succeed"}},
		{1, []string{"1 discard (archived first): would succeed"}},
		{0, nil},
	}
	for i, w := range want {
		rr := rep.Rules[i]
		if rr.Matched != w.matched || len(rr.Does) != len(w.does) {
			t.Errorf("rule %d: matched %d, does %+v; want %d, %v", i+1, rr.Matched, rr.Does, w.matched, w.does)
			continue
		}
		for j, d := range w.does {
			got := fmt.Sprintf("%d %s: %s", rr.Does[j].Count, rr.Does[j].Does, rr.Does[j].Outcome)
			if !strings.HasPrefix(got, d) {
				t.Errorf("rule %d does[%d] = %q, want prefix %q", i+1, j, got, d)
			}
		}
	}
	if rep.Rules[1].ShadowedBy != 1 || rep.Rules[1].Dead || rep.Rules[1].Fallback != 1 {
		t.Errorf("rule 2 should be shadowed by rule 1, a fallback for its 1 message, not dead: %+v", rep.Rules[1])
	}
	if !rep.Rules[8].Dead || rep.Rules[8].ShadowedBy != 0 {
		t.Errorf("rule 9 should be dead, not shadowed: %+v", rep.Rules[8])
	}
	if g := rep.Rules[0].Groups; len(g) != 2 || g[0].DestQ != "ORDERS.IN" || g[0].Count != 3 || g[0].ReasonName != "MQRC_Q_FULL" {
		t.Errorf("rule 1 groups = %+v", g)
	}
	if u := rep.Unmatched; len(u) != 1 || u[0].Reason != 2087 || u[0].DestQ != "PAYMENTS.IN" {
		t.Errorf("unmatched = %+v", u)
	}
	f.depths(t, map[string]int{"QM1.DEADQ": 11, "ORDERS.IN": 0}) // a preview changes nothing
	var b strings.Builder
	rep.WriteText(&b)
	for _, s := range []string{"rule 2 (line 3)", "shadowed by rule 1", "dead rule", "no rule matches 1"} {
		if !strings.Contains(b.String(), s) {
			t.Errorf("text report lacks %q:\n%s", s, b.String())
		}
	}
}

// A message on the DEADQ without an MQDLH is never processed.
func TestPreviewLeavesMessagesWithoutDLH(t *testing.T) {
	f := newFixture(t)
	f.put("QM1.DEADQ", "plain")
	rep, err := Preview(f.ctx, f.source(""), mustParse(t, "ACTION(DISCARD)"), "")
	if err != nil {
		t.Fatal(err)
	}
	if rep.NoDLH != 1 || rep.UnmatchedCount != 1 || rep.Rules[0].Matched != 0 {
		t.Errorf("report = %+v", rep)
	}
}
