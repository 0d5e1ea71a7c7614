package mqwatch

import (
	"context"
)

// invState is the watcher's incremental view of one BOQ or the DEADQ: a handle
// whose mark-browse state says which messages were already read, and the
// inventory built from them.
type invState struct {
	q   Queue
	inv *Inventory
	// read is set once a poll has read the queue: inv is then its
	// inventory (nil when it was empty), else it is being read first.
	read bool
}

// refreshMessages updates inventories of the DEADQ and BOQs, and browses the
// heads of input queues. A connection error aborts; a per-queue error is noted
// on that queue and the poll goes on.
func (p *poller) refreshMessages(ctx context.Context, snap *Snapshot, forget map[string][]Key) error {
	live := map[string]bool{}
	for i := range snap.Queues {
		v := &snap.Queues[i]
		if v.InquireErr != nil {
			p.keepLast(snap, v.Info.Name, live)
			continue
		}
		if !v.HasStatus || v.Info.Type != QLocal {
			continue
		}
		var err error
		switch v.Role {
		case RoleDeadQ, RoleBOQ:
			live[v.Info.Name] = true
			err = p.refreshInventory(ctx, snap, v, forget)
		case RoleInput:
			if v.Status.Depth > 0 {
				live[v.Info.Name] = true
				snap.Heads[v.Info.Name], err = p.browseHead(ctx, v.Info.Name)
			}
		}
		if isConnectionError(err) {
			return err
		}
		if cerr := ctx.Err(); cerr != nil {
			// The poll was given up (the queue manager stopped answering,
			// or the program ends): the calls left would fail alike.
			return cerr
		}
		if err != nil {
			v.Err = err
		}
	}
	for name, st := range p.invs {
		if !live[name] {
			_ = st.q.Close(ctx)
			delete(p.invs, name)
		}
	}
	for name := range p.heads {
		if !live[name] {
			p.closeHead(ctx, name)
		}
	}
	return nil
}

// refreshInventory reads only what is new on a BOQ or the DEADQ (unmarked
// messages), trims what consumers took from the head, and re-reads the whole
// queue only when the counts still disagree. A first read, a re-read and a
// large burst publish partial snapshots as they go (scan.go).
func (p *poller) refreshInventory(ctx context.Context, snap *Snapshot, v *QueueView, forget map[string][]Key) error {
	name := v.Info.Name
	st := p.invs[name]
	if st == nil {
		q, err := p.conn.Open(ctx, ObjectDesc{Name: name}, OpenOptions{Browse: true})
		if err != nil {
			return err
		}
		st = &invState{q: q}
		p.invs[name] = st
	}
	delta := InventoryDelta{Resync: !st.read}
	inv := st.inv
	if keys := forget[name]; len(keys) > 0 {
		inv, delta.Dropped = dropKeys(inv, keys)
	}
	depth := int(v.Status.Depth)
	sc := &scanner{p: p, snap: snap, name: name, depth: depth, pending: &delta}
	inv, err := sc.read(ctx, st.q, inv)
	if err != nil {
		// What was read is marked on the handle but not stored: start over
		// with a fresh handle next poll rather than miss those messages.
		_ = st.q.Close(ctx)
		delete(p.invs, name)
		return err
	}
	consistent := true
	if excess := inv.Len() - depth; excess > 0 {
		before := inv
		var k int
		inv, k, consistent, err = p.trimHead(ctx, st.q, inv, excess)
		if err != nil {
			return err
		}
		droppedHead(&delta, before, k)
	}
	// CURDEPTH was read before the browse, so messages that arrived since may
	// make the inventory longer; more than that means removals from the
	// middle. Fewer than CURDEPTH less uncommitted messages means some were
	// missed. Either is the only case that costs a full read.
	if !consistent || inv.Len()-depth > sc.added || inv.Len() < depth-int(v.Status.Uncommitted) {
		delta = InventoryDelta{Resync: true}
		inv, err = p.resync(ctx, st, sc)
		if err != nil {
			return err
		}
		snap.Poll.Resyncs++
	}
	st.inv, st.read = inv, true
	snap.Inventories[name] = inv
	snap.Deltas[name] = delta
	return nil
}

// maxListed bounds the summaries a delta lists: past it (a consumer drained
// a million messages between two polls) the delta says Resync, and the model
// regroups from the inventory rather than receive them all materialised.
const maxListed = 10_000

