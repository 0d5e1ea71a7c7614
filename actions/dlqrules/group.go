package dlqrules

import (
	"github.com/poisonwatch/poisonwatch/mqwatch"
)

// GroupMatch is how the messages of a group (the triage screen's reason and
// destination) fall over the rules.
type GroupMatch struct {
	// Rule is the index of the rule most of them meet, -1 when most meet
	// none; Counts has every rule's share (key -1: no rule).
	Rule   int
	Counts map[int]int
	// Uncertain counts messages whose rule depends on fields a summary
	// lacks (MSGTYPE, REPLYQ, ...): the message screen, which has the whole
	// MQMD, says for sure.
	Uncertain int
}

// MatchSummaries matches each summary of a group.
func (t *Table) MatchSummaries(sums []mqwatch.Summary) GroupMatch {
	g := NewGroupMatch()
	for i := range sums {
		g.Add(t.MatchSummary(&sums[i]))
	}
	return g
}

// NewGroupMatch is an empty group, to count matches into with Add (the
// dashboard counts a group's messages in place, without copying them).
func NewGroupMatch() GroupMatch { return GroupMatch{Rule: -1, Counts: map[int]int{}} }

// Add counts one message's match. Counts only grow, so the rule most meet
// (the lowest on a tie) can be kept up to date as they come.
func (g *GroupMatch) Add(m Match) { g.AddN(m, 1) }

// AddN counts n messages with the same match, as n calls of Add would.
func (g *GroupMatch) AddN(m Match, n int) {
	g.Counts[m.Rule] += n
	if !m.Certain {
		g.Uncertain += n
	}
	if n, best := g.Counts[m.Rule], g.Counts[g.Rule]; n > best || n == best && m.Rule < g.Rule {
		g.Rule = m.Rule
	}
}
