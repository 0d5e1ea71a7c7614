package embedded

import (
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/poisonwatch/poisonwatch/codec/mqfmt"
	"github.com/poisonwatch/poisonwatch/mqwatch"
)

// Network is a set of linked queue managers with a channel from each to each
// other: a message committed on a transmission queue named after another
// member is moved to that queue manager by an in-process channel agent (a
// sender and receiver MCA pair). The receiving side puts it to its
// destination; when that fails (unknown queue, full, put-inhibited, too big)
// it dead-letters the message on its DEADQ with an MQDLH carrying the reason,
// as amqrmppa does. With no usable DEADQ the channel stops and retries, and
// the message stays on the transmission queue.
type Network struct {
	cancel context.CancelFunc
	wg     sync.WaitGroup
	agents []*agent
}

// agent moves messages from one queue manager to another.
type agent struct {
	from, to *QMgr
	unit     uow // the sending side's unit of work for the message in flight
	mu       sync.Mutex
	busy     bool
	stuck    bool
}

// Link starts channels between every pair of the given queue managers. Close
// the Network to stop them.
func Link(qms ...*QMgr) *Network {
	ctx, cancel := context.WithCancel(context.Background())
	n := &Network{cancel: cancel}
	for _, a := range qms {
		for _, b := range qms {
			if a != b {
				ag := &agent{from: a, to: b}
				n.agents = append(n.agents, ag)
				n.wg.Add(1)
				go func() {
					defer n.wg.Done()
					ag.run(ctx)
				}()
			}
		}
	}
	return n
}

// Close stops the channels and waits for them.
func (n *Network) Close() {
	n.cancel()
	n.wg.Wait()
}

// Flush waits until no channel has a message it can move: every transmission
// queue between members is empty or its channel is retrying.
func (n *Network) Flush(ctx context.Context) error {
	for {
		idle := true
		for _, ag := range n.agents {
			if !ag.idle() {
				idle = false
				break
			}
		}
		if idle {
			return nil
		}
		if err := sleepCtx(ctx, time.Millisecond); err != nil {
			return fmt.Errorf("flush network: %w", err)
		}
	}
}

func (ag *agent) idle() bool {
	ag.mu.Lock()
	busy, stuck := ag.busy, ag.stuck
	ag.mu.Unlock()
	if busy {
		return false
	}
	if stuck {
		return true
	}
	a := ag.from
	a.mu.Lock()
	defer a.mu.Unlock()
	x := a.queues[ag.to.name]
	return x == nil || x.typ != mqwatch.QLocal || a.nextVisible(x, nil) == nil
}

func (ag *agent) run(ctx context.Context) {
	for {
		if ag.isStuck() {
			t := time.NewTimer(ag.from.opts.ChannelRetry)
			select {
			case <-ctx.Done():
				t.Stop()
				return
			case <-t.C:
			}
			ag.mu.Lock()
			ag.stuck = false
			ag.mu.Unlock()
			continue
		}
		moved, wake := ag.moveOne()
		if moved || ag.isStuck() {
			continue
		}
		select {
		case <-ctx.Done():
			return
		case <-wake:
		}
	}
}

func (ag *agent) isStuck() bool {
	ag.mu.Lock()
	defer ag.mu.Unlock()
	return ag.stuck
}

// moveOne moves the first message of the transmission queue. It returns
// whether it did, and otherwise the channel to wait on for new work.
func (ag *agent) moveOne() (bool, <-chan struct{}) {
	a, b := ag.from, ag.to
	a.mu.Lock()
	wake := a.xmitWake
	x := a.queues[b.name]
	if x == nil || x.typ != mqwatch.QLocal || x.attrs.Usage != mqwatch.UsageXmitQ {
		a.mu.Unlock()
		return false, wake
	}
	m := a.nextVisible(x, nil)
	if m == nil {
		a.mu.Unlock()
		return false, wake
	}
	ag.setBusy(true)
	defer ag.setBusy(false)
	x.store.lock(m, &ag.unit)
	md, data := m.md, m.data
	expiry := a.copyOut(m, 0).MD.Expiry // time on the transmission queue counts
	a.mu.Unlock()

	ok := ag.deliver(md, data, expiry)

	a.mu.Lock()
	defer a.mu.Unlock()
	if m.owner != &ag.unit {
		return true, wake // the transmission queue went away meanwhile
	}
	if ok {
		x.store.remove(m)
		return true, wake
	}
	// The batch is backed out on the sending side; the channel retries later.
	m.state, m.owner = stVisible, nil
	m.md.BackoutCount++
	x.store.uncommitted--
	x.store.depth++
	ag.mu.Lock()
	ag.stuck = true
	ag.mu.Unlock()
	return false, wake
}

