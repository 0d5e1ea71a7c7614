package mqwatch

import (
	"context"
	"errors"
	"sort"
)

// poller does the work of one watcher: it holds the connection, the browse
// handles that carry mark-browse state, and the inventories between polls.
type poller struct {
	cfg     WatchConfig
	conn    Conn
	cnt     counter
	seq     uint64
	last    *Snapshot
	invs    map[string]*invState
	heads   map[string]Queue // open browse handles on input queues with messages
	arrival uint64
	strs    interner
}

func newPoller(cfg WatchConfig) *poller {
	return &poller{cfg: cfg, invs: map[string]*invState{}, heads: map[string]Queue{}}
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
	p.cnt = counter{}
	p.seq++
	snap, err := p.pollConnected(ctx, focus, forget)
	if err != nil {
		snap = p.failed(err)
	}
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
		c, err := p.cfg.Connector.Connect(ctx, p.cfg.Connect)
		if err != nil {
			return nil, err
		}
		p.conn = countingConn{Conn: c, c: &p.cnt}
		p.invs = map[string]*invState{} // marks lived on the old handles
		p.heads = map[string]Queue{}
	}
	qm, err := p.conn.QMgr(ctx)
	if err != nil {
		return nil, p.drop(err)
	}
	infos, err := p.conn.Queues(ctx, "*")
	if err != nil {
		return nil, p.drop(err)
	}
	stats, err := p.conn.QueueStatus(ctx, "*")
	if err != nil {
		return nil, p.drop(err)
	}
	snap := &Snapshot{QMgrName: qm.Name, QMgr: qm, Connected: true,
		Inventories: map[string]*Inventory{}, Deltas: map[string]InventoryDelta{}, Heads: map[string][]Summary{}}
	snap.Queues = p.views(qm, infos, stats)
	if err := p.refreshMessages(ctx, snap, forget); err != nil {
		return nil, p.drop(err)
	}
	if focus != "" {
		_, inventoried := snap.Inventories[focus] // its messages are there already: only who has it open
		snap.Focus = p.browseFocus(ctx, focus, !inventoried)
		if isConnectionError(snap.Focus.Err) {
			return nil, p.drop(snap.Focus.Err)
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
