package dlqrules

import (
	"slices"
	"strings"

	"github.com/poisonwatch/poisonwatch/actions/ops"
	"github.com/poisonwatch/poisonwatch/mqwatch"
)

// batchKey is one engine request: a rule's action to one target.
type batchKey struct {
	rule               int
	op                 ops.Op
	target, targetQMgr string
	putAuth            ops.PutAuthority
}

// batchHead is what places a batch among the others: its request, its
// first message and the queue it puts to.
type batchHead struct {
	key   batchKey
	first int    // the position of its first message
	dest  string // its target, or (RETRY) its first message's MQDLH destination
}

// batch is the messages of one engine request, in queue order.
type batch struct {
	batchHead
	idx  []int // into the scanned messages
	sums []mqwatch.Summary
}

// classification is where each message goes.
type classification struct {
	rule []int      // per message: the rule index that applies, -1 none
	sure []bool     // per message: false when partial facts left it undecided
	res  []Resolved // per message
	// passed: per message, the earlier matching rules that could not act
	// on it (a blank & reference), in the words of Resolved.Skip.
	passed [][]string
	// batches are in table order, as runmqdlq's first-match search would
	// take them, and a rule's batches in queue order of their first message.
	batches []*batch
}

// loopSkip is why a message whose target is the DEADQ itself is left.
const loopSkip = "its target is the DEADQ itself"

// classify applies the table to the messages. skip(i, r) says that rule r
// is no longer tried for message i (its attempts are spent); nil tries all.
func classify(t *Table, msgs []Subject, localQMgr, queue string, skip func(i, r int) bool) *classification {
	c := &classification{rule: make([]int, len(msgs)), sure: make([]bool, len(msgs)), res: make([]Resolved, len(msgs)),
		passed: make([][]string, len(msgs))}
	byKey := map[batchKey]*batch{}
	mt := newMatcher(t)
	last := map[string]*batch{} // per target: the batch that took its last message
	for i := range msgs {
		var skipI func(r int) bool
		if skip != nil {
			skipI = func(r int) bool { return skip(i, r) }
		}
		m, x, passed := resolve(t, mt, &msgs[i].Facts, localQMgr, queue, skipI)
		c.rule[i], c.sure[i], c.passed[i] = m.Rule, m.Certain, passed
		if m.Rule < 0 {
			continue
		}
		c.res[i] = x
		k, dest, ok := requestOf(m, x)
		if !ok {
			continue
		}
		b := byKey[k]
		if x.Op != ops.OpDiscard && b != nil && last[dest] != nil && last[dest] != b {
			b = nil
		}
		if b == nil {
			b = &batch{batchHead: newBatchHead(k, i, msgs[i].Sum.DLHDestQ, msgs[i].Sum.DLHDestQMgr)}
			byKey[k] = b
			c.batches = append(c.batches, b)
		}
		if x.Op != ops.OpDiscard {
			last[dest] = b
		}
		b.idx = append(b.idx, i)
		b.sums = append(b.sums, msgs[i].Sum)
	}
	slices.SortStableFunc(c.batches, func(a, b *batch) int { return tableOrder(a.order(), b.order()) })
	return c
}

// requestOf is the engine request a message's rule and action go in, and
// the queue it puts to; ok is false when no request takes it (IGNORE, an
// action that cannot be taken). Two rules sending to one queue keep the
// DEADQ's order there, as runmqdlq's one message at a time does: a message
// after another rule's message to the same dest starts a request of its
// own (the caller's part).
func requestOf(m Match, x Resolved) (k batchKey, dest string, ok bool) {
	if m.Rule < 0 || x.Op == "" {
		return k, "", false
	}
	k = batchKey{rule: m.Rule, op: x.Op, target: x.Target, targetQMgr: x.TargetQMgr, putAuth: x.PutAuthority}
	if x.Action == Retry {
		k.target, k.targetQMgr = "", "" // the engine's requeue takes the MQDLH's names itself
	}
	return k, x.Target + "@" + x.TargetQMgr, true
}

// newBatchHead is the head of a batch whose first message, at first, has
// the MQDLH destination destQ on destQM.
func newBatchHead(k batchKey, first int, destQ, destQM string) batchHead {
	h := batchHead{key: k, first: first, dest: k.target + "@" + k.targetQMgr}
	if k.target == "" {
		h.dest = destQ + "@" + destQM
	}
	return h
}

