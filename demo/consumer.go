package demo

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"strconv"
	"time"

	"github.com/poisonwatch/poisonwatch/actions"
	"github.com/poisonwatch/poisonwatch/codec/mqfmt"
	"github.com/poisonwatch/poisonwatch/mqwatch"
)

// errProcessing is what a failing application's handler returns: the
// consumer rolls the message back, as the application would.
var errProcessing = errors.New("the application could not process the message")

// consumerGroup is one [[consumer]] entry: its instances share the input
// queue (a subscription's managed queue for subscribers) and, for ASF, the
// fate of R4f.
type consumerGroup struct {
	r     *runner
	spec  *ConsumerSpec
	cfg   consumerConfig
	id    int // index in the book
	queue string
	// stopped is shared by every ASF consumer of the destination.
	stopped *bool
}

// consumerInstance is one connection of a group: one actions.Consumer.
type consumerInstance struct {
	g        *consumerGroup
	conn     *watchedConn
	c        *actions.Consumer
	rng      *rand.Rand
	paused   bool // the MDB paused itself (R9c) at pausedAt
	pausedAt time.Time
}

func (r *runner) startConsumers(i int) error {
	spec := &r.s.Consumers[i]
	cfg, err := spec.options()
	if err != nil {
		return err
	}
	g := &consumerGroup{r: r, spec: spec, cfg: cfg, queue: spec.Queue}
	conns := make([]*watchedConn, spec.Instances)
	for n := range conns {
		c, err := r.connect(spec.QMgr, spec.Name, spec.User)
		if err != nil {
			return err
		}
		conns[n] = &watchedConn{Conn: c}
	}
	if sub := spec.Subscription; sub != nil {
		if g.queue, err = subscribe(r.ctx, conns[0], sub); err != nil {
			return err
		}
	}
	g.cfg.opts.Queue = g.queue
	g.cfg.opts.Now = r.clock.Now // MQDLH put times on the scenario's clock
	if cfg.opts.Style == actions.ASF {
		key := spec.QMgr + "/" + g.queue
		if r.stops[key] == nil {
			r.stops[key] = new(bool)
		}
		g.stopped = r.stops[key]
	} else {
		g.stopped = new(bool)
	}
	g.id = r.book.addConsumer(ConsumerState{Name: spec.Name, QMgr: spec.QMgr, Queue: g.queue,
		Style: cfg.opts.Style.String(), Instances: spec.Instances, State: "running"})
	for n, conn := range conns {
		c, err := actions.NewConsumer(r.ctx, conn, g.cfg.opts)
		if err != nil {
			return err
		}
		inst := &consumerInstance{g: g, conn: conn, c: c,
			rng: newRand(r.s.Seed, "consumer", strconv.Itoa(i), strconv.Itoa(n))}
		r.agenda.schedule(r.start.Add(spec.Start), inst)
	}
	return nil
}

// subscribe creates the subscription and returns its managed queue. A
// durable subscription outlives its handle; a non-durable one lives while
// the handle stays open, which it does until the connection closes.
func subscribe(ctx context.Context, conn mqwatch.Conn, sub *SubscriptionSpec) (string, error) {
	h, err := conn.Subscribe(ctx, mqwatch.SubDesc{TopicString: sub.Topic, Durable: sub.Durable, Name: sub.Name})
	if err != nil {
		return "", err
	}
	name := h.Name()
	if sub.Durable {
		if err := h.Close(ctx); err != nil {
			return "", err
		}
	}
	return name, nil
}

func (ci *consumerInstance) step(now time.Time) (time.Time, bool) {
	g, spec := ci.g, ci.g.spec
	if *g.stopped {
		// R4f: the instance keeps its handle open (IPPROCS stays) and gets
		// nothing until it is re-created.
		g.r.book.setState(g.id, "stopped (R4f)")
		return time.Time{}, false
	}
	if ci.paused {
		if spec.ResumeAfter == 0 {
			return time.Time{}, false
		}
		if resume := ci.pausedAt.Add(spec.ResumeAfter); now.Before(resume) {
			return resume, true
		}
		ci.c.Resume()
		ci.paused = false
		g.r.book.setState(g.id, "running")
	}
	ci.conn.last = got{}
	res, err := ci.c.Poll(g.r.ctx, ci.handle)
	if ci.conn.last.ok {
		g.r.book.handled(g.id, &res)
		ci.account(&res, err)
	}
	if ci.c.Paused() && !ci.paused {
		// The failure just counted paused the MDB: the next poll would
		// only say so (R9c).
		ci.paused, ci.pausedAt = true, now
		g.r.book.setState(g.id, "paused (R9c)")
		if res.Fate != actions.PauseConsumer { // else counted above
			g.r.book.handled(g.id, &actions.Handled{Fate: actions.PauseConsumer, Queue: g.queue,
				Why: []actions.Line{{Rule: "R9c"}}})
		}
		return now.Add(max(spec.ResumeAfter, spec.Poll)), spec.ResumeAfter > 0
	}
	switch {
	case err == nil:
		if ci.conn.last.ok {
			return now.Add(spec.Process), true
		}
		return now.Add(spec.Poll), true
	case mqwatch.IsReason(err, mqfmt.RCNoMsgAvailable):
		return now.Add(spec.Poll), true
	case errors.Is(err, actions.ErrStopped):
		*g.stopped = true
		g.r.book.setState(g.id, "stopped (R4f)")
		return time.Time{}, false
	}
	g.r.book.consumerError(g.id)
	return now.Add(max(spec.Poll, time.Second)), true
}

// handle is the application: it fails when the scenario's predicate says so.
func (ci *consumerInstance) handle(_ context.Context, m *mqwatch.Message) error {
	if ci.g.cfg.fail.Fails(m, ci.rng) {
		return fmt.Errorf("%s: %w", ci.g.spec.Name, errProcessing)
	}
	return nil
}

// account tells the ledger about messages that leave no trace on a queue:
// processed by the application, or discarded by a rule.
func (ci *consumerInstance) account(res *actions.Handled, err error) {
	l := ci.g.r.ledger
	if l == nil || err != nil {
		return
	}
	last := ci.conn.last
	switch {
	case (res.Fate == actions.Deliver || res.Fate == actions.LoopForever) && res.HandlerErr == nil:
		l.consume(last.ident, last.msgID)
	case res.Fate == actions.Discard && !ci.rollsBack():
		rule := ""
		if n := len(res.Why); n > 0 {
			rule = res.Why[n-1].Rule
		}
		l.discard(last.ident, last.msgID, rule)
	}
}

// rollsBack reports whether the application rolls back its transaction after
// a poison move, which undoes the move or discard (R3a).
func (ci *consumerInstance) rollsBack() bool {
	o := ci.g.cfg.opts
	return o.Style == actions.SyncTransacted && o.Outcome == actions.OutcomeRollback
}
