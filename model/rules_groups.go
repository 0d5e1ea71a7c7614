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
// changes, not on each key, and then from counts kept up to date with only
// the messages that changed (RuleCounts).
type GroupRules struct {
	counts RuleCounts
	tab    *dlqrules.Table
	inv    *mqwatch.Inventory
	dim    Dim
	gen    int // the prediction's
	byKey  map[GroupKey]*GroupRule
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
	c.counts.Update(tab, inv, p)
	c.tab, c.inv, c.dim, c.gen, c.byKey = tab, inv, dim, gen, c.counts.Groups(dim)
	return c.byKey, true
}

// Recounts is how many times the counts were taken from scratch.
func (c *GroupRules) Recounts() int { return c.counts.Recounts }