// orderKey is what places a batch among the others: its rule, whether it
// discards, the queue it puts to (by name, or by a number standing for
// it) and its first message.
type orderKey[D comparable] struct {
	rule    int
	discard bool
	dest    D
	first   int
}

// tableOrder orders batches as runmqdlq's first-match search takes them:
// by rule, except that batches putting to one queue keep the DEADQ's order.
func tableOrder[D comparable](a, b orderKey[D]) int {
	if !a.discard && !b.discard && a.dest == b.dest {
		return a.first - b.first
	}
	return a.rule - b.rule
}

func (h *batchHead) order() orderKey[string] {
	return orderKey[string]{rule: h.key.rule, discard: h.key.op == ops.OpDiscard, dest: h.dest, first: h.first}
}

// resolve finds the rule that applies to a message and its action; skip(r)
// says that rule r is no longer tried for it (nil tries all). A rule whose
// & reference is blank for the message cannot act on it: like a put that
// fails, that spends the rule's attempts and the next matching rule is
// tried (IBM's example table relies on it), which passed records.
func resolve(t *Table, mt *matcher, f *Facts, localQMgr, queue string, skip func(r int) bool) (m Match, x Resolved, passed []string) {
	m = mt.Match(f)
	for {
		for m.Rule >= 0 && skip != nil && skip(m.Rule) {
			m = t.MatchFrom(f, m.Rule+1)
		}
		if m.Rule < 0 {
			return m, Resolved{}, passed
		}
		x = t.Rules[m.Rule].Resolve(f, localQMgr)
		if x.Op != ops.OpDiscard && x.Op != "" && x.Target == queue && x.TargetQMgr == "" {
			x.Op, x.Skip = "", loopSkip
		}
		next := t.MatchFrom(f, m.Rule+1)
		if x.Skip == "" || x.Skip == loopSkip || next.Rule < 0 || f.Partial {
			return m, x, passed
		}
		passed = append(passed, t.Rules[m.Rule].Name()+": "+x.Skip)
		m = next
	}
}

// left counts the messages no engine request takes: no rule, IGNORE, or
// an action that cannot be taken for them.
func (c *classification) left() int {
	n := len(c.rule)
	for _, b := range c.batches {
		n -= len(b.idx)
	}
	return n
}

// request is the engine request of a batch.
func (b *batch) request(qmgr, queue string) ops.OpRequest {
	return ops.OpRequest{Op: b.key.op, QMgr: qmgr, Queue: queue, Messages: b.sums,
		Target: b.key.target, TargetQMgr: b.key.targetQMgr, PutAuthority: b.key.putAuth}
}

// covers reports whether every message rule a matches also matches rule b
// (a earlier in the table): b is then shadowed, reached only when a's action
// fails. A keyword a leaves out or gives as * covers anything; otherwise b
// must give the same value, or a value a's generic matches.
func covers(a, b *Rule) bool {
	for i := range a.Patterns {
		pa := &a.Patterns[i]
		if pa.Any {
			continue
		}
		j := slices.IndexFunc(b.Patterns, func(p Pattern) bool { return p.Keyword == pa.Keyword })
		if j < 0 || b.Patterns[j].Any {
			return false
		}
		pb := &b.Patterns[j]
		if patternKeywords[pa.Keyword].length == 0 {
			if pa.Num != pb.Num {
				return false
			}
			continue
		}
		if !genericCovers(pa.Value, pb.Value) {
			return false
		}
	}
	return true
}

// genericCovers reports whether every name generic b matches, generic a
// matches too (exactly for names without wildcards; for a trailing-*
// prefix a, when b starts with the prefix).
func genericCovers(a, b string) bool {
	if a == b {
		return true
	}
	if !strings.ContainsAny(b, "*?") {
		return mqwatch.MatchName(a, b)
	}
	pre, ok := strings.CutSuffix(a, "*")
	if !ok || strings.ContainsAny(pre, "*?") {
		return false
	}
	bp := b[:strings.IndexAny(b, "*?")]
	return strings.HasPrefix(bp, pre)
}
