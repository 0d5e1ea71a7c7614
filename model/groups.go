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
	// Spark counts the group's arrivals per SparkBucket: each past bucket
	// that had any, at its start (Arrivals lays them out, empty buckets as
	// 0); the bucket being counted is bucketAt and bucketN until a poll in
	// the next one ends it.
	Spark    *Ring
	added    int
	bucketAt time.Time
	bucketN  float64
}

// SparkBucket is how long one bar of a group's ARRIVALS sparkline counts,
// and SparkBuckets how many bars it has: the last quarter of an hour, so a
// burst is still in view when someone opens the triage minutes after it (a
// bar per poll read "max 0" half a minute later).
const (
	SparkBucket  = time.Minute
	SparkBuckets = 15
)

// count ends a poll for g's sparkline: what arrived since the last poll
// goes into now's bucket, and a bucket that ended is kept.
func (g *Group) count(now time.Time) {
	if b := now.Truncate(SparkBucket); !b.Equal(g.bucketAt) {
		if g.bucketN > 0 {
			g.Spark.Add(g.bucketAt, g.bucketN)
		}
		g.bucketAt, g.bucketN = b, 0
	}
	g.bucketN += float64(g.added)
	g.added = 0
}

// Arrivals is how many of the group's messages arrived in each of the
// last SparkBuckets buckets up to now's, oldest first; the last is the
// bucket still being counted.
func (g *Group) Arrivals(now time.Time) []float64 {
	out := make([]float64, SparkBuckets)
	end := now.Truncate(SparkBucket)
	put := func(at time.Time, v float64) {
		if i := SparkBuckets - 1 - int(end.Sub(at)/SparkBucket); i >= 0 && i < SparkBuckets && !at.After(end) {
			out[i] += v
		}
	}
	for i := 0; i < g.Spark.Len(); i++ {
		p := g.Spark.At(i)
		put(p.T, p.V)
	}
	if g.bucketN > 0 {
		put(g.bucketAt, g.bucketN)
	}
	return out
}

// GroupSet groups one inventory along every dimension.
type GroupSet struct {
	Queue  string
	IsDLQ  bool
	groups [numDims]map[GroupKey]*Group
	ages   ageIndex // the age rescans read only what changed since the last
	// inv is the inventory the groups describe; staleAge marks dimensions
	// whose age ranges a removal may have narrowed: they are rescanned when
	// read, not on every fold (consumers draining the head would otherwise
	// regroup a 100k DEADQ every poll).
	inv      *mqwatch.Inventory
	staleAge [numDims]bool
	// seen is the highest arrival number (mqwatch.Summary.Arrival) the
	// groups have counted: a rebuild after a gap counts what came after
	// it as arrivals (fold_rebuild.go).
	seen uint64
}

// OwnReplyAppl labels the group of this tool's own dead-lettered PCF
// replies (mqwatch.IsToolReply), so they never read as an application's.
const OwnReplyAppl = "poisonwatch's own PCF reply, not incident data"

// fullKey is a summary's key along every dimension at once; keyFor projects
// it, so grouping a whole inventory costs one map lookup per message.
func fullKey(s *mqwatch.Summary) GroupKey {
	c := s.Class()
	return fullKeyOf(&c)
}

// fullKeyOf is fullKey for the messages of a class: a group key is made only
// of what a class holds, so an inventory is grouped class by class.
func fullKeyOf(c *mqwatch.Class) GroupKey {
	src := jmsQueueName(c.JMSDst)
	k := GroupKey{Reason: c.DLHReason, DestQ: destQ(c, src), DestQMgr: c.DLHDestQMgr,
		Appl: c.DLHPutAppl, Source: src, Type: c.JMSType}
	if k.Appl == "" {
		k.Appl = c.PutApplName
	}
	if c.ToolReply {
		// A PCF reply to this tool that outlived its reply queue is not
		// incident data: it groups apart, labelled as what it is.
		k.Appl, k.Type = OwnReplyAppl, "PCF reply"
	}
	if k.Type == "" {
		k.Type = c.BodyFormat
	}
	return k
}

// destQ is where a requeue sends a message: its MQDLH's DestQName, or, for a
// message without one (a JMS consumer moved it to a DEADQ that is also a
// BOQ, R5), the input queue its JMS destination names, as for a BOQ message.
func destQ(c *mqwatch.Class, src string) string {
	if c.HasDLH {
		return c.DLHDestQ
	}
	return src
}

// project keeps the fields of a full key that dimension d groups by.
func project(d Dim, k GroupKey) GroupKey {
	switch d {
	case DimReasonDest:
		return GroupKey{Reason: k.Reason, DestQ: k.DestQ, DestQMgr: k.DestQMgr}
	case DimReason:
		return GroupKey{Reason: k.Reason}
	case DimDest:
		return GroupKey{DestQ: k.DestQ, DestQMgr: k.DestQMgr}
	case DimAppl:
		return GroupKey{Appl: k.Appl}
	case DimSource:
		return GroupKey{Source: k.Source}
	case DimType:
		return GroupKey{Type: k.Type}
	}
	return GroupKey{}
}

func keyFor(d Dim, s *mqwatch.Summary) GroupKey { return project(d, fullKey(s)) }

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

