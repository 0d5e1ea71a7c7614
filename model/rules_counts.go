package model

import (
	"github.com/poisonwatch/poisonwatch/actions/dlqrules"
	"github.com/poisonwatch/poisonwatch/mqwatch"
)

// RuleCounts counts a DEADQ's messages per class and predicted verdict
// against one rules table, and keeps the counts from poll to poll by
// counting only what changed (mqwatch.Inventory.Since): the messages that
// arrived are matched and added, those that went are subtracted, and a
// million messages are counted again only when the table or the prediction
// changes or the inventory was rebuilt. A class is matched once against the
// table: every fact a rule can see in a summary is a class fact.
type RuleCounts struct {
	tab  *dlqrules.Table
	pred *Prediction
	gen  int // the prediction's, when counted
	inv  *mqwatch.Inventory
	cls  []ruleClass
	// byValue finds a class's slot across re-encoded inventories; idSlot
	// is the fast path, by the inventory's class number.
	byValue map[mqwatch.Class]int32
	idSlot  []int32
	keys    map[Dim][]GroupKey // each slot's group key, per dimension
	// atPos, while set, gives the verdicts of the counted inventory by
	// position (the prediction's own inventory).
	atPos []int32
	// Recounts counts the passes over the whole inventory.
	Recounts int
}

// ruleClass is the count of one class's messages.
type ruleClass struct {
	cls   *mqwatch.Class
	match dlqrules.Match
	n     int
	// verdicts counts the messages per predicted verdict, at the
	// verdict's index + 1 (0: none yet), for a class that meets a rule.
	verdicts []int
	// first is the position of its first message; stale when it went and
	// the class still has messages (found again on the next Groups).
	first int
	stale bool
}

// Update brings the counts to inv, matched against tab with p's verdicts
// (p may be nil).
func (rc *RuleCounts) Update(tab *dlqrules.Table, inv *mqwatch.Inventory, p *Prediction) {
	if p != nil && p.Gen == 0 {
		p = nil // asked for, not answered: no verdict to count, no reason to count again
	}
	gen := 0
	if p != nil {
		gen = p.Gen
	}
	if tab != rc.tab || p != rc.pred || gen != rc.gen {
		if tab != rc.tab {
			*rc = RuleCounts{tab: tab, Recounts: rc.Recounts}
		}
		rc.pred, rc.gen = p, gen
		rc.recountPredicted(inv)
		return
	}
	if inv == rc.inv {
		return
	}
	dropped, kept, ok := inv.Since(rc.inv)
	if !ok || inv.Len()-kept+rc.inv.Len()-kept > inv.Len() {
		rc.recount(inv) // as cheap as the difference
		return
	}
	rc.apply(inv, dropped, kept)
}

// recountPredicted counts inv from scratch after a new prediction: the
// inventory the prediction is for by position, then what changed since.
func (rc *RuleCounts) recountPredicted(inv *mqwatch.Inventory) {
	p := rc.pred
	if p == nil || p.atPos == nil || p.Inv == nil || p.Inv.Len() != len(p.atPos) {
		rc.recount(inv)
		return
	}
	if p.byClass != nil {
		rc.recountByClass(p)
	} else {
		rc.atPos = p.atPos
		rc.recount(p.Inv)
		rc.atPos = nil
	}
	if dropped, kept, ok := inv.Since(p.Inv); ok {
		rc.apply(inv, dropped, kept)
	} else {
		rc.recount(inv)
	}
}

// recount counts inv from scratch.
func (rc *RuleCounts) recount(inv *mqwatch.Inventory) {
	rc.reset(inv)
	for i := 0; i < inv.Len(); i++ {
		c := rc.class(inv, i)
		if c.n == 0 {
			c.first = i
		}
		rc.count(c, inv, i, 1)
	}
}

// recountByClass counts the prediction's inventory from scratch as recount
// does, from the prediction's counts by class: on the update loop, a new
// prediction of a million messages costs a pass over their classes.
func (rc *RuleCounts) recountByClass(p *Prediction) {
	rc.reset(p.Inv)
	for _, cc := range p.byClass { // in the order of their first messages, as recount meets them
		c := rc.class(p.Inv, cc.first)
		if c.n == 0 {
			c.first = cc.first
		}
		c.n += cc.n
		if c.match.Rule < 0 {
			continue
		}
		for _, vc := range cc.verdicts {
			rc.add(c, p.forRule(vc.verdict, c.match.Rule)+1, vc.n)
		}
	}
}

// reset empties the counts to count inv from scratch.
func (rc *RuleCounts) reset(inv *mqwatch.Inventory) {
	rc.Recounts++
	for i := range rc.cls {
		c := &rc.cls[i]
		c.n, c.first, c.stale = 0, -1, false
		clear(c.verdicts)
	}
	rc.idSlot = rc.idSlot[:0]
	rc.inv = inv
}

