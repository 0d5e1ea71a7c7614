package dlqrules

import (
	"testing"

	"github.com/poisonwatch/poisonwatch/actions/ops"
	"github.com/poisonwatch/poisonwatch/codec/mqfmt"
	"github.com/poisonwatch/poisonwatch/mqwatch"
)

// fact is a dead-lettered request from orders-app to ORDERS.IN on QM1.
func fact() Facts {
	return Facts{HasDLH: true, Reason: 2053, DestQ: "ORDERS.IN", DestQM: "QM1", Format: "MQSTR",
		ApplIdentityData: "batch 7", PutApplName: "orders-app", PutApplType: mqfmt.ATJava, Feedback: 0,
		MsgType: mqfmt.MTRequest, Persistence: mqfmt.PerPersistent, ReplyQ: "REPLY.Q", ReplyQM: "QM2", UserID: "alice"}
}

// The first matching rule wins, in table order; a message no rule matches
// stays.
func TestFirstMatchWinsInTableOrder(t *testing.T) {
	tb := mustParse(t, "DESTQ(PAYMENTS.*) ACTION(DISCARD)\nREASON(MQRC_Q_FULL) ACTION(RETRY)\nDESTQ(ORDERS.IN) ACTION(IGNORE)\n")
	f := fact()
	if m := tb.Match(&f); m.Rule != 1 || !m.Certain {
		t.Errorf("match = %+v, want rule index 1 (the second rule), certain", m)
	}
	if m := tb.MatchFrom(&f, 2); m.Rule != 2 {
		t.Errorf("after rule 2 fails, match = %+v, want index 2", m)
	}
	f.DestQ, f.Reason = "SHIPPING.IN", 2085
	if m := tb.Match(&f); m.Rule != -1 || m.Why == "" {
		t.Errorf("no rule should match: %+v", m)
	}
	f.HasDLH = false
	if m := tb.Match(&f); m.Rule != -1 || m.Why == "" {
		t.Errorf("a message without MQDLH matches nothing: %+v", m)
	}
}

// Each pattern keyword matches its field: generics '*' and '?', trailing
// blanks not significant, numbers and symbolic names alike.
func TestPatternsMatchTheirFields(t *testing.T) {
	cases := []struct {
		pattern string
		want    bool
	}{
		{"APPLIDAT('batch 7')", true}, {"APPLIDAT('batch ?')", true}, {"APPLIDAT(batch*)", false},
		{"APPLNAME('orders-*')", true}, {"APPLNAME(ORDERS-APP)", false},
		{"APPLTYPE(MQAT_JAVA)", true}, {"APPLTYPE(28)", true}, {"APPLTYPE(MQAT_UNIX)", false},
		{"DESTQ(ORDERS.*)", true}, {"DESTQ('ORDERS.IN   ')", true}, {"DESTQ(ORDERS.I?)", true}, {"DESTQ(ORDERS)", false},
		{"DESTQM(QM1)", true}, {"DESTQM(QM2)", false},
		{"FEEDBACK(MQFB_NONE)", true}, {"FEEDBACK(MQFB_COA)", false},
		{"FORMAT(MQFMT_STRING)", true}, {"FORMAT(MQSTR)", true}, {"FORMAT(MQHRF2)", false},
		{"MSGTYPE(MQMT_REQUEST)", true}, {"MSGTYPE(MQMT_DATAGRAM)", false},
		{"PERSIST(MQPER_PERSISTENT)", true}, {"PERSIST(0)", false},
		{"REASON(MQRC_Q_FULL)", true}, {"REASON(2053)", true}, {"REASON(MQRC_PUT_INHIBITED)", false},
		{"REPLYQ(REPLY.*)", true}, {"REPLYQ('?*')", true},
		{"REPLYQM(QM2)", true}, {"REPLYQM(AAAA.*)", false},
		{"USERID(alice)", false}, {"USERID('alice')", true}, {"USERID('al*')", true},
	}
	for _, c := range cases {
		tb := mustParse(t, c.pattern+" ACTION(IGNORE)")
		f := fact()
		if got := tb.Rules[0].Test(&f) == Matches; got != c.want {
			t.Errorf("%s against %+v = %v, want %v", c.pattern, f, got, c.want)
		}
	}
	// '?*' needs at least one non-blank character: a blank ReplyToQMgr
	// does not match IBM's REPLYQM('?*').
	tb := mustParse(t, "REPLYQM('?*') ACTION(IGNORE)")
	f := fact()
	f.ReplyQM = ""
	if tb.Rules[0].Test(&f) != NoMatch {
		t.Error("REPLYQM('?*') matched a blank ReplyToQMgr")
	}
}

// A summary lacks some fields: a rule testing them may match, and the
// match says it is not certain.
func TestSummaryMatchIsUncertainOnFieldsItLacks(t *testing.T) {
	tb := mustParse(t, "MSGTYPE(MQMT_REQUEST) ACTION(DISCARD)\nREASON(MQRC_Q_FULL) ACTION(RETRY)")
	s := mqwatch.Summary{HasDLH: true, DLHReason: 2053, DLHDestQ: "ORDERS.IN"}
	if m := tb.MatchSummary(&s); m.Rule != 0 || m.Certain {
		t.Errorf("summary match = %+v, want rule 0, uncertain", m)
	}
	tb = mustParse(t, "REASON(MQRC_Q_FULL) ACTION(RETRY)")
	if m := tb.MatchSummary(&s); m.Rule != 0 || !m.Certain {
		t.Errorf("summary match = %+v, want rule 0, certain", m)
	}
}

