package dlqrules

import (
	"errors"
	"strings"
	"testing"
)

// Bad tables are refused whole with errors naming line, column and what was
// expected; none panics.
func TestBadTablesNameLineColumnAndExpectation(t *testing.T) {
	long := strings.Repeat("Q", 49)
	cases := []struct {
		name, src string
		line, col int
		want      string
	}{
		{"unknown keyword", "REASON(1) COLOUR(RED) ACTION(IGNORE)", 1, 11, "unknown keyword COLOUR"},
		{"abbreviated keyword", "REASON(1) ACT(IGNORE)", 1, 11, "not abbreviated (ACTION)"},
		{"no parenthesis", "ACTION(IGNORE) FORMAT", 1, 22, "expected '(' and a value after FORMAT"},
		{"empty value", "ACTION(IGNORE) FORMAT()", 1, 23, "FORMAT needs a value"},
		{"empty quoted value", "ACTION(IGNORE) FORMAT('')", 1, 23, "at least one significant character"},
		{"blank value", "ACTION(IGNORE) FORMAT( )", 1, 24, "FORMAT needs a value"},
		{"unclosed quote", "ACTION(IGNORE) APPLNAME('abc", 1, 25, "not closed"},
		{"unclosed parenthesis", "ACTION(IGNORE", 1, 14, "expected ')' to close ACTION("},
		{"blank inside unquoted", "ACTION(IGNORE) APPLNAME(A B)", 1, 27, "expected ')'"},
		{"not a keyword", "ACTION(IGNORE) 42", 1, 16, "expected a keyword"},
		{"DESTQ too long", "ACTION(IGNORE) DESTQ(" + long + ")", 1, 22, "49 characters"},
		{"USERID too long", "ACTION(IGNORE) USERID(ABCDEFGHIJKLM)", 1, 23, "more than the 12 of MQMD UserIdentifier"},
		{"APPLIDAT too long", "ACTION(IGNORE) APPLIDAT('" + strings.Repeat("x", 33) + "')", 1, 25, "more than the 32"},
		{"FWDQ too long", "ACTION(FWD) FWDQ(" + long + ")", 1, 18, "more than the 48"},
		{"FWDQ blank", "ACTION(FWD) FWDQ(' ')", 1, 18, "FWDQ(' ') is not valid"},
		{"FWDQ wildcard", "ACTION(FWD) FWDQ(A.*)", 1, 18, "wildcards are not allowed in FWDQ"},
		{"FWDQ unknown reference", "ACTION(FWD) FWDQ(&DESTQM)", 1, 18, "expected a name or &DESTQ or &REPLYQ"},
		{"FWD without FWDQ", "ACTION(FWD)", 1, 1, "expected FWDQ"},
		{"no ACTION", "REASON(2053) RETRY(2)", 1, 1, "expected ACTION"},
		{"ACTION twice", "ACTION(DISCARD) ACTION(IGNORE)", 1, 17, "ACTION appears twice"},
		{"FWDQ with DISCARD", "ACTION(DISCARD) FWDQ(X)", 1, 17, "FWDQ conflicts with ACTION(DISCARD)"},
		{"HEADER with RETRY", "ACTION(RETRY) HEADER(NO)", 1, 15, "HEADER conflicts with ACTION(RETRY)"},
		{"bad action", "ACTION(DELETE)", 1, 8, "expected DISCARD, IGNORE, RETRY, FWD"},
		{"wildcard action", "ACTION(D*)", 1, 8, "wildcards are not allowed in ACTION"},
		{"bad HEADER", "ACTION(FWD) FWDQ(X) HEADER(MAYBE)", 1, 28, "expected YES, NO"},
		{"bad PUTAUT", "ACTION(FWD) FWDQ(X) PUTAUT(ALT)", 1, 28, "expected DEF, CTX"},
		{"RETRY zero", "ACTION(RETRY) RETRY(0)", 1, 21, "1 to 999 999 999"},
		{"RETRY too big", "ACTION(RETRY) RETRY(1000000000)", 1, 21, "0 to 999 999 999"},
		{"numeric with wildcard", "ACTION(IGNORE) MSGTYPE('2*')", 1, 24, "a number takes no wildcard"},
		{"numeric not a number", "ACTION(IGNORE) REASON(FULL)", 1, 23, "expected a number"},
		{"symbol of the wrong family", "ACTION(IGNORE) PERSIST(MQMT_REQUEST)", 1, 24, "PERSIST takes MQPER_ names"},
		{"unknown symbol", "ACTION(IGNORE) REASON(MQRC_NOPE)", 1, 23, "not a name IBM defines"},
		{"unknown format name", "ACTION(IGNORE) FORMAT(MQFMT_NOPE)", 1, 23, "not an MQFMT_ name"},
		{"negative symbol", "ACTION(IGNORE) APPLTYPE(MQAT_UNKNOWN)", 1, 25, "outside 0 to 999 999 999"},
		{"bad WAIT", "WAIT(SOMETIMES)\nACTION(IGNORE)", 1, 6, "expected YES, NO or a number"},
		{"bad RETRYINT", "RETRYINT(-1)\nACTION(IGNORE)", 1, 10, "expected a number"},
		{"control data later", "ACTION(IGNORE)\nINPUTQ(X)", 2, 1, "INPUTQ is control data"},
		{"control data mixed with a rule", "INPUTQ(X) ACTION(IGNORE)", 1, 1, "INPUTQ is control data"},
		{"control keyword twice", "WAIT(NO) WAIT(YES)\nACTION(IGNORE)", 1, 10, "WAIT appears twice"},
		{"no rules", "* only a comment\nINPUTQ(' ')\n", 1, 1, "at least one rule"},
		{"continuation at the end", "ACTION(IGNORE) +\n", 1, 16, "no line follows"},
		{"NUL byte", "ACTION(IGNORE)\nREASON(\x00)", 2, 8, "control byte 0x00"},
		{"not UTF-8", "ACTION(IGNORE)\n\xff\xfe", 2, 1, "byte 0xff is not text"},
		{"error on a continued line", "REASON(2053) +\n   ACTION(RETRY) +\n   FWDQ(X)", 3, 4, "FWDQ conflicts"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := Parse(strings.NewReader(c.src))
			var errs Errors
			if !errors.As(err, &errs) || len(errs) == 0 {
				t.Fatalf("Parse(%q) = %v, want Errors", c.src, err)
			}
			e := errs[0]
			if e.Pos.Line != c.line || e.Pos.Col != c.col || !strings.Contains(e.Msg, c.want) {
				t.Errorf("Parse(%q):\n got %v\nwant line %d, column %d: ...%s...", c.src, e, c.line, c.col, c.want)
			}
		})
	}
}

// Every error of a table is reported, not only the first, and the table is
// refused.
func TestAllErrorsReportedAndTableRefused(t *testing.T) {
	tb, err := Parse(strings.NewReader("ACTION(IGNORE)\nACTION(NOPE)\nREASON(1)\nACTION(DISCARD) FWDQ(X)\n"))
	var errs Errors
	if tb != nil || !errors.As(err, &errs) || len(errs) != 3 {
		t.Fatalf("got table %v, errors %v; want nil and 3 errors", tb, err)
	}
	lines := []int{errs[0].Pos.Line, errs[1].Pos.Line, errs[2].Pos.Line}
	if lines[0] != 2 || lines[1] != 3 || lines[2] != 4 {
		t.Errorf("error lines %v, want [2 3 4]", lines)
	}
	if !strings.Contains(err.Error(), "line 2, column 8: ACTION(NOPE)") {
		t.Errorf("Error() = %q", err.Error())
	}
}
