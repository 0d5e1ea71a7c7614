package dlqrules

import (
	"os"
	"strings"
	"testing"
	"time"
)

func mustParse(t *testing.T, src string) *Table {
	t.Helper()
	tb, err := Parse(strings.NewReader(src))
	if err != nil {
		t.Fatalf("Parse:\n%s\nerror:\n%v", src, err)
	}
	return tb
}

// IBM's own example tables parse, each rule as IBM means it.
func TestIBMExampleTablesParse(t *testing.T) {
	tb, err := ParseFile("testdata/ibm-example.rules")
	if err != nil {
		t.Fatal(err)
	}
	if !tb.Control.Present || tb.Control.InputQ != "" || tb.Control.InputQM != "" || tb.Control.RetryInt != 60*time.Second || tb.Control.Wait != WaitYes {
		t.Errorf("control data = %+v", tb.Control)
	}
	want := []string{
		"REASON(MQRC_Q_FULL) ACTION(RETRY) RETRY(5)",
		"REASON(MQRC_PUT_INHIBITED) ACTION(RETRY) RETRY(5)",
		"MSGTYPE(MQMT_REQUEST) REPLYQM(AAAA.*) ACTION(FWD) FWDQ('DEADQ') FWDQM(&REPLYQM)",
		"DESTQM(BBBB.1) ACTION(FWD) FWDQ(&DESTQ) FWDQM('BBBB.2') HEADER(NO)",
		"REPLYQM(CCCC.*) ACTION(FWD) FWDQ('ALARM') FWDQM('CCCC.SYSTEM')",
		"PERSIST(MQPER_NOT_PERSISTENT) ACTION(DISCARD)",
		"REPLYQM('?*') ACTION(FWD) FWDQ('DEADQ.MANUAL.INTERVENTION') FWDQM(&REPLYQM)",
		"ACTION(FWD) FWDQ('DEADQ.MANUAL.INTERVENTION')",
	}
	if len(tb.Rules) != len(want) {
		t.Fatalf("%d rules, want %d", len(tb.Rules), len(want))
	}
	for i, w := range want {
		if got := tb.Rules[i].String(); got != w {
			t.Errorf("rule %d = %s, want %s", i+1, got, w)
		}
	}
	if r := tb.Rules[0]; r.Patterns[0].Num != 2053 || r.Retry != 5 || r.Action != Retry {
		t.Errorf("rule 1 = %+v", r)
	}
	src, err := os.ReadFile("testdata/ibm-example.rules")
	if err != nil {
		t.Fatal(err)
	}
	line := 1 + strings.Count(string(src[:strings.Index(string(src), "DESTQM(bbbb.1)")]), "\n")
	if r := tb.Rules[3]; r.FwdQ != RefDestQ || r.FwdQM != "BBBB.2" || r.Header || r.Pos.Line != line {
		t.Errorf("rule 4 (lower case in IBM's table) = %+v", r)
	}
	zos, err := ParseFile("testdata/ibm-zos-example.rules")
	if err != nil {
		t.Fatal(err)
	}
	if got := zos.Rules[2].Patterns[0].Num; got != 265 {
		t.Errorf("REASON(MQFB_APPL_CANNOT_BE_STARTED) = %d, want 265", got)
	}
	if got := zos.Rules[4].String(); got != "PERSIST(MQPER_PERSISTENT) REASON(MQRC_PUT_INHIBITED) ACTION(RETRY) RETRY(3)" {
		t.Errorf("blanks between keyword and '(' = %s", got)
	}
}

// Every pattern keyword, with a string, number or symbolic value.
func TestEveryPatternKeyword(t *testing.T) {
	cases := []struct {
		src, kw, value string
		num            int32
	}{
		{"APPLIDAT('id 7')", "APPLIDAT", "id 7", 0},
		{"APPLNAME(orders-app)", "APPLNAME", "ORDERS-APP", 0},
		{"APPLTYPE(MQAT_JAVA)", "APPLTYPE", "", 28},
		{"APPLTYPE(6)", "APPLTYPE", "", 6},
		{"APPLTYPE(MQAT_AIX)", "APPLTYPE", "", 6},
		{"DESTQ(ORDERS.*)", "DESTQ", "ORDERS.*", 0},
		{"DESTQM('QM?')", "DESTQM", "QM?", 0},
		{"FEEDBACK(MQFB_COA)", "FEEDBACK", "", 259},
		{"FEEDBACK(MQRC_Q_FULL)", "FEEDBACK", "", 2053},
		{"FORMAT(MQSTR)", "FORMAT", "MQSTR", 0},
		{"FORMAT(MQFMT_STRING)", "FORMAT", "MQSTR", 0},
		{"FORMAT(MQFMT_RF_HEADER_2)", "FORMAT", "MQHRF2", 0},
		{"MSGTYPE(MQMT_REQUEST)", "MSGTYPE", "", 1},
		{"MSGTYPE(2)", "MSGTYPE", "", 2},
		{"PERSIST(MQPER_PERSISTENT)", "PERSIST", "", 1},
		{"REASON(MQRC_UNKNOWN_OBJECT_NAME)", "REASON", "", 2085},
		{"REASON(MQFB_EXPIRATION)", "REASON", "", 258},
		{"REASON(2035)", "REASON", "", 2035},
		{"REPLYQ('reply.q')", "REPLYQ", "reply.q", 0},
		{"REPLYQM(QM2)", "REPLYQM", "QM2", 0},
		{"USERID('alice   ')", "USERID", "alice", 0},
	}
	for _, c := range cases {
		tb := mustParse(t, c.src+" ACTION(IGNORE)\n")
		p := tb.Rules[0].Patterns[0]
		if p.Keyword != c.kw || p.Value != c.value || p.Num != c.num || p.Any {
			t.Errorf("%s: pattern %+v, want %s %q %d", c.src, p, c.kw, c.value, c.num)
		}
	}
	for _, kw := range patternOrder {
		p := mustParse(t, kw+"(*) ACTION(IGNORE)").Rules[0].Patterns[0]
		if !p.Any {
			t.Errorf("%s(*) should match anything: %+v", kw, p)
		}
	}
}

