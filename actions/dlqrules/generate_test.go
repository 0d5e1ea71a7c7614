package dlqrules

import (
	"strings"
	"testing"
	"time"

	"github.com/poisonwatch/poisonwatch/mqwatch"
)

// A generated table parses (every line, comments too, within 72 characters,
// names quoted), says the counts it was made from, and each group's messages meet its own rule.
func TestGenerateRoundTrips(t *testing.T) {
	long := strings.Repeat("Q", 48)
	sums := []mqwatch.Summary{
		{HasDLH: true, DLHReason: 2053, DLHDestQ: "ORDERS.IN", DLHDestQMgr: "QM1"},
		{HasDLH: true, DLHReason: 2053, DLHDestQ: "ORDERS.IN", DLHDestQMgr: "QM1"},
		{HasDLH: true, DLHReason: 2085, DLHDestQ: "lower.case.q", DLHDestQMgr: ""},
		{HasDLH: true, DLHReason: 909090, DLHDestQ: long, DLHDestQMgr: long},
		{HasDLH: true, DLHReason: 2362, DLHDestQ: "SHIPPING.IN", DLHDestQMgr: "QM1", PutTime: time.Date(2026, 3, 8, 0, 0, 0, 0, time.UTC)},
		{HasDLH: false},
	}
	groups := GroupsOf(sums)
	if len(groups) != 4 || groups[0].Count != 2 {
		t.Fatalf("groups = %+v", groups)
	}
	groups[1].Choice, groups[1].FwdQ, groups[1].HeaderNo = Fwd, "PARKING.Q", true
	var b strings.Builder
	if err := Generate(&b, groups, GenerateOptions{QMgr: long, Queue: long, Now: time.Date(2026, 3, 9, 0, 0, 0, 0, time.UTC)}); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	for i, line := range strings.Split(strings.TrimSuffix(out, "\n"), "\n") {
		if len(line) > 72 {
			t.Errorf("line %d has %d characters, over 72: %q", i+1, len(line), line)
		}
	}
	tb, err := Parse(strings.NewReader(out))
	if err != nil {
		t.Fatalf("generated table does not parse:\n%s\n%v", out, err)
	}
	if len(tb.Warnings) > 0 {
		t.Errorf("warnings: %v\n%s", tb.Warnings, out)
	}
	if tb.Control.InputQ != long || tb.Control.InputQM != long || tb.Control.Wait != WaitNo {
		t.Errorf("control = %+v", tb.Control)
	}
	for _, s := range []string{"from 5 messages in 4 groups", "* 2 messages: MQRC_Q_FULL (2053), destination ORDERS.IN on QM1",
		"* 1 message: MQRC_BACKOUT_THRESHOLD_REACHED (2362), destination\n* SHIPPING.IN on QM1\n", "REASON(909090)"} {
		if !strings.Contains(out, s) {
			t.Errorf("generated table lacks %q:\n%s", s, out)
		}
	}
	for i, s := range sums[:5] {
		f := FactsOfSummary(&s)
		m := tb.Match(&f)
		want := []int{0, 0, 1, 2, 3}[i] // groups largest first, then in queue order
		if m.Rule != want || !m.Certain {
			t.Errorf("message %d meets rule %d (%+v), want %d\n%s", i, m.Rule, m, want, out)
		}
	}
	if r := tb.Rules[1]; r.Action != Fwd || r.FwdQ != "PARKING.Q" || r.Header {
		t.Errorf("operator's choice lost: %s", r.String())
	}
	if tb.Rules[0].Action != Ignore {
		t.Errorf("default action = %s, want IGNORE", tb.Rules[0].Action)
	}
}

// The dialog's action choice steps through IGNORE, RETRY, FWD, DISCARD and
// wraps both ways; the action part reads as the table will.
func TestGroupCycleAndActionString(t *testing.T) {
	cases := []struct {
		from Action
		step int
		want Action
	}{
		{"", 1, Retry},
		{Ignore, 1, Retry},
		{Retry, 1, Fwd},
		{Fwd, 1, Discard},
		{Discard, 1, Ignore},
		{Ignore, -1, Discard},
		{"", -1, Discard},
		{Retry, -2, Discard},
	}
	for _, c := range cases {
		g := Group{Choice: c.from}
		if g.Cycle(c.step); g.Choice != c.want {
			t.Errorf("%q cycled by %d = %s, want %s", c.from, c.step, g.Choice, c.want)
		}
	}
	for _, c := range []struct {
		g    Group
		want string
	}{
		{Group{}, "ACTION(IGNORE)"},
		{Group{Choice: Fwd, FwdQ: "PARKING.Q", HeaderNo: true}, "ACTION(FWD) FWDQ('PARKING.Q') HEADER(NO)"},
		{Group{Choice: Fwd, FwdQ: RefDestQ, FwdQM: "QM2"}, "ACTION(FWD) FWDQ(&DESTQ) FWDQM('QM2')"},
		{Group{Choice: Retry, Retry: 3}, "ACTION(RETRY) RETRY(3)"},
	} {
		if got := c.g.ActionString(); got != c.want {
			t.Errorf("ActionString(%+v) = %q, want %q", c.g, got, c.want)
		}
	}
}