func (ag *agent) setBusy(v bool) {
	ag.mu.Lock()
	ag.busy = v
	ag.mu.Unlock()
}

// deliver is the receiving MCA: it puts the message to its destination on the
// receiving queue manager, or dead-letters it there. It reports false when
// neither worked and the message must stay on the transmission queue.
func (ag *agent) deliver(xmd mqfmt.MQMD, data []byte, expiry int32) bool {
	b := ag.to
	b.mu.Lock()
	defer b.mu.Unlock()
	xm, err := unwrapXmit(data, xmd.CodedCharSetId)
	if err != nil {
		return b.deadLetterLocked(xmd, data, rcHeaderError, "", b.name)
	}
	if xm.md.Expiry > 0 {
		xm.md.Expiry = expiry
	}
	rc := b.receive(xm)
	if rc == 0 {
		return true
	}
	return b.deadLetterLocked(xm.md, xm.data, rc, xm.remoteQ, xm.remoteQMgr)
}

// receive puts an arriving message where its MQXQH says, resolving names as
// an MQPUT by the MCA would. Caller holds mu.
func (qm *QMgr) receive(xm xmitMessage) mqfmt.Reason {
	if xm.remoteQMgr != qm.name {
		// Not for us: pass it on along a transmission queue of that name.
		x := qm.queues[xm.remoteQMgr]
		if x == nil || x.typ != mqwatch.QLocal || x.attrs.Usage != mqwatch.UsageXmitQ {
			return mqfmt.RCUnknownRemoteQMgr
		}
		xmd, payload := qm.wrapXmit(xm.md, xm.data, xm.remoteQ, xm.remoteQMgr)
		_, rc := qm.putMessage(x, xmd, payload, nil)
		return rc
	}
	target := qm.queues[xm.remoteQ]
	for hops := 0; target != nil && target.typ == mqwatch.QAlias && hops < 8; hops++ {
		if target.attrs.PutInhibited {
			return mqfmt.RCPutInhibited
		}
		base := qm.queues[target.attrs.Target]
		if base == nil {
			return mqfmt.RCUnknownAliasBaseQ
		}
		target = base
	}
	switch {
	case target == nil:
		return mqfmt.RCUnknownObjectName
	case target.typ == mqwatch.QRemote:
		a := target.attrs
		xq := a.XmitQ
		if xq == "" {
			xq = a.RemoteQMgr
		}
		x := qm.queues[xq]
		if x == nil || x.attrs.Usage != mqwatch.UsageXmitQ {
			return rcUnknownXmitQ
		}
		xmd, payload := qm.wrapXmit(xm.md, xm.data, a.RemoteName, a.RemoteQMgr)
		_, rc := qm.putMessage(x, xmd, payload, nil)
		return rc
	case target.typ != mqwatch.QLocal:
		return mqfmt.RCUnknownObjectName
	}
	_, rc := qm.putMessage(target, xm.md, xm.data, nil)
	return rc
}

// deadLetterLocked puts a message that could not be delivered on the DEADQ
// with an MQDLH. It reports false when there is no usable dead-letter queue.
func (qm *QMgr) deadLetterLocked(md mqfmt.MQMD, data []byte, rc mqfmt.Reason, destQ, destQMgr string) bool {
	dlq := qm.queues[qm.attrs.deadQ]
	if qm.attrs.deadQ == "" || dlq == nil || dlq.typ != mqwatch.QLocal {
		return false
	}
	dmd, payload := qm.deadLetter(md, data, rc, destQ, destQMgr, "amqrmppa")
	_, prc := qm.putMessage(dlq, dmd, payload, nil)
	return prc == 0
}
