package mqsc

import (
	"errors"
	"os"
	"slices"
	"strings"
	"testing"
)

func TestParseSyntax(t *testing.T) {
	tests := []struct {
		name     string
		in       string
		kind     string
		objName  string
		key      string
		want     []string
		wantLine int
	}{
		{"keywords are case-insensitive and unquoted names fold to upper case",
			"define qlocal(orders.in) descr(hello)", "DEFINE QLOCAL", "ORDERS.IN", "DESCR", []string{"HELLO"}, 1},
		{"quoted names keep their case",
			"DEFINE TOPIC('dev.topic') TOPICSTR('dev/')", "DEFINE TOPIC", "dev.topic", "TOPICSTR", []string{"dev/"}, 1},
		{"two apostrophes in a quoted string stand for one",
			"DEFINE QLOCAL(A) DESCR('it''s here')", "DEFINE QLOCAL", "A", "DESCR", []string{"it's here"}, 1},
		{"abbreviated verb and object type",
			"DEF QL(A) MAXDEPTH(10)", "DEFINE QLOCAL", "A", "MAXDEPTH", []string{"10"}, 1},
		{"QA abbreviation and TARGQ synonym of TARGET",
			"DEF QA(AQ1) TARGQ(Q1)", "DEFINE QALIAS", "AQ1", "TARGET", []string{"Q1"}, 1},
		{"QM abbreviates QMODEL",
			"def qm(M) deftype(permdyn)", "DEFINE QMODEL", "M", "DEFTYPE", []string{"PERMDYN"}, 1},
		{"QR abbreviates QREMOTE",
			"DEF QR(R) RNAME(X) RQMNAME(QM2) XMITQ(QM2)", "DEFINE QREMOTE", "R", "RQMNAME", []string{"QM2"}, 1},
		{"blanks and commas separate keywords, values and parentheses",
			"ALTER QLOCAL ( 'Account' ) , MAXDEPTH ( 1 )", "ALTER QLOCAL", "Account", "MAXDEPTH", []string{"1"}, 1},
		{"plus continues from the first non-blank character of the next line",
			"DEFINE QLOCAL(A) +\n     DESCR('Fr+\n   ed')", "DEFINE QLOCAL", "A", "DESCR", []string{"Fred"}, 1},
		{"minus continues from the start of the next line",
			"DEFINE QLOCAL(A) DESCR('x-\n y')", "DEFINE QLOCAL", "A", "DESCR", []string{"x y"}, 1},
		{"comment and blank lines inside a continued command are dropped",
			"* header\n\nDEFINE QLOCAL(A) +\n* note\n\n  MAXDEPTH(7)", "DEFINE QLOCAL", "A", "MAXDEPTH", []string{"7"}, 3},
		{"a semicolon ends a command even after a continuation character",
			"DEFINE QLOCAL(A) MAXDEPTH(3) +;\nDEFINE QLOCAL(B)", "DEFINE QLOCAL", "A", "MAXDEPTH", []string{"3"}, 1},
		{"a list value splits at commas and blanks",
			"SET AUTHREC PROFILE('DEV.**') OBJTYPE(QUEUE) PRINCIPAL('app') AUTHADD(browse, GET INQ)",
			"SET AUTHREC", "", "AUTHADD", []string{"BROWSE", "GET", "INQ"}, 1},
		{"a blank between a keyword and its parenthesis is allowed",
			"SET CHLAUTH('X') TYPE(USERMAP) MCAUSER ('mqm')", "SET CHLAUTH", "X", "MCAUSER", []string{"mqm"}, 1},
		{"CRLF line ends are accepted",
			"DEFINE QLOCAL(A) +\r\n MAXDEPTH(2)\r\n", "DEFINE QLOCAL", "A", "MAXDEPTH", []string{"2"}, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cmds, err := ParseString(tt.in)
			if err != nil {
				t.Fatalf("Parse: %v", err)
			}
			c := cmds[0]
			if c.Kind() != tt.kind || c.Name != tt.objName || c.Line != tt.wantLine {
				t.Fatalf("got %s(%q) line %d, want %s(%q) line %d", c.Kind(), c.Name, c.Line, tt.kind, tt.objName, tt.wantLine)
			}
			p, ok := c.Param(tt.key)
			if !ok || !slices.Equal(p.Values, tt.want) {
				t.Fatalf("%s = %q (present %v), want %q", tt.key, p.Values, ok, tt.want)
			}
		})
	}
}