// Every action keyword and every control-data keyword.
func TestEveryActionAndControlKeyword(t *testing.T) {
	tb := mustParse(t, "inputq('QM1.DEADQ'), inputqm(QM1) retryint(5) wait(30)\n"+
		"ACTION(FWD) FWDQ(&REPLYQ) FWDQM(&DESTQM) HEADER(YES) PUTAUT(CTX) RETRY(999999999)\n"+
		"action(fwd) fwdq(PARK) fwdqm(' ') header(no) putaut(def)\n"+
		"ACTION(FWD) FWDQ(&DESTQ) FWDQM(&REPLYQM)\n"+
		"ACTION(DISCARD)\nACTION(IGNORE)\nACTION(RETRY)\n")
	c := tb.Control
	if c.InputQ != "QM1.DEADQ" || c.InputQM != "QM1" || c.RetryInt != 5*time.Second || c.Wait != WaitFor || c.WaitFor != 30*time.Second {
		t.Errorf("control = %+v", c)
	}
	r := tb.Rules
	if r[0].FwdQ != RefReplyQ || r[0].FwdQM != RefDestQM || !r[0].Header || !r[0].PutAutCtx || r[0].Retry != 999999999 {
		t.Errorf("rule 1 = %+v", r[0])
	}
	if r[1].FwdQ != "PARK" || r[1].FwdQM != "" || r[1].Header || r[1].PutAutCtx || r[1].Retry != 1 {
		t.Errorf("rule 2 = %+v", r[1])
	}
	if r[2].FwdQ != RefDestQ || r[2].FwdQM != RefReplyQM {
		t.Errorf("rule 3 = %+v", r[2])
	}
	for i, a := range []Action{Discard, Ignore, Retry} {
		if r[3+i].Action != a {
			t.Errorf("rule %d action %s, want %s", 4+i, r[3+i].Action, a)
		}
	}
	for _, w := range []struct {
		src  string
		mode WaitMode
	}{{"WAIT(YES)", WaitYes}, {"WAIT(no)", WaitNo}, {"RETRYINT(0)", WaitYes}} {
		if got := mustParse(t, w.src+"\nACTION(IGNORE)").Control.Wait; got != w.mode {
			t.Errorf("%s: wait %d, want %d", w.src, got, w.mode)
		}
	}
}

// IBM's continuation characters: '+' joins from the next line's first
// non-blank character, '-' from its start, even inside a quoted value.
func TestContinuationAndComments(t *testing.T) {
	tb := mustParse(t, "* comment\n\n   * indented comment\nAPPLNAME('ABC+\n      D') ACTION(IGNORE)\nAPPLNAME('ABC-\n D') +\n\tACTION(+\n  DISCARD)\r\n")
	if got := tb.Rules[0].Patterns[0].Value; got != "ABCD" {
		t.Errorf("'+' continuation = %q, want ABCD", got)
	}
	if got := tb.Rules[1].Patterns[0].Value; got != "ABC D" {
		t.Errorf("'-' continuation = %q, want 'ABC D'", got)
	}
	if tb.Rules[1].Action != Discard || tb.Rules[1].Pos.Line != 6 {
		t.Errorf("rule 2 = %+v", tb.Rules[1])
	}
	tb = mustParse(t, "ACTION(IGNORE) DESTQ('"+strings.Repeat("A", 48)+"') APPLNAME(X)\n")
	if len(tb.Warnings) != 1 || !strings.Contains(tb.Warnings[0], "line 1") {
		t.Errorf("a line over 72 characters should warn: %v", tb.Warnings)
	}
	if got := mustParse(t, "APPLNAME('it''s') ACTION(IGNORE)").Rules[0].Patterns[0].Value; got != "it's" {
		t.Errorf("doubled quote = %q", got)
	}
}
