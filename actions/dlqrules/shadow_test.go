package dlqrules

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
)

// randomTable is n rules over a small vocabulary of exact, generic and
// omitted patterns, so that many rules cover others.
func randomTable(t testing.TB, rng *rand.Rand, n int) *Table {
	t.Helper()
	dests := []string{"ORDERS.IN", "ORDERS.*", "PAY.IN", "PAY*", "*", "OR?ERS.IN"}
	apps := []string{"'app-1'", "'app-2'", "'app*'"}
	var b strings.Builder
	for range n {
		if d := rng.IntN(len(dests) + 1); d < len(dests) {
			fmt.Fprintf(&b, "DESTQ(%s) ", dests[d])
		}
		if rng.IntN(2) == 0 {
			fmt.Fprintf(&b, "REASON(%d) ", []int{2053, 2051, 2085}[rng.IntN(3)])
		}
		if a := rng.IntN(len(apps) + 2); a < len(apps) {
			fmt.Fprintf(&b, "APPLNAME(%s) ", apps[a])
		}
		b.WriteString("ACTION(DISCARD)\n")
	}
	tb, err := Parse(strings.NewReader(b.String()))
	if err != nil {
		t.Fatal(err)
	}
	return tb
}

// TestShadowIndexAgreesWithEveryPair: the index finds, for every rule,
// the same first covering rule as comparing it with each earlier rule.
func TestShadowIndexAgreesWithEveryPair(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for round := range 50 {
		tb := randomTable(t, rng, 40)
		got := shadows(tb)
		for r := range tb.Rules {
			want := 0
			for a := 0; a < r && want == 0; a++ {
				if covers(&tb.Rules[a], &tb.Rules[r]) {
					want = a + 1
				}
			}
			if got[r] != want {
				t.Fatalf("round %d, rule %d (%s): shadowed by %d, every pair says %d", round, r+1, tb.Rules[r].String(), got[r], want)
			}
		}
	}
}

// A table of more rules than MaxRules is refused with a message that says
// so, at the first rule over.
func TestTableOverTheRuleLimitRefused(t *testing.T) {
	var b strings.Builder
	for i := range MaxRules + 1 {
		fmt.Fprintf(&b, "DESTQ(Q%d) ACTION(DISCARD)\n", i)
	}
	_, err := Parse(strings.NewReader(b.String()))
	if err == nil || !strings.Contains(err.Error(), fmt.Sprintf("more than %d rules", MaxRules)) || !strings.Contains(err.Error(), fmt.Sprintf("line %d,", MaxRules+1)) {
		t.Fatalf("err = %v", err)
	}
}

// The matcher remembers per kind of message: the same facts, the same
// match, whichever message asks.
func TestMatcherRemembersPerFacts(t *testing.T) {
	tb := randomTable(t, rand.New(rand.NewPCG(3, 4)), 30)
	m := newMatcher(tb)
	for _, f := range []Facts{
		{HasDLH: true, Reason: 2053, DestQ: "ORDERS.IN", PutApplName: "app-1"},
		{HasDLH: true, Reason: 2085, DestQ: "PAY.IN"},
		{HasDLH: false},
	} {
		for range 2 {
			if got, want := m.Match(&f), tb.Match(&f); got != want {
				t.Fatalf("%+v: matcher %+v, table %+v", f, got, want)
			}
		}
	}
}

// BenchmarkShadows8kRules is the shadow search of a generated table of
// 8,000 rules with fixed values (every pair compared took seconds).
func BenchmarkShadows8kRules(b *testing.B) {
	var t strings.Builder
	for i := range 8000 {
		fmt.Fprintf(&t, "DESTQ(Q%d.IN) REASON(%d) APPLNAME('app-%d') ACTION(FWD) FWDQ(PARK)\n", i, 2053+i%3, i%7)
	}
	tb, err := Parse(strings.NewReader(t.String()))
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		shadows(tb)
	}
}
