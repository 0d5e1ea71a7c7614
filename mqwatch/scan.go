package mqwatch

import (
	"context"
	"maps"
	"slices"
	"time"
)

// ScanProgress is set on a partial snapshot: one published while a poll is
// still reading an inventory, so that the first read of a million-message
// DEADQ shows its groups growing instead of nothing for minutes.
type ScanProgress struct {
	Queue   string // the queue being read; Inventories[Queue] is what was read so far
	Scanned int    // messages in that inventory so far
	Depth   int    // the queue's CURDEPTH when the poll began
}

// readBatch is how many summaries are appended to an inventory at a time:
// a long read never holds more than this many whole summaries.
const readBatch = 1024

// scanner reads the unmarked messages of one BOQ or the DEADQ into its
// inventory, publishing a partial snapshot every ScanEvery messages or
// ScanInterval, whichever comes first.
type scanner struct {
	p     *poller
	snap  *Snapshot // the poll's snapshot, as far as it has got
	name  string
	depth int
	// pending is what changed since the last published snapshot. While it
	// says Resync (a first read, a re-read) it lists nothing: the partial
	// inventories are regrouped whole.
	pending *InventoryDelta
	added   int // messages read by this poll
	since   int // messages read since the last partial snapshot
}

// read appends every unmarked message to inv, until none is left.
func (sc *scanner) read(ctx context.Context, q Queue, inv *Inventory) (*Inventory, error) {
	p := sc.p
	var batch []Summary // grows as needed: most polls read a few messages a queue
	flush := func() {
		inv = inv.Append(batch...)
		if !sc.pending.Resync {
			sc.pending.Added = append(sc.pending.Added, batch...)
		}
		batch = batch[:0]
	}
	for {
		m, err := q.Browse(ctx, BrowseOptions{First: true, Unmarked: true, MaxBytes: p.cfg.BodyBytes})
		if IsReason(err, 2033) {
			flush()
			return inv, nil
		}
		if err != nil {
			return inv, err
		}
		batch = append(batch, p.summarize(sc.name, &m))
		sc.added++
		sc.since++
		if len(batch) == readBatch {
			flush()
		}
		// A poll the watcher gave up (a call past its deadline) publishes
		// nothing more.
		if p.partialDue(sc.since) && ctx.Err() == nil {
			flush()
			sc.publish(inv)
		}
	}
}

// publish sends a partial snapshot with the inventory read so far.
func (sc *scanner) publish(inv *Inventory) {
	s := sc.p.partial(sc.snap)
	s.Inventories[sc.name] = inv
	s.Deltas[sc.name] = *sc.pending
	*sc.pending = InventoryDelta{Resync: sc.pending.Resync}
	s.Scan = &ScanProgress{Queue: sc.name, Scanned: inv.Len(), Depth: sc.depth}
	sc.since = 0
	sc.p.emit(s)
}

// partialDue says whether a read that has read n messages since the last
// snapshot should publish one now. The interval only counts once a read is
// long (minPartial messages): a poll of a few hundred messages over a slow
// link is not worth a partial snapshot.
func (p *poller) partialDue(n int) bool {
	if p.publish == nil || n < min(minPartial, p.cfg.ScanEvery) {
		return false
	}
	return n >= p.cfg.ScanEvery || p.cfg.Now().Sub(p.lastPub) >= p.cfg.ScanInterval
}

// minPartial is the fewest messages read between two partial snapshots.
const minPartial = 1000

// partial is a snapshot of what the poll knows now: this poll's queue
// views, every inventory as last read (the one being read is the caller's
// to set), and the deltas of the inventories this poll finished since the
// last snapshot published, which are then published: the poll's own
// snapshot will not repeat them. Heads and focus not read yet are the last
// poll's.
func (p *poller) partial(snap *Snapshot) *Snapshot {
	s := &Snapshot{QMgrName: snap.QMgrName, QMgr: snap.QMgr, Connected: true,
		Queues: slices.Clone(snap.Queues), ObjectErrs: snap.ObjectErrs,
		Inventories: make(map[string]*Inventory, len(p.invs)), Deltas: make(map[string]InventoryDelta, len(p.invs)),
		Heads: map[string][]Summary{}}
	for name, st := range p.invs {
		if st.read {
			s.Inventories[name], s.Deltas[name] = st.inv, InventoryDelta{}
		}
	}
	for name, d := range snap.Deltas {
		s.Deltas[name] = d
		snap.Deltas[name] = InventoryDelta{}
	}
	if p.last != nil {
		maps.Copy(s.Heads, p.last.Heads)
		s.Focus = p.last.Focus
	}
	maps.Copy(s.Heads, snap.Heads)
	return s
}

// emit numbers and publishes a partial snapshot.
func (p *poller) emit(s *Snapshot) {
	now := p.cfg.Now()
	p.seq++
	s.Seq, s.Time = p.seq, p.start
	s.Poll = PollStats{Duration: now.Sub(p.start), Calls: p.cnt.calls, Bytes: p.cnt.bytes}
	p.lastPub = now
	p.publish(s)
}

// Partial reports whether the snapshot was published part way through a
// poll (Scan says how far).
func (s *Snapshot) Partial() bool { return s.Scan != nil }

// scanDefaults are the partial-snapshot settings a WatchConfig leaves zero.
const (
	defaultScanEvery    = 20_000
	defaultScanInterval = time.Second
)