// BuildGroups groups a whole inventory: one pass counting each class's
// messages and age range, then the classes rolled up into every dimension's
// groups. A million messages are a million slice increments, not a million
// map lookups.
func BuildGroups(queue string, isDLQ bool, inv *mqwatch.Inventory) *GroupSet {
	gs := &GroupSet{Queue: queue, IsDLQ: isDLQ, inv: inv, seen: lastArrival(inv)}
	for d := range gs.groups {
		gs.groups[d] = map[GroupKey]*Group{}
	}
	full := map[GroupKey]*Group{}
	for id, t := range gs.ages.build(inv) {
		if t.Count == 0 {
			continue
		}
		k := fullKeyOf(inv.Class(id))
		g := full[k]
		if g == nil {
			g = &Group{Key: k}
			full[k] = g
		}
		g.Count += t.Count
		widen(g, t.Oldest)
		widen(g, t.Newest)
	}
	for k, f := range full {
		for d := range gs.groups {
			pk := project(Dim(d), k)
			g := gs.groups[d][pk]
			if g == nil {
				g = &Group{Key: pk, Spark: NewRing(SparkBuckets)}
				gs.groups[d][pk] = g
			}
			g.Count += f.Count
			widen(g, f.Oldest)
			widen(g, f.Newest)
		}
	}
	return gs
}

// widen extends a group's age range to include t (zero t: unknown put time).
func widen(g *Group, t time.Time) {
	if t.IsZero() {
		return
	}
	if g.Oldest.IsZero() || t.Before(g.Oldest) {
		g.Oldest = t
	}
	if t.After(g.Newest) {
		g.Newest = t
	}
}

func (gs *GroupSet) add(s *mqwatch.Summary, fresh bool) {
	fk := fullKey(s)
	for d := range gs.groups {
		k := project(Dim(d), fk)
		g := gs.groups[d][k]
		if g == nil {
			g = &Group{Key: k, Spark: NewRing(SparkBuckets)}
			gs.groups[d][k] = g
		}
		g.Count++
		if fresh {
			g.added++
		}
		widen(g, s.QueuedAt())
	}
}

func (gs *GroupSet) remove(s *mqwatch.Summary) {
	fk := fullKey(s)
	for d := range gs.groups {
		k := project(Dim(d), fk)
		g := gs.groups[d][k]
		if g == nil {
			continue
		}
		g.Count--
		if g.Count <= 0 {
			delete(gs.groups[d], k)
			continue
		}
		if t := s.QueuedAt(); t.Equal(g.Oldest) || t.Equal(g.Newest) {
			gs.staleAge[d] = true
		}
	}
}

// apply folds one poll's delta and records each group's arrivals for its sparkline.
func (gs *GroupSet) apply(d mqwatch.InventoryDelta, inv *mqwatch.Inventory, now time.Time, record bool) {
	gs.inv = inv
	for i := range d.Dropped {
		gs.remove(&d.Dropped[i])
	}
	for i := range d.Added {
		gs.add(&d.Added[i], true)
	}
	gs.seen = max(gs.seen, lastArrival(inv))
	gs.tick(now, record)
}

// tick ends a poll for the sparklines; a partial snapshot's arrivals wait
// for the poll's own (record false).
func (gs *GroupSet) tick(now time.Time, record bool) {
	if !record {
		return
	}
	for d := range gs.groups {
		for _, g := range gs.groups[d] {
			g.count(now)
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
		// On a DEADQ, messages without an MQDLH (reason 0) are listed
		// last, apart: they need another treatment (R8g).
		if ni, nj := gs.IsDLQ && out[i].Key.Reason == 0, gs.IsDLQ && out[j].Key.Reason == 0; ni != nj {
			return nj
		}
		if out[i].Count != out[j].Count {
			return out[i].Count > out[j].Count
		}
		return lessKey(out[i].Key, out[j].Key)
	})
	return out
}

// oldest is the QueuedAt of the set's oldest message (zero: none has a
// time), read from the groups' age ranges, rescanned first if a removal
// may have narrowed them.
func (gs *GroupSet) oldest() time.Time {
	if gs == nil {
		return time.Time{}
	}
	if gs.staleAge[DimReasonDest] {
		gs.rescanAges(DimReasonDest)
	}
	var o time.Time
	for _, g := range gs.groups[DimReasonDest] {
		if !g.Oldest.IsZero() && (o.IsZero() || g.Oldest.Before(o)) {
			o = g.Oldest
		}
	}
	return o
}

func lessKey(a, b GroupKey) bool {
	if a.Reason != b.Reason {
		return a.Reason < b.Reason
	}
	return strings.Join([]string{a.DestQ, a.DestQMgr, a.Appl, a.Source, a.Type}, "\x00") <
		strings.Join([]string{b.DestQ, b.DestQMgr, b.Appl, b.Source, b.Type}, "\x00")
}

// DLQDims are the groupings offered for a dead-letter queue, BOQDims for a
// backout queue.
var (
	DLQDims = []Dim{DimReasonDest, DimReason, DimDest, DimAppl}
	BOQDims = []Dim{DimSource, DimType, DimAppl}
)

// rescanAges recomputes the age range of every group of the dimensions
// whose ages went stale (the one asked for among them) in one pass over the
// inventory.
func (gs *GroupSet) rescanAges(Dim) {
	// One pass serves every grouping whose ages went stale: a drain at the
	// head stales them all at once, and each pass reads every message.
	tally := gs.ages.tally(gs.inv)
	for d := range gs.groups {
		if gs.staleAge[d] {
			gs.rescanDim(Dim(d), tally)
		}
	}
}

func (gs *GroupSet) rescanDim(d Dim, tally []ClassTally) {
	for _, g := range gs.groups[d] {
		g.Oldest, g.Newest = time.Time{}, time.Time{}
	}
	for id, t := range tally {
		if t.Count == 0 {
			continue
		}
		if g := gs.groups[d][project(d, fullKeyOf(gs.inv.Class(id)))]; g != nil {
			widen(g, t.Oldest)
			widen(g, t.Newest)
		}
	}
	gs.staleAge[d] = false
}
