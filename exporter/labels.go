package exporter

import (
	"cmp"
	"container/heap"
	"strings"
	"unicode/utf8"

	"github.com/poisonwatch/poisonwatch/model"
)

// maxLabelBytes bounds one label value. IBM MQ names are at most 48
// characters, but a destination read from a message without an MQDLH (a
// JMS destination URI) is as long as its sender made it, and every byte of
// a label value is stored with every sample of its series.
const maxLabelBytes = 128

// Other is the label value that sums the groups past a cardinality cap. It
// holds parentheses, which no IBM MQ name can, so it never reads as a queue.
const Other = "(other)"

// labelValue makes s a label value Prometheus accepts, changing nothing it
// would accept: invalid UTF-8 becomes U+FFFD (client_golang refuses the
// whole metric otherwise), and a value longer than maxLabelBytes is cut at
// a character boundary and marked with "…". Prometheus escapes quotes,
// backslashes and newlines itself, and a label value is data to it, never
// markup, so control characters stay as the queue manager reported them.
func labelValue(s string) string {
	if !utf8.ValidString(s) {
		s = strings.ToValidUTF8(s, "\uFFFD")
	}
	if len(s) <= maxLabelBytes {
		return s
	}
	cut := maxLabelBytes - len("…")
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "…"
}

// counted is one group's size along one DEADQ dimension.
type counted struct {
	key   model.GroupKey
	count int
}

// before orders groups for a cap: larger first, then by key, so the same
// groups survive the cap scrape after scrape while their sizes hold.
func before(a, b counted) bool {
	if a.count != b.count {
		return a.count > b.count
	}
	return cmp.Or(cmp.Compare(a.key.Reason, b.key.Reason), strings.Compare(a.key.DestQ, b.key.DestQ),
		strings.Compare(a.key.DestQMgr, b.key.DestQMgr)) < 0
}

// worstFirst is a heap whose root is the group that leaves the top first.
type worstFirst []counted

func (h worstFirst) Len() int           { return len(h) }
func (h worstFirst) Less(i, j int) bool { return before(h[j], h[i]) }
func (h worstFirst) Swap(i, j int)      { h[i], h[j] = h[j], h[i] }
func (h *worstFirst) Push(x any)        { *h = append(*h, x.(counted)) }
func (h *worstFirst) Pop() any {
	old := *h
	x := old[len(old)-1]
	*h = old[:len(old)-1]
	return x
}

// topN keeps the n largest groups of one dimension, largest first, and says
// how many groups there were and how many messages the rest hold. It costs
// the number of groups times log n: a DEADQ whose messages name 100,000
// different destinations is the case the cap exists for.
func topN(gs *model.GroupSet, d model.Dim, n int) (top []counted, groups, rest int) {
	h := make(worstFirst, 0, n+1)
	gs.EachCount(d, func(k model.GroupKey, c int) {
		groups++
		g := counted{key: k, count: c}
		if len(h) < n {
			heap.Push(&h, g)
			return
		}
		if n > 0 && before(g, h[0]) {
			rest += h[0].count
			h[0] = g
			heap.Fix(&h, 0)
			return
		}
		rest += c
	})
	top = make([]counted, len(h))
	for i := len(h) - 1; i >= 0; i-- {
		top[i] = heap.Pop(&h).(counted)
	}
	return top, groups, rest
}