// FWDQ and FWDQM references take the message's names; the local queue
// manager's name means "here"; a blank reference leaves the message.
func TestResolveSubstitutesReferences(t *testing.T) {
	tb := mustParse(t, "ACTION(FWD) FWDQ(&REPLYQ) FWDQM(&REPLYQM)\n"+
		"ACTION(FWD) FWDQ(&DESTQ) FWDQM(&DESTQM) HEADER(NO)\n"+
		"ACTION(RETRY)\nACTION(DISCARD)\nACTION(IGNORE)\nACTION(FWD) FWDQ(PARK) PUTAUT(CTX)\n")
	f := fact()
	cases := []struct {
		rule           int
		op             ops.Op
		target, tqmgr  string
		skip, describe string
	}{
		{0, ops.OpMove, "REPLY.Q", "QM2", "", "forward to REPLY.Q on QM2 (MQDLH kept)"},
		{1, ops.OpRequeue, "ORDERS.IN", "", "", "forward to ORDERS.IN (MQDLH removed)"},
		{2, ops.OpRequeue, "ORDERS.IN", "", "", "retry to ORDERS.IN (MQDLH removed)"},
		{3, ops.OpDiscard, "", "", "", "discard (archived first)"},
		{4, "", "", "", "", "leave on the DEADQ (IGNORE)"},
		{5, ops.OpMove, "PARK", "", "", ""},
	}
	for _, c := range cases {
		x := tb.Rules[c.rule].Resolve(&f, "QM1")
		if x.Op != c.op || x.Target != c.target || x.TargetQMgr != c.tqmgr || (c.skip == "") != (x.Skip == "") ||
			(c.describe != "" && x.String() != c.describe) {
			t.Errorf("rule %d resolves to %+v (%s), want %s %s@%s skip=%q %q", c.rule+1, x, x, c.op, c.target, c.tqmgr, c.skip, c.describe)
		}
	}
	if x := tb.Rules[5].Resolve(&f, "QM1"); x.PutAuthority != ops.PutAuthContext {
		t.Errorf("PUTAUT(CTX) resolves to put authority %d, want the message's user's (alternate user)", x.PutAuthority)
	}
	f.ReplyQ = ""
	if x := tb.Rules[0].Resolve(&f, "QM1"); x.Skip == "" || x.Op != "" || x.String() != "forward to &REPLYQ on QM2 (MQDLH kept)" {
		t.Errorf("FWDQ(&REPLYQ) with a blank ReplyToQ = %+v (%s), want it left with a reason", x, x)
	}
}

// An earlier rule that matches everything a later one does shadows it.
func TestCoversFindsShadowedRules(t *testing.T) {
	cases := []struct {
		a, b string
		want bool
	}{
		{"ACTION(IGNORE)", "REASON(1) ACTION(IGNORE)", true},
		{"REASON(MQRC_Q_FULL) ACTION(RETRY)", "REASON(2053) DESTQ(X) ACTION(DISCARD)", true},
		{"DESTQ(ORDERS.*) ACTION(IGNORE)", "DESTQ(ORDERS.IN) ACTION(IGNORE)", true},
		{"DESTQ(ORDERS.*) ACTION(IGNORE)", "DESTQ(ORDERS.EU.*) ACTION(IGNORE)", true},
		{"DESTQ(ORDERS.IN) ACTION(IGNORE)", "DESTQ(ORDERS.*) ACTION(IGNORE)", false},
		{"REASON(1) ACTION(IGNORE)", "ACTION(IGNORE)", false},
		{"REASON(1) ACTION(IGNORE)", "REASON(2) ACTION(IGNORE)", false},
	}
	for _, c := range cases {
		a, b := mustParse(t, c.a).Rules[0], mustParse(t, c.b).Rules[0]
		if got := covers(&a, &b); got != c.want {
			t.Errorf("covers(%s, %s) = %v, want %v", c.a, c.b, got, c.want)
		}
	}
}

// A triage group's messages by rule, and the one-line explanation the
// dashboard shows: the rule, its action and the predicted outcome.
func TestMatchSummariesAndExplainVerdict(t *testing.T) {
	tb := mustParse(t, "DESTQ(ORDERS.IN) ACTION(RETRY)\nMSGTYPE(MQMT_REQUEST) ACTION(IGNORE)")
	sums := []mqwatch.Summary{
		{HasDLH: true, DLHReason: 2053, DLHDestQ: "ORDERS.IN"},
		{HasDLH: true, DLHReason: 2053, DLHDestQ: "ORDERS.IN"},
		{HasDLH: true, DLHReason: 2053, DLHDestQ: "OTHER"},
		{},
	}
	g := tb.MatchSummaries(sums)
	if g.Rule != 0 || g.Counts[0] != 2 || g.Counts[1] != 1 || g.Counts[-1] != 1 || g.Uncertain != 1 {
		t.Errorf("group match = %+v", g)
	}
	cases := []struct {
		v    Verdict
		want string
	}{
		{Verdict{Rule: 0, Certain: true, Does: "retry to ORDERS.IN (MQDLH removed)", Outcome: "would succeed"},
			"rule 1 (line 1): retry to ORDERS.IN (MQDLH removed): would succeed"},
		{Verdict{Rule: 1, Does: "leave on the DEADQ (IGNORE)", Outcome: "would stay"},
			"rule 2 (line 2): leave on the DEADQ (IGNORE): would stay (if the full message matches; rule 2 tests fields the list does not hold)"},
		{Verdict{Rule: -1, Certain: true, Why: "no rule matches: the message stays on the DEADQ"}, "no rule matches: the message stays on the DEADQ"},
	}
	for _, c := range cases {
		if got := tb.ExplainVerdict(&c.v); got != c.want {
			t.Errorf("ExplainVerdict(%+v) = %q, want %q", c.v, got, c.want)
		}
	}
}
