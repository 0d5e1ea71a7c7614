package record

import (
	"maps"
	"slices"

	"github.com/poisonwatch/poisonwatch/mqwatch"
)

// Rebuilder turns poll frames back into the snapshots they were recorded
// from, one queue manager's in order.
type Rebuilder struct {
	qm map[string]*rebuilt
}

type rebuilt struct {
	resync map[string]bool // inventories written in full since the last poll
	seq    uint64
	info   mqwatch.QMgrInfo
	queues map[string]mqwatch.QueueView
	heads  map[string][]mqwatch.Summary
	invs   map[string]*mqwatch.Inventory
}

// NewRebuilder starts from nothing.
func NewRebuilder() *Rebuilder { return &Rebuilder{qm: map[string]*rebuilt{}} }

func (b *Rebuilder) state(qmgr string) *rebuilt {
	st := b.qm[qmgr]
	if st == nil {
		st = &rebuilt{queues: map[string]mqwatch.QueueView{}, heads: map[string][]mqwatch.Summary{}, invs: map[string]*mqwatch.Inventory{},
			resync: map[string]bool{}}
		b.qm[qmgr] = st
	}
	return st
}

// Frame takes any frame and returns the snapshot of a poll frame, nil for
// the others.
func (b *Rebuilder) Frame(fr Frame) *mqwatch.Snapshot {
	switch {
	case fr.Chunk != nil:
		b.Chunk(fr.Chunk)
	case fr.Poll != nil:
		return b.Apply(fr.Poll)
	}
	return nil
}

// Chunk takes part of an inventory written in full; the poll it belongs
// to follows.
func (b *Rebuilder) Chunk(c *Chunk) {
	st := b.state(c.QMgr)
	if c.Inv.Full {
		st.invs[c.Inv.Queue] = nil
		st.resync[c.Inv.Queue] = true
	}
	if c.whole != nil {
		st.invs[c.Inv.Queue] = c.whole
		return
	}
	st.invs[c.Inv.Queue] = st.invs[c.Inv.Queue].Append(c.Inv.list()...)
}

// Apply returns the snapshot p was recorded from.
func (b *Rebuilder) Apply(p *Poll) *mqwatch.Snapshot {
	if p.light {
		panic("record: a light poll replayed: read it whole with Recording.Full")
	}
	st := b.state(p.QMgr)
	st.seq++
	s := &mqwatch.Snapshot{Seq: st.seq, Time: p.Time, QMgrName: p.QMgr, Connected: p.Connected, Stale: p.Stale,
		Err: p.Err.decode(), NextRetry: p.NextRetry, Poll: p.Stats, Heads: map[string][]mqwatch.Summary{},
		Inventories: map[string]*mqwatch.Inventory{}, Deltas: map[string]mqwatch.InventoryDelta{}}
	if p.Info != nil {
		st.info = *p.Info
	}
	for _, q := range p.Queues {
		st.queues[q.Info.Name] = q.decode()
	}
	for _, name := range p.Gone {
		delete(st.queues, name)
	}
	for name, h := range p.Heads {
		st.heads[name] = h
	}
	for _, name := range p.HeadsGone {
		delete(st.heads, name)
	}
	changed := map[string]mqwatch.InventoryDelta{}
	for q := range st.resync {
		changed[q] = mqwatch.InventoryDelta{Resync: true}
		delete(st.resync, q)
	}
	for _, in := range p.Invs {
		changed[in.Queue] = st.applyInv(in)
	}
	s.QMgr = st.info
	for _, v := range st.queues {
		s.Queues = append(s.Queues, v)
	}
	slices.SortFunc(s.Queues, func(x, y mqwatch.QueueView) int {
		if x.Info.Name < y.Info.Name {
			return -1
		}
		if x.Info.Name > y.Info.Name {
			return 1
		}
		return 0
	})
	for name, h := range st.heads {
		s.Heads[name] = h
	}
	for name, inv := range st.invs {
		s.Inventories[name] = inv
		s.Deltas[name] = changed[name] // unchanged: an empty delta
	}
	return s
}

func (st *rebuilt) applyInv(in Inv) mqwatch.InventoryDelta {
	if in.Gone {
		delete(st.invs, in.Queue)
		return mqwatch.InventoryDelta{}
	}
	if in.Full {
		st.invs[in.Queue] = (*mqwatch.Inventory)(nil).Append(in.list()...)
		return mqwatch.InventoryDelta{Resync: true}
	}
	inv := st.invs[in.Queue]
	added := in.list()
	d := mqwatch.InventoryDelta{Added: added}
	if k := headRun(inv, in.Dropped); k == len(in.Dropped) && k > 0 {
		// Messages got from the head (the common case): no copy.
		for i := 0; i < k; i++ {
			d.Dropped = append(d.Dropped, *inv.At(i))
		}
		inv = inv.DropHead(k)
	} else if len(in.Dropped) > 0 {
		drop := make(map[mqwatch.Key]bool, len(in.Dropped))
		for _, k := range in.Dropped {
			drop[k] = true
		}
		inv = inv.Filter(func(s *mqwatch.Summary) bool {
			if drop[s.Key()] {
				d.Dropped = append(d.Dropped, *s)
				return false
			}
			return true
		})
	}
	if len(added) > 0 {
		inv = inv.Append(added...)
	}
	st.invs[in.Queue] = inv
	return d
}

// headRun is how many of the inventory's first messages are, in order,
// the dropped ones.
func headRun(inv *mqwatch.Inventory, dropped []mqwatch.Key) int {
	n := 0
	for n < len(dropped) && n < inv.Len() && inv.Key(n) == dropped[n] {
		n++
	}
	return n
}

// clone is a Rebuilder that goes on from where b is, independently of it:
// the maps are copied, the inventories, heads and queue views they hold
// are never changed once made, so they are shared.
func (b *Rebuilder) clone() *Rebuilder {
	c := &Rebuilder{qm: make(map[string]*rebuilt, len(b.qm))}
	for name, st := range b.qm {
		c.qm[name] = &rebuilt{resync: maps.Clone(st.resync), seq: st.seq, info: st.info, queues: maps.Clone(st.queues),
			heads: maps.Clone(st.heads), invs: maps.Clone(st.invs)}
	}
	return c
}
