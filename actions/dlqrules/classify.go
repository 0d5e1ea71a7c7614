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

// batch is the messages of one engine request, in queue order.
type batch struct {
	key  batchKey
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
		m, x := c.resolve(t, mt, &msgs[i].Facts, i, localQMgr, queue, skip)
		c.rule[i], c.sure[i] = m.Rule, m.Certain
		if m.Rule < 0 {
			continue
		}
		c.res[i] = x
		if x.Op == "" {
			continue
		}
		k := batchKey{rule: m.Rule, op: x.Op, target: x.Target, targetQMgr: x.TargetQMgr, putAuth: x.PutAuthority}
		if x.Action == Retry {
			k.target, k.targetQMgr = "", "" // the engine's requeue takes the MQDLH's names itself
		}
		// Two rules sending to one queue keep the DEADQ's order there, as
		// runmqdlq's one message at a time does: a message after another
		// rule's message to the same target starts a request of its own.
		dest := x.Target + "@" + x.TargetQMgr
		b := byKey[k]
		if x.Op != ops.OpDiscard && b != nil && last[dest] != nil && last[dest] != b {
			b = nil
		}
		if b == nil {
			b = &batch{key: k}
			byKey[k] = b
			c.batches = append(c.batches, b)
		}
		if x.Op != ops.OpDiscard {
			last[dest] = b
		}
		b.idx = append(b.idx, i)
		b.sums = append(b.sums, msgs[i].Sum)
	}
	slices.SortStableFunc(c.batches, func(a, b *batch) int {
		if a.sameTarget(b) {
			return a.idx[0] - b.idx[0]
		}
		return a.key.rule - b.key.rule
	})
	return c
}

// resolve finds the rule that applies to message i and its action. A rule
// whose & reference is blank for the message cannot act on it: like a put
// that fails, that spends the rule's attempts and the next matching rule is
// tried (IBM's example table relies on it), which passed records.
func (c *classification) resolve(t *Table, mt *matcher, f *Facts, i int, localQMgr, queue string, skip func(i, r int) bool) (Match, Resolved) {
	m := mt.Match(f)
	for {
		for m.Rule >= 0 && skip != nil && skip(i, m.Rule) {
			m = t.MatchFrom(f, m.Rule+1)
		}
		if m.Rule < 0 {
			return m, Resolved{}
		}
		x := t.Rules[m.Rule].Resolve(f, localQMgr)
		if x.Op != ops.OpDiscard && x.Op != "" && x.Target == queue && x.TargetQMgr == "" {
			x.Op, x.Skip = "", loopSkip
		}
		next := t.MatchFrom(f, m.Rule+1)
		if x.Skip == "" || x.Skip == loopSkip || next.Rule < 0 || f.Partial {
			return m, x
		}
		c.passed[i] = append(c.passed[i], t.Rules[m.Rule].Name()+": "+x.Skip)
		m = next
	}
}

// sameTarget reports whether two batches put to the same queue.
func (b *batch) sameTarget(o *batch) bool {
	if b.key.op == ops.OpDiscard || o.key.op == ops.OpDiscard || len(b.idx) == 0 || len(o.idx) == 0 {
		return false
	}
	return b.dest() == o.dest()
}

func (b *batch) dest() string {
	if b.key.target == "" && len(b.sums) > 0 {
		return b.sums[0].DLHDestQ + "@" + b.sums[0].DLHDestQMgr
	}
	return b.key.target + "@" + b.key.targetQMgr
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
