package model

import (
	"github.com/poisonwatch/poisonwatch/actions/dlqrules"
	"github.com/poisonwatch/poisonwatch/mqwatch"
)

// GroupRule is what a loaded rules table does to one triage group: how its
// messages fall over the rules and, for those that meet one, their
// predicted outcomes.
type GroupRule struct {
	Match dlqrules.GroupMatch
	Count int
	// Outcomes count the messages per predicted verdict (an index in the
	// prediction's Distinct verdicts); Unpredicted those that meet a rule
	// but have no verdict yet (new arrivals).
	Outcomes    map[int32]int
	Unpredicted int
	// First is a message of each rule, to resolve the & names with: the
	// first in queue order (at firstAt).
	First   map[int]*mqwatch.Summary
	firstAt map[int]int
}

func newGroupRule() *GroupRule {
	return &GroupRule{Match: dlqrules.NewGroupMatch(), Outcomes: map[int32]int{}, First: map[int]*mqwatch.Summary{},
		firstAt: map[int]int{}}
}

// add counts n messages with one match and predicted verdict (-1: none).
func (g *GroupRule) add(m dlqrules.Match, verdict int32, n int) {
	g.Match.AddN(m, n)
	g.Count += n
	switch {
	case m.Rule < 0:
	case verdict < 0:
		g.Unpredicted += n
	default:
		g.Outcomes[verdict] += n
	}
}

// MainVerdict is the most common verdict of the messages meeting the
// group's main rule, how many share it and how many have another.
func (g *GroupRule) MainVerdict(p *Prediction) (best *dlqrules.Verdict, n, rest int) {
	total := 0
	for j, c := range g.Outcomes {
		v := &p.Distinct[j]
		if v.Rule != g.Match.Rule {
			continue
		}
		total += c
		if c > n || c == n && v.String() < best.String() {
			best, n = v, c
		}
	}
	return best, n, total - n
}

// GroupRules caches the match of every group: it is worked out again only
// when the table, the DEADQ's inventory, the grouping or the prediction
// changes, not on each key. A summary's rule depends only on its class (the
// facts a rule can see in a summary are all class facts), so a table is
// matched once per class, however many messages the class has; a
// predicted verdict is the message's own.
type GroupRules struct {
	tab   *dlqrules.Table
	inv   *mqwatch.Inventory
	dim   Dim
	gen   int // the prediction's
	byKey map[GroupKey]*GroupRule
}

// Match is the match of the inventory's groups along dim against tab, with
// p's predicted outcomes (p may be nil); changed is false when it is the
// one returned last.
func (c *GroupRules) Match(tab *dlqrules.Table, inv *mqwatch.Inventory, dim Dim, p *Prediction) (byKey map[GroupKey]*GroupRule, changed bool) {
	gen := 0
	if p != nil {
		gen = p.Gen
	}
	if c.tab == tab && c.inv == inv && c.dim == dim && c.gen == gen && c.byKey != nil {
		return c.byKey, false
	}
	out := MatchGroups(tab, inv, dim, p)
	*c = GroupRules{tab: tab, inv: inv, dim: dim, gen: gen, byKey: out}
	return out, true
}

// MatchGroups matches the inventory's messages against tab, class by class
// (nothing is copied), adds each class's messages to its group along dim,
// and counts each group's predicted outcomes.
func MatchGroups(tab *dlqrules.Table, inv *mqwatch.Inventory, dim Dim, p *Prediction) map[GroupKey]*GroupRule {
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
		matches[id].Why = "" // not shown per message
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
	if p != nil {
		countVerdicts(inv, p, matches, keys, out)
	}
	return out
}

// countVerdicts adds the messages that meet a rule to their groups with
// their predicted verdicts: per message, since a verdict is the message's.
func countVerdicts(inv *mqwatch.Inventory, p *Prediction, matches []dlqrules.Match, keys []GroupKey, out map[GroupKey]*GroupRule) {
	type classVerdict struct {
		id int
		v  int32
	}
	n := map[classVerdict]int{}
	for i := 0; i < inv.Len(); i++ {
		id := inv.ClassID(i)
		if rule := matches[id].Rule; rule >= 0 {
			n[classVerdict{id, p.index(inv.Key(i), rule)}]++
		}
	}
	for cv, k := range n {
		out[keys[cv.id]].add(matches[cv.id], cv.v, k)
	}
}
