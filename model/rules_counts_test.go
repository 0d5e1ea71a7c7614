package model

import (
	"encoding/binary"
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/poisonwatch/poisonwatch/actions/dlqrules"
	"github.com/poisonwatch/poisonwatch/mqwatch"
)

// matchGroupsFull is the reference the incremental counts must equal: every
// message of inv counted again, class by class, with its verdict.
func matchGroupsFull(tab *dlqrules.Table, inv *mqwatch.Inventory, dim Dim, p *Prediction) map[GroupKey]*GroupRule {
	classes := TallyClasses(inv)
	keys := ClassKeys(inv, dim)
	matches := make([]dlqrules.Match, len(classes))
	out := map[GroupKey]*GroupRule{}
	for id, ct := range classes {
		if ct.Count == 0 {
			continue
		}
		m := inv.At(ct.First)
		matches[id] = tab.MatchSummary(m)
		matches[id].Why = ""
		g := out[keys[id]]
		if g == nil {
			g = newGroupRule()
			out[keys[id]] = g
		}
		if at, ok := g.firstAt[matches[id].Rule]; !ok || ct.First < at {
			g.First[matches[id].Rule], g.firstAt[matches[id].Rule] = m, ct.First
		}
		if p == nil || matches[id].Rule < 0 {
			g.add(matches[id], -1, ct.Count)
		}
	}
	if p == nil {
		return out
	}
	for i := 0; i < inv.Len(); i++ {
		id := inv.ClassID(i)
		if rule := matches[id].Rule; rule >= 0 {
			out[keys[id]].add(matches[id], p.index(inv.Key(i), rule), 1)
		}
	}
	return out
}

// rulesMsgs are n dead letters numbered from 'from' over a dozen classes.
func rulesMsgs(from, n int) []mqwatch.Summary {
	out := make([]mqwatch.Summary, n)
	for i := range out {
		a := from + i
		s := &out[i]
		s.HasDLH, s.Arrival = true, uint64(a+1)
		s.DLHReason = []int32{2053, 2085, 2035}[a%3]
		s.DLHDestQ = []string{"INVOICE.IN", "AUDIT.IN"}[a/7%2]
		s.DLHDestQMgr = "QM1"
		s.PutApplName = []string{"amqrmppa", "runmqtrm"}[a/5%2]
		s.DLHPutTime = time.Date(2026, 1, 2, 3, 0, 0, 0, time.UTC).Add(time.Duration(a) * time.Second)
		binary.BigEndian.PutUint64(s.MsgId[16:], uint64(a))
	}
	return out
}

func parseTable(t *testing.T, text string) *dlqrules.Table {
	t.Helper()
	tab, err := dlqrules.Parse(strings.NewReader(text))
	if err != nil {
		t.Fatal(err)
	}
	return tab
}

// predictAll gives every message of inv a verdict, as a prediction would:
// its class's rule, with one of three outcomes; every eleventh names
// another rule (a message the whole-message facts send elsewhere).
func predictAll(t *testing.T, ps Predictions, q QueueRef, tab *dlqrules.Table, inv *mqwatch.Inventory) *Prediction {
	now := time.Unix(0, 0)
	if p := ps[q]; p != nil {
		now = p.Done.Add(PredictEvery)
	}
	if !ps.Begin(q, inv, now) {
		t.Fatal("no prediction begun")
	}
	vs := verdictsOf(inv.Len(), func(i int) dlqrules.Verdict {
		m := tab.MatchSummary(inv.At(i))
		v := dlqrules.Verdict{Rule: m.Rule, Certain: m.Certain, Does: "act",
			Outcome: []string{"would succeed", "would fail with MQRC_Q_FULL (2053)", "would loop"}[i%3]}
		if i%11 == 0 {
			v.Rule = (m.Rule + 1) % len(tab.Rules)
		}
		return v
	})
	ps.Finish(q, NewAnswer(inv, vs, nil), now)
	return ps[q]
}

// verdictsOf numbers the verdicts of n messages as a prediction does, in
// the order the messages first meet them.
func verdictsOf(n int, of func(i int) dlqrules.Verdict) *dlqrules.Verdicts {
	vs := &dlqrules.Verdicts{At: make([]int32, n)}
	index := map[dlqrules.Verdict]int32{}
	for i := range n {
		v := of(i)
		j, ok := index[v]
		if !ok {
			j = int32(len(vs.Distinct))
			index[v] = j
			vs.Distinct = append(vs.Distinct, v)
		}
		vs.At[i] = j
	}
	return vs
}

