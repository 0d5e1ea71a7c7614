package model

import (
	"sort"
	"strings"
	"time"

	"github.com/poisonwatch/poisonwatch/mqwatch"
)

// Dim is a way of grouping the messages of a BOQ or the DEADQ.
type Dim int

// Grouping dimensions. DimReasonDest is the triage default for a DEADQ: what
// went wrong and where the message was going ("2085 → INVOICE.IN (QM2)").
const (
	DimReasonDest Dim = iota
	DimReason
	DimDest
	DimAppl
	DimSource // BOQ: the input queue a message came from (JMS destination)
	DimType   // BOQ: JMS type / format
	numDims
)

func (d Dim) String() string {
	return [...]string{"reason+destination", "reason", "destination", "putting application", "source queue", "type"}[d]
}

// GroupKey identifies a group; fields that are not part of the dimension are empty.
type GroupKey struct {
	Reason   int32
	DestQ    string
	DestQMgr string
	Appl     string
	Source   string
	Type     string
}

// Group is a set of messages sharing a key, with counts and ages for triage.
type Group struct {
	Key            GroupKey
	Count          int
	Oldest, Newest time.Time
	// Spark is how many messages of the group arrived in each recent poll.
	Spark *Ring
	added int
}

// GroupSet groups one inventory along every dimension.
type GroupSet struct {
	Queue  string
	IsDLQ  bool
	groups [numDims]map[GroupKey]*Group
	// inv is the inventory the groups describe; staleAge marks dimensions
	// whose age ranges a removal may have narrowed: they are rescanned when
	// read, not on every fold (consumers draining the head would otherwise
	// regroup a 100k DEADQ every poll).
	inv      *mqwatch.Inventory
	staleAge [numDims]bool
}

func keyFor(d Dim, s *mqwatch.Summary) GroupKey {
	switch d {
	case DimReasonDest:
		return GroupKey{Reason: s.DLHReason, DestQ: s.DLHDestQ, DestQMgr: s.DLHDestQMgr}
	case DimReason:
		return GroupKey{Reason: s.DLHReason}
	case DimDest:
		return GroupKey{DestQ: s.DLHDestQ, DestQMgr: s.DLHDestQMgr}
	case DimAppl:
		appl := s.DLHPutAppl
		if appl == "" {
			appl = s.PutApplName
		}
		return GroupKey{Appl: appl}
	case DimSource:
		return GroupKey{Source: jmsQueueName(s.JMSDst)}
	case DimType:
		t := s.JMSType
		if t == "" {
			t = s.BodyFormat
		}
		return GroupKey{Type: t}
	}
	return GroupKey{}
}

// jmsQueueName turns "queue:///ORDERS.IN?x=y" or "queue://QM1/ORDERS.IN" into "ORDERS.IN".
func jmsQueueName(dst string) string {
	d := strings.TrimPrefix(dst, "queue://")
	if i := strings.IndexByte(d, '/'); i >= 0 {
		d = d[i+1:]
	}
	if i := strings.IndexByte(d, '?'); i >= 0 {
		d = d[:i]
	}
	return d
}

// BuildGroups groups a whole inventory.
func BuildGroups(queue string, isDLQ bool, inv *mqwatch.Inventory) *GroupSet {
	gs := &GroupSet{Queue: queue, IsDLQ: isDLQ, inv: inv}
	for d := range gs.groups {
		gs.groups[d] = map[GroupKey]*Group{}
	}
	inv.Each(func(_ int, s *mqwatch.Summary) bool { gs.add(s, false); return true })
	return gs
}

func (gs *GroupSet) add(s *mqwatch.Summary, fresh bool) {
	for d := range gs.groups {
		k := keyFor(Dim(d), s)
		g := gs.groups[d][k]
		if g == nil {
			g = &Group{Key: k, Spark: NewRing(30)}
			gs.groups[d][k] = g
		}
		g.Count++
		if fresh {
			g.added++
		}
		if !s.PutTime.IsZero() {
			if g.Oldest.IsZero() || s.PutTime.Before(g.Oldest) {
				g.Oldest = s.PutTime
			}
			if s.PutTime.After(g.Newest) {
				g.Newest = s.PutTime
			}
		}
	}
}

func (gs *GroupSet) remove(s *mqwatch.Summary) {
	for d := range gs.groups {
		k := keyFor(Dim(d), s)
		g := gs.groups[d][k]
		if g == nil {
			continue
		}
		g.Count--
		if g.Count <= 0 {
			delete(gs.groups[d], k)
			continue
		}
		if s.PutTime.Equal(g.Oldest) || s.PutTime.Equal(g.Newest) {
			gs.staleAge[d] = true
		}
	}
}

// apply folds one poll's delta and records each group's arrivals for its sparkline.
func (gs *GroupSet) apply(d mqwatch.InventoryDelta, inv *mqwatch.Inventory, now time.Time) {
	gs.inv = inv
	for i := range d.Dropped {
		gs.remove(&d.Dropped[i])
	}
	for i := range d.Added {
		gs.add(&d.Added[i], true)
	}
	gs.tick(now)
}

func (gs *GroupSet) tick(now time.Time) {
	for d := range gs.groups {
		for _, g := range gs.groups[d] {
			g.Spark.Add(now, float64(g.added))
			g.added = 0
		}
	}
}

// Groups returns the groups of one dimension, largest first, ties by key so
// the order is stable between polls.
func (gs *GroupSet) Groups(d Dim) []*Group {
	if gs.staleAge[d] {
		gs.rescanAges(d)
	}
	out := make([]*Group, 0, len(gs.groups[d]))
	for _, g := range gs.groups[d] {
		out = append(out, g)
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Count != out[j].Count {
			return out[i].Count > out[j].Count
		}
		return lessKey(out[i].Key, out[j].Key)
	})
	return out
}

func lessKey(a, b GroupKey) bool {
	if a.Reason != b.Reason {
		return a.Reason < b.Reason
	}
	return strings.Join([]string{a.DestQ, a.DestQMgr, a.Appl, a.Source, a.Type}, "\x00") <
		strings.Join([]string{b.DestQ, b.DestQMgr, b.Appl, b.Source, b.Type}, "\x00")
}

// Matches reports whether a summary belongs to the group of dimension d.
func (g *Group) Matches(d Dim, s *mqwatch.Summary) bool { return keyFor(d, s) == g.Key }

// KeyOf returns the group key of a summary along dimension d.
func KeyOf(d Dim, s *mqwatch.Summary) GroupKey { return keyFor(d, s) }

// DLQDims are the groupings offered for a dead-letter queue, BOQDims for a
// backout queue.
var (
	DLQDims = []Dim{DimReasonDest, DimReason, DimDest, DimAppl}
	BOQDims = []Dim{DimSource, DimType, DimAppl}
)

// rescanAges recomputes the age range of every group of one dimension in one
// pass over the inventory.
func (gs *GroupSet) rescanAges(d Dim) {
	for _, g := range gs.groups[d] {
		g.Oldest, g.Newest = time.Time{}, time.Time{}
	}
	gs.inv.Each(func(_ int, s *mqwatch.Summary) bool {
		if s.PutTime.IsZero() {
			return true
		}
		if g := gs.groups[d][keyFor(d, s)]; g != nil {
			if g.Oldest.IsZero() || s.PutTime.Before(g.Oldest) {
				g.Oldest = s.PutTime
			}
			if s.PutTime.After(g.Newest) {
				g.Newest = s.PutTime
			}
		}
		return true
	})
	gs.staleAge[d] = false
}