func TestParseErrorsNameTheLine(t *testing.T) {
	tests := []struct {
		name string
		in   string
		line int
		msg  string
	}{
		{"unknown attribute for a modelled object", "DEFINE QLOCAL(A)\n\nDEFINE QLOCAL(B) FOO(1)", 3, "unknown attribute FOO for QLOCAL"},
		{"attribute of another queue type", "DEFINE QALIAS(A) MAXDEPTH(5)", 1, "unknown attribute MAXDEPTH for QALIAS"},
		{"unknown verb", "* c\nFROB QLOCAL(A)", 2, `unknown command "FROB"`},
		{"unclosed quote", "DEFINE QLOCAL(A) DESCR('abc", 1, "is not closed"},
		{"unclosed parenthesis", "DEFINE QLOCAL(A) MAXDEPTH(5", 1, "'(' is not closed"},
		{"value not in the set", "ALTER QLOCAL(A) +\n  PUT(MAYBE)", 2, "want one of ENABLED, DISABLED"},
		{"number out of range", "ALTER QLOCAL(A) DEFPRTY(12)", 1, "out of range 0..9"},
		{"not a number", "ALTER QLOCAL(A) MAXDEPTH(lots)", 1, "not a number"},
		{"attribute given twice", "ALTER QLOCAL(A) MAXDEPTH(1) MAXDEPTH(2)", 1, "given twice"},
		{"contradicting flags", "DEFINE QLOCAL(A) REPLACE NOREPLACE", 1, "contradict"},
		{"missing object name", "DEFINE QLOCAL", 1, "needs an object name"},
		{"name longer than 48", "DEFINE QLOCAL(" + strings.Repeat("A", 49) + ")", 1, "longer than 48"},
		{"flag with a value", "DEFINE QLOCAL(A) REPLACE(YES)", 1, "takes no value"},
		{"attribute without its value", "ALTER QMGR DEADQ", 1, "needs a value"},
		{"continuation past the end of input", "\nDEFINE QLOCAL(A) +", 2, "continued past the end"},
		{"bad authority name", "SET AUTHREC OBJTYPE(QMGR) PRINCIPAL('a') AUTHADD(FLY)", 1, "not a valid value"},
		{"error on a continuation line names that line", "DEFINE QLOCAL(A) +\n MAXDEPTH(1) +\n BOGUS", 3, "unknown attribute BOGUS"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := ParseString(tt.in)
			var e *Error
			if !errors.As(err, &e) {
				t.Fatalf("err = %v, want *Error", err)
			}
			if e.Line != tt.line || !strings.Contains(e.Error(), tt.msg) {
				t.Fatalf("err = %q (line %d), want line %d containing %q", e.Error(), e.Line, tt.line, tt.msg)
			}
		})
	}
}

func TestParseAcceptsUnmodelledCommandsAndAttributes(t *testing.T) {
	cmds, err := ParseString("DEFINE CHANNEL(C) CHLTYPE(SVRCONN) ANYTHING(1)\nDEFINE QLOCAL(Q) TRIGDPTH(5) TRIGDATA(I)")
	if err != nil {
		t.Fatal(err)
	}
	if cmds[0].Modelled {
		t.Error("DEFINE CHANNEL marked modelled")
	}
	if p, _ := cmds[1].Param("TRIGDPTH"); !p.Unmodelled {
		t.Error("TRIGDPTH not marked unmodelled")
	}
	if p, _ := cmds[1].Param("TRIGDATA"); !p.Unmodelled {
		t.Error("TRIGDATA not marked unmodelled")
	}
}

func TestParseLineLimit(t *testing.T) {
	_, err := ParseString("DEFINE QLOCAL(A) DESCR('" + strings.Repeat("x", MaxCommandLen+10) + "')")
	if err == nil || !strings.Contains(err.Error(), "longer than") {
		t.Fatalf("err = %v, want a length error", err)
	}
}

// TestParseMQContainerScript reads IBM's developer-container script (rendered
// from its template) and checks each command as IBM wrote it.
func TestParseMQContainerScript(t *testing.T) {
	f, err := os.Open("testdata/10-dev.mqsc")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	cmds, err := Parse(f)
	if err != nil {
		t.Fatal(err)
	}
	var kinds []string
	for _, c := range cmds {
		kinds = append(kinds, c.Kind())
	}
	want := []string{"DEFINE QLOCAL", "DEFINE QLOCAL", "DEFINE QLOCAL", "DEFINE QLOCAL", "DEFINE QMODEL",
		"ALTER QMGR", "DEFINE TOPIC", "DEFINE AUTHINFO", "ALTER QMGR", "REFRESH SECURITY",
		"DEFINE CHANNEL", "DEFINE CHANNEL", "SET CHLAUTH", "SET CHLAUTH", "SET CHLAUTH", "SET CHLAUTH",
		"SET CHLAUTH", "SET AUTHREC", "SET AUTHREC", "SET AUTHREC", "SET AUTHREC"}
	if !slices.Equal(kinds, want) {
		t.Fatalf("kinds =\n%q\nwant\n%q", kinds, want)
	}
	if cmds[0].Name != "DEV.QUEUE.1" || cmds[0].Line != 17 {
		t.Errorf("first command %q at line %d", cmds[0].Name, cmds[0].Line)
	}
	if p, _ := cmds[6].Param("TOPICSTR"); p.Value() != "dev/" {
		t.Errorf("TOPICSTR = %q, want dev/", p.Value())
	}
	if p, _ := cmds[17].Param("PRINCIPAL"); p.Value() != "app" {
		t.Errorf("PRINCIPAL = %q, want app", p.Value())
	}
}
