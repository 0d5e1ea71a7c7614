package mqwatch

import (
	"context"
	"errors"
	"sort"
	"time"
)

// poller does the work of one watcher: it holds the connection, the browse
// handles that carry mark-browse state, and the inventories between polls.
type poller struct {
	cfg      WatchConfig
	conn     Conn
	cnt      counter
	seq      uint64
	last     *Snapshot
	invs     map[string]*invState
	heads    map[string]Queue  // open browse handles on input queues with messages
	arrivals map[string]uint64 // the last arrival number given, by queue
	strs     interner
	watch    callWatch // the call in flight, for the watcher's deadline
	// publish sends a partial snapshot (nil: none are sent); start is when
	// the poll began, lastPub when a snapshot was last published.
	publish        func(*Snapshot)
	start, lastPub time.Time
}

func newPoller(cfg WatchConfig) *poller {
	return &poller{cfg: cfg, invs: map[string]*invState{}, heads: map[string]Queue{}, arrivals: map[string]uint64{}}
}

func (p *poller) close() {
	if p.conn != nil {
		_ = p.conn.Close()
		p.conn = nil
	}
}

// poll produces the next snapshot. A connection-level failure yields a
// snapshot that carries the last good figures, marked stale, with the error.
func (p *poller) poll(ctx context.Context, focus string, forget map[string][]Key) *Snapshot {
	start := p.cfg.Now()
	p.start, p.lastPub = start, start
	p.cnt = counter{}
	snap, err := p.pollConnected(ctx, focus, forget)
	if err != nil {
		snap = p.failed(err)
	}
	p.seq++ // after the partial snapshots this poll published
	snap.Seq, snap.Time = p.seq, start
	snap.Poll.Duration = p.cfg.Now().Sub(start)
	snap.Poll.Calls, snap.Poll.Bytes = p.cnt.calls, p.cnt.bytes
	if snap.Connected {
		p.last = snap
	}
	return snap
}

func (p *poller) pollConnected(ctx context.Context, focus string, forget map[string][]Key) (*Snapshot, error) {
	if p.conn == nil {
		p.watch.begin("MQCONNX")
		c, err := p.cfg.Connector.Connect(ctx, p.cfg.Connect)
		p.watch.end()
		if err != nil {
			return nil, err
		}
		p.conn = countingConn{Conn: c, c: &p.cnt, w: &p.watch}
		p.invs = map[string]*invState{} // marks lived on the old handles
		p.heads = map[string]Queue{}
	}
	qm, err := p.conn.QMgr(ctx)
	if err != nil {
		return nil, p.drop(err)
	}
	infos, err := p.conn.Queues(ctx, "*")
	infoFails, err := SplitPartial(err)
	if err != nil {
		return nil, p.drop(err)
	}
	stats, err := p.conn.QueueStatus(ctx, "*")
	statFails, err := SplitPartial(err)
	if err != nil {
		return nil, p.drop(err)
	}
	snap := &Snapshot{QMgrName: qm.Name, QMgr: qm, Connected: true,
		Inventories: map[string]*Inventory{}, Deltas: map[string]InventoryDelta{}, Heads: map[string][]Summary{}}
	snap.Queues = p.views(qm, infos, stats)
	p.objectFailures(snap, append(infoFails, statFails...))
	if err := p.refreshMessages(ctx, snap, forget); err != nil {
		return nil, p.drop(err)
	}
	if focus != "" {
		_, inventoried := snap.Inventories[focus] // its messages are there already: only who has it open
		snap.Focus = p.browseFocus(ctx, focus, !inventoried)
		if isConnectionError(snap.Focus.Err) {
			return nil, p.drop(snap.Focus.Err)
		}
		if err := ctx.Err(); err != nil {
			return nil, err
		}
	}
	return snap, nil
}

// drop forgets a connection that failed in a way a reconnect may cure.
func (p *poller) drop(err error) error {
	if isConnectionError(err) {
		_ = p.conn.Close()
		p.conn = nil
	}
	return err
}

func isConnectionError(err error) bool { return ConnectionLost(ReasonOf(err)) }

func (p *poller) failed(err error) *Snapshot {
	snap := &Snapshot{QMgrName: p.cfg.Name, Err: err, Stale: p.last != nil}
	if p.last != nil {
		last := *p.last
		last.Connected, last.Stale, last.Err = false, true, err
		last.Deltas = nil
		last.Poll = PollStats{}
		snap = &last
	}
	if errors.Is(err, context.Canceled) {
		snap.Err = err
	}
	return snap
}

// views joins attributes with status, keeps the selected queues and assigns
// each its role. Sorted by name so rows never jump between polls.
func (p *poller) views(qm QMgrInfo, infos []QueueInfo, stats []QueueStatus) []QueueView {
	byName := make(map[string]QueueStatus, len(stats))
	for _, s := range stats {
		byName[s.Name] = s
	}
	boqs := map[string]bool{}
	for _, q := range infos {
		if q.BackoutQName != "" {
			boqs[q.BackoutQName] = true
		}
	}
	var out []QueueView
	for _, q := range infos {
		if !selected(q.Name, qm.DeadQ, p.cfg.Include, p.cfg.Exclude) {
			continue
		}
		v := QueueView{Info: q}
		v.Status, v.HasStatus = byName[q.Name]
		switch {
		case q.Name == qm.DeadQ:
			v.Role = RoleDeadQ
		case boqs[q.Name]:
			v.Role = RoleBOQ
		case q.Type != QLocal:
			v.Role = RoleOther
		case q.Usage == UsageXmitQ:
			v.Role = RoleXmitQ
		}
		out = append(out, v)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Info.Name < out[j].Info.Name })
	return out
}

// objectFailures marks the queues an inquiry could not report on. A queue
// the last good poll showed keeps its row, figures and inventory, marked
// with the failure: one queue deleted or damaged mid-command must neither
// hide the others (as an all-or-nothing answer did) nor make the watcher
// drop and re-read an inventory it still holds.
func (p *poller) objectFailures(snap *Snapshot, fails []ObjectError) {
	if len(fails) == 0 {
		return
	}
	snap.ObjectErrs = fails
	at := make(map[string]int, len(snap.Queues))
	for i := range snap.Queues {
		at[snap.Queues[i].Info.Name] = i
	}
	last := map[string]QueueView{}
	if p.last != nil {
		for _, v := range p.last.Queues {
			last[v.Info.Name] = v
		}
	}
	added := false
	for _, f := range fails {
		lv, known := last[f.Object]
		if i, ok := at[f.Object]; ok {
			v := &snap.Queues[i]
			v.InquireErr = f.Err
			if !v.HasStatus && known {
				v.Status, v.HasStatus = lv.Status, lv.HasStatus
			}
			continue
		}
		if known {
			lv.InquireErr, lv.Err = f.Err, nil
			at[f.Object] = len(snap.Queues)
			snap.Queues = append(snap.Queues, lv)
			added = true
		}
	}
	if added {
		sort.Slice(snap.Queues, func(i, j int) bool { return snap.Queues[i].Info.Name < snap.Queues[j].Info.Name })
	}
}

// keepLast carries a queue's inventory and head over from the last poll
// unchanged, for a queue this poll could not inquire.
func (p *poller) keepLast(snap *Snapshot, name string, live map[string]bool) {
	if st := p.invs[name]; st != nil {
		live[name] = true
		snap.Inventories[name] = st.inv
		snap.Deltas[name] = InventoryDelta{}
	}
	if p.heads[name] != nil {
		live[name] = true
		if p.last != nil {
			snap.Heads[name] = p.last.Heads[name]
		}
	}
}