// TestRuleCountsIncrementalEqualsFullMatch: after arrivals, drains at the
// head, a removal in the middle, skipped snapshots, a sibling version, a
// new prediction and a table change, the counts kept incrementally are
// those a full match of the inventory gives, and only the table, the
// prediction and the rebuilt inventory cost a pass over every message.
func TestRuleCountsIncrementalEqualsFullMatch(t *testing.T) {
	t1 := parseTable(t, "REASON(MQRC_Q_FULL) ACTION(RETRY) RETRY(3)\nDESTQ(INVOICE.*) ACTION(FWD) FWDQ(&REPLYQ) HEADER(NO)\nREPLYQ(R.*) ACTION(DISCARD)\n")
	t2 := parseTable(t, "DESTQ(AUDIT.*) ACTION(DISCARD)\nACTION(IGNORE)\n")
	q := QueueRef{"QM1", "QM1.DEADQ"}
	ps := Predictions{}
	next := 0
	grow := func(inv *mqwatch.Inventory, n int) *mqwatch.Inventory {
		inv = inv.Append(rulesMsgs(next, n)...)
		next += n
		return inv
	}
	inv := grow(nil, 5000)
	var p *Prediction
	tab := t1
	var c GroupRules
	steps := []struct {
		name    string
		do      func()
		recount bool
	}{
		{"first match", func() {}, true},
		{"prediction", func() { p = predictAll(t, ps, q, tab, inv) }, true},
		{"arrivals", func() { inv = grow(inv, 37) }, false},
		{"drain at the head", func() { inv = inv.DropHead(1500) }, false},
		{"drain and arrivals, snapshots skipped", func() {
			for range 5 {
				inv = grow(inv, 300).DropHead(200) // only the last is counted
			}
		}, false},
		{"from a sibling version to the line's", func() {
			sib := grow(inv, 3) // written into the shared tail chunk
			c.Match(tab, sib, DimReasonDest, p)
			inv = grow(inv.DropHead(10), 4) // a copy of it: the sibling's 3 went
		}, false},
		// Counting what is left is cheaper than subtracting what went.
		{"drain to one class's last message", func() { inv = inv.DropHead(inv.Len() - 1) }, true},
		{"arrivals after", func() { inv = grow(inv, 2100) }, false},
		{"removal in the middle", func() {
			inv = inv.Filter(func(s *mqwatch.Summary) bool { return s.Arrival%13 != 0 })
		}, true},
		{"another table", func() { tab, p, ps = t2, nil, Predictions{} }, true},
		{"its prediction", func() { p = predictAll(t, ps, q, tab, inv) }, true},
		{"everything gone", func() { inv = inv.DropHead(inv.Len()) }, true},
		{"arrivals on an empty queue", func() { inv = grow(inv, 1700) }, false},
		{"a prediction of an older inventory", func() {
			old := inv
			inv = grow(inv.DropHead(100), 50)
			p = predictAll(t, ps, q, tab, old)
		}, true},
	}
	for _, st := range steps {
		st.do()
		before := c.Recounts()
		for _, dim := range DLQDims {
			got, _ := c.Match(tab, inv, dim, p)
			want := matchGroupsFull(tab, inv, dim, p)
			if !reflect.DeepEqual(got, want) {
				t.Fatalf("%s, dim %v:\nincremental %s\nfull match  %s", st.name, dim, dumpRules(got), dumpRules(want))
			}
		}
		if recounted := c.Recounts() > before; recounted != st.recount {
			t.Errorf("%s: counted every message again: %v, want %v", st.name, recounted, st.recount)
		}
	}
}

func dumpRules(m map[GroupKey]*GroupRule) string {
	var b strings.Builder
	for k, g := range m {
		fmt.Fprintf(&b, "\n  %v: rule %d counts %v uncertain %d count %d outcomes %v unpredicted %d firstAt %v",
			k, g.Match.Rule, g.Match.Counts, g.Match.Uncertain, g.Count, g.Outcomes, g.Unpredicted, g.firstAt)
	}
	return b.String()
}

// W over marked messages counts them class by class: the groups it writes
// are those counting every marked summary gives, order of equal groups
// included.
func TestMarkedRunsCountAsMessageByMessage(t *testing.T) {
	inv := (*mqwatch.Inventory)(nil).Append(rulesMsgs(0, 3000)...)
	sel := NewSelection()
	for i := inv.Len() - 1; i >= 0; i -= 3 {
		sel.MarkAt(inv, i)
	}
	var gc dlqrules.GroupCounter
	for _, r := range MarkedRuns(sel) {
		gc.AddN(&r.S, r.N, r.Oldest, r.Newest)
	}
	if got, want := gc.Groups(), dlqrules.GroupsOf(sel.Items()); !reflect.DeepEqual(got, want) {
		t.Fatalf("class by class:\n%+v\nmessage by message:\n%+v", got, want)
	}
}
