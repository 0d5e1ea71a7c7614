package model

import (
	"cmp"
	"slices"
	"time"

	"github.com/poisonwatch/poisonwatch/actions/dlqrules"
	"github.com/poisonwatch/poisonwatch/mqwatch"
)

// MsgRun is N messages whose rule facts are S's, dead-lettered between
// Oldest and Newest; the first of them is at position First.
type MsgRun struct {
	S              mqwatch.Summary
	N, First       int
	Oldest, Newest time.Time
}

// MarkedRuns is the marked messages class by class (their rule facts are
// class facts), in the order of each class's first mark, read a batch at a
// time: a million marks cost their classes, not a list of summaries.
func MarkedRuns(sel *Selection) []MsgRun {
	var out []MsgRun
	at := map[mqwatch.Class]int{}
	seq := 0
	for batch := range sel.Batches(1024) {
		for i := range batch {
			s := &batch[i]
			j, ok := at[s.Class()]
			if !ok {
				j = len(out)
				at[s.Class()] = j
				out = append(out, MsgRun{S: *s, First: seq})
			}
			r := &out[j]
			r.N++
			if q := s.QueuedAt(); !q.IsZero() {
				if r.Oldest.IsZero() || q.Before(r.Oldest) {
					r.Oldest = q
				}
				if q.After(r.Newest) {
					r.Newest = q
				}
			}
			seq++
		}
	}
	return out
}

// ClassRuns is all of an inventory's messages class by class (their rule
// facts are class facts), in the order of each class's first message.
func ClassRuns(inv *mqwatch.Inventory) []MsgRun {
	var out []MsgRun
	for _, c := range TallyClasses(inv) {
		if c.Count > 0 {
			out = append(out, MsgRun{S: *inv.At(c.First), N: c.Count, First: c.First, Oldest: c.Oldest, Newest: c.Newest})
		}
	}
	slices.SortFunc(out, func(x, y MsgRun) int { return cmp.Compare(x.First, y.First) })
	return out
}

// ChooseRules gives each group the action of tab's rule that most of its
// messages meet; a group no rule matches keeps IGNORE.
func ChooseRules(tab *dlqrules.Table, groups []dlqrules.Group, runs []MsgRun) {
	type key struct {
		reason     int32
		dest, dqmg string
	}
	byGroup := map[key]*dlqrules.GroupMatch{}
	for i := range runs {
		s := &runs[i].S
		k := key{s.DLHReason, s.DLHDestQ, s.DLHDestQMgr}
		if byGroup[k] == nil {
			gm := dlqrules.NewGroupMatch()
			byGroup[k] = &gm
		}
		byGroup[k].AddN(tab.MatchSummary(s), runs[i].N)
	}
	for i := range groups {
		g := &groups[i]
		gm := byGroup[key{g.Reason, g.DestQ, g.DestQMgr}]
		if gm == nil || gm.Rule < 0 {
			continue
		}
		rule := &tab.Rules[gm.Rule]
		g.Choice, g.FwdQ, g.FwdQM, g.HeaderNo, g.Retry = rule.Action, rule.FwdQ, rule.FwdQM, !rule.Header, rule.Retry
	}
}
