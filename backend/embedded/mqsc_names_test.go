package embedded

import (
	"strings"
	"testing"
)

// TestMQSCNamesFollowIBMRules: object names and attributes naming objects
// use A-Z a-z 0-9 . / _ % within IBM's lengths; anything with a control or
// formatting character is refused with AMQ8424E, never stored.
func TestMQSCNamesFollowIBMRules(t *testing.T) {
	tests := []struct {
		name, script string
		ok           bool
	}{
		{"plain queue", "DEFINE QLOCAL(ORDERS.IN)", true},
		{"all allowed characters", "DEFINE QLOCAL('a.b/c_d%E9')", true},
		{"48 characters", "DEFINE QLOCAL(" + strings.Repeat("Q", 48) + ")", true},
		{"49 characters", "DEFINE QLOCAL(" + strings.Repeat("Q", 49) + ")", false},
		{"escape in a quoted name", "DEFINE QLOCAL('A\x1b[2JB')", false},
		{"blank RNAME is a queue manager alias", "DEFINE QREMOTE(QM9) RNAME(' ') RQMNAME(QM9)", true},
		{"C1 CSI rune in a name", "DEFINE QLOCAL('A\u009b31mB')", false},
		{"bidi override in a name", "DEFINE QLOCAL('A\u202eB')", false},
		{"blank in a quoted name", "DEFINE QLOCAL('A B')", false},
		{"hyphen", "DEFINE QLOCAL('A-B')", false},
		{"BOQNAME with an escape", "DEFINE QLOCAL(A) BOQNAME('B\x1b]0;x\x07')", false},
		{"BOQNAME too long", "DEFINE QLOCAL(A) BOQNAME(" + strings.Repeat("B", 49) + ")", false},
		{"DEADQ with a bad character", "ALTER QMGR DEADQ('D!Q')", false},
		{"DESCR may hold any printable text", "DEFINE QLOCAL(A) DESCR('backout queue: orders, #1 (EU)')", true},
		{"DESCR with an escape", "DEFINE QLOCAL(A) DESCR('x\x1b[31m')", false},
		{"channel name over 20", "DEFINE CHANNEL(" + strings.Repeat("C", 21) + ") CHLTYPE(SVRCONN)", false},
		{"channel with an escape, though not modelled", "DEFINE CHANNEL('C\x1b') CHLTYPE(SVRCONN)", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			qm := New(Options{Name: "QM1"})
			rep, err := qm.RunMQSC(strings.NewReader(tt.script + "\n"))
			if tt.ok != (err == nil) {
				t.Fatalf("err = %v, want ok %v\n%s", err, tt.ok, rep)
			}
			if err != nil && !strings.Contains(err.Error(), "AMQ8424E") {
				if !strings.Contains(err.Error(), "longer than") { // the parser checks lengths first
					t.Fatalf("err = %v, want AMQ8424E", err)
				}
			}
			if err != nil && strings.ContainsAny(err.Error(), "\x1b\x07\u009b\u202e") {
				t.Fatalf("the error carries the raw control: %q", err)
			}
		})
	}
}

// TestMQSCNotes: what the embedded queue manager accepts without effect is
// listed, from a run's report and from a parse alike.
func TestMQSCNotes(t *testing.T) {
	script := "DEFINE QLOCAL(A) TRIGDPTH(5) TRIGDATA(B)\nDEFINE CHANNEL(C) CHLTYPE(SVRCONN)\nDEFINE QLOCAL(D)\n"
	rep, err := New(Options{Name: "QM1"}).RunMQSC(strings.NewReader(script))
	if err != nil {
		t.Fatal(err)
	}
	parsed, err := MQSCNotes(strings.NewReader(script))
	if err != nil {
		t.Fatal(err)
	}
	got := rep.Notes()
	if len(got) != 2 || !strings.Contains(got[0], "line 1: DEFINE QLOCAL(A): TRIGDPTH, TRIGDATA not modelled") ||
		!strings.Contains(got[1], "line 2: DEFINE CHANNEL(C): not modelled") {
		t.Fatalf("notes %q", got)
	}
	if strings.Join(parsed, "\n") != strings.Join(got, "\n") {
		t.Fatalf("parsed notes %q, run notes %q", parsed, got)
	}
}