// apply counts the difference between the counted inventory and inv, which
// holds its messages from dropped to dropped+kept, then new ones.
func (rc *RuleCounts) apply(inv *mqwatch.Inventory, dropped, kept int) {
	prev := rc.inv
	for i := 0; i < dropped; i++ {
		rc.count(rc.class(prev, i), prev, i, -1)
	}
	for i := dropped + kept; i < prev.Len(); i++ {
		rc.count(rc.class(prev, i), prev, i, -1)
	}
	for i := range rc.cls {
		c := &rc.cls[i]
		switch {
		case c.n == 0:
			c.first, c.stale = -1, false
		case c.stale:
		case c.first < dropped || c.first >= dropped+kept:
			c.stale = true
		default:
			c.first -= dropped
		}
	}
	rc.inv = inv
	for i := kept; i < inv.Len(); i++ {
		c := rc.class(inv, i)
		if c.n == 0 {
			c.first = i
		}
		rc.count(c, inv, i, 1)
	}
}

// count adds d (1 or -1) messages: the i-th of inv, of class c.
func (rc *RuleCounts) count(c *ruleClass, inv *mqwatch.Inventory, i, d int) {
	c.n += d
	if rc.pred == nil || c.match.Rule < 0 {
		return
	}
	var v int32
	if rc.atPos != nil {
		v = rc.pred.forRule(rc.atPos[i], c.match.Rule) + 1
	} else {
		v = rc.pred.index(inv.Key(i), c.match.Rule) + 1
	}
	rc.add(c, v, d)
}

// add adds d messages to a class's count of verdict v (its index + 1; 0:
// none).
func (rc *RuleCounts) add(c *ruleClass, v int32, d int) {
	if int(v) >= len(c.verdicts) {
		c.verdicts = append(c.verdicts, make([]int, int(v)+1-len(c.verdicts))...)
	}
	c.verdicts[v] += d
}

// class is the count of the i-th message's class, matched when new.
func (rc *RuleCounts) class(inv *mqwatch.Inventory, i int) *ruleClass {
	id := inv.ClassID(i)
	cls := inv.Class(id)
	if id < len(rc.idSlot) {
		if s := rc.idSlot[id]; s >= 0 && rc.cls[s].cls == cls {
			return &rc.cls[s]
		}
	}
	if rc.byValue == nil {
		rc.byValue = map[mqwatch.Class]int32{}
	}
	s, ok := rc.byValue[*cls]
	if !ok {
		s = int32(len(rc.cls))
		rc.byValue[*cls] = s
		m := rc.tab.MatchSummary(inv.At(i))
		m.Why = "" // not shown per message
		rc.cls = append(rc.cls, ruleClass{match: m, first: -1})
	}
	rc.cls[s].cls = cls
	for len(rc.idSlot) <= id {
		rc.idSlot = append(rc.idSlot, -1)
	}
	rc.idSlot[id] = s
	return &rc.cls[s]
}

// refind finds again the first message of every class whose first went.
func (rc *RuleCounts) refind() {
	left := 0
	for i := range rc.cls {
		if rc.cls[i].stale {
			left++
		}
	}
	for i := 0; left > 0 && i < rc.inv.Len(); i++ {
		if c := rc.class(rc.inv, i); c.stale {
			c.first, c.stale = i, false
			left--
		}
	}
}

// Groups is the match of the counted inventory's groups along dim.
func (rc *RuleCounts) Groups(dim Dim) map[GroupKey]*GroupRule {
	rc.refind()
	keys := rc.keys[dim]
	for s := len(keys); s < len(rc.cls); s++ {
		keys = append(keys, KeyOfClass(dim, rc.cls[s].cls))
	}
	if rc.keys == nil {
		rc.keys = map[Dim][]GroupKey{}
	}
	rc.keys[dim] = keys
	out := map[GroupKey]*GroupRule{}
	for s := range rc.cls {
		c := &rc.cls[s]
		if c.n == 0 {
			continue
		}
		g := out[keys[s]]
		if g == nil {
			g = newGroupRule()
			out[keys[s]] = g
		}
		if at, ok := g.firstAt[c.match.Rule]; !ok || c.first < at {
			g.firstAt[c.match.Rule] = c.first
		}
		if rc.pred == nil || c.match.Rule < 0 {
			g.add(c.match, -1, c.n)
			continue
		}
		for v, k := range c.verdicts {
			if k > 0 {
				g.add(c.match, int32(v-1), k)
			}
		}
	}
	for _, g := range out {
		for rule, at := range g.firstAt {
			g.First[rule] = rc.inv.At(at)
		}
	}
	return out
}