// droppedHead records in d that the first k summaries of before left.
func droppedHead(d *InventoryDelta, before *Inventory, k int) {
	if d.Resync || k == 0 {
		return
	}
	if len(d.Dropped)+k > maxListed {
		*d = InventoryDelta{Resync: true}
		return
	}
	for i := 0; i < k; i++ {
		d.Dropped = append(d.Dropped, *before.At(i))
	}
}

// trimHead drops inventory entries that precede the queue's current first
// message: consumers of a BOQ or DEADQ take messages from the head. It drops
// at most excess entries (the inventory is that much longer than CURDEPTH)
// and says how many; a head further in (a higher-priority arrival went to
// the front) is not explained by head removals, and it reports the
// inventory inconsistent.
func (p *poller) trimHead(ctx context.Context, q Queue, inv *Inventory, excess int) (*Inventory, int, bool, error) {
	m, err := q.Browse(ctx, BrowseOptions{First: true, MaxBytes: 1}) // only its identity is needed
	if IsReason(err, 2033) {
		return nil, inv.Len(), true, nil
	}
	if err != nil {
		return inv, 0, true, err
	}
	head := Key{MsgId: m.MD.MsgId, CorrelId: m.MD.CorrelId}
	for i := 0; i < inv.Len() && i <= excess; i++ {
		if inv.Key(i) == head {
			return inv.DropHead(i), i, true, nil
		}
	}
	return inv, 0, false, nil
}

// resync rebuilds an inventory from a fresh handle (fresh marks).
func (p *poller) resync(ctx context.Context, st *invState, sc *scanner) (*Inventory, error) {
	name := st.q.Name()
	_ = st.q.Close(ctx)
	q, err := p.conn.Open(ctx, ObjectDesc{Name: name}, OpenOptions{Browse: true})
	if err != nil {
		return nil, err
	}
	st.q = q
	return sc.read(ctx, q, nil)
}

func dropKeys(inv *Inventory, keys []Key) (*Inventory, []Summary) {
	set := make(map[Key]bool, len(keys))
	for _, k := range keys {
		set[k] = true
	}
	var gone []Summary
	kept := inv.Filter(func(s *Summary) bool {
		if set[s.Key()] {
			gone = append(gone, *s)
			return false
		}
		return true
	})
	if len(gone) == 0 {
		return inv, nil
	}
	return kept, gone
}

// browseHead reads the first message of an input queue and, when it has been
// backed out before, the next HeadDepth-1 too: poison sits at the head. The
// browse handle stays open between polls while the queue has messages, so a
// steady poll costs one call per such queue, not three.
func (p *poller) browseHead(ctx context.Context, name string) ([]Summary, error) {
	q := p.heads[name]
	if q == nil {
		var err error
		q, err = p.conn.Open(ctx, ObjectDesc{Name: name}, OpenOptions{Browse: true})
		if err != nil {
			return nil, err
		}
		p.heads[name] = q
	}
	var out []Summary
	opts := BrowseOptions{First: true, MaxBytes: p.cfg.BodyBytes}
	for len(out) < p.cfg.HeadDepth {
		m, err := q.Browse(ctx, opts)
		if IsReason(err, 2033) {
			break
		}
		if err != nil {
			p.closeHead(ctx, name)
			return out, err
		}
		out = append(out, p.summarize(name, &m))
		if len(out) == 1 && m.MD.BackoutCount == 0 {
			break
		}
		opts.First = false
	}
	return out, nil
}

func (p *poller) closeHead(ctx context.Context, name string) {
	if q := p.heads[name]; q != nil {
		_ = q.Close(ctx)
		delete(p.heads, name)
	}
}

// browseFocus reads the first FocusDepth messages of the queue the operator has
// open and who has it open.
func (p *poller) browseFocus(ctx context.Context, name string, messages bool) *FocusView {
	f := &FocusView{Queue: name}
	if !messages {
		f.Handles, f.Err = p.conn.Handles(ctx, name)
		return f
	}
	q, err := p.conn.Open(ctx, ObjectDesc{Name: name}, OpenOptions{Browse: true})
	if err != nil {
		f.Err = err
		return f
	}
	defer q.Close(ctx)
	opts := BrowseOptions{First: true, MaxBytes: p.cfg.BodyBytes}
	for {
		m, err := q.Browse(ctx, opts)
		if IsReason(err, 2033) {
			break
		}
		if err != nil {
			f.Err = err
			return f
		}
		if len(f.Messages) == p.cfg.FocusDepth {
			f.More = true
			break
		}
		f.Messages = append(f.Messages, p.summarize(name, &m))
		opts.First = false
	}
	f.Handles, f.Err = p.conn.Handles(ctx, name)
	return f
}
