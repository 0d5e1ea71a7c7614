package actions

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/poisonwatch/poisonwatch/codec/mqfmt"
	"github.com/poisonwatch/poisonwatch/mqwatch"
)

// Handler is the application's processing of one delivered message. An error
// makes the consumer roll the message back, as an application that cannot
// process it does.
type Handler func(ctx context.Context, m *mqwatch.Message) error

// ErrStopped is returned once an ASF consumer has stopped delivery because a
// persistent poison message could be moved nowhere (R4f).
var ErrStopped = errors.New("delivery stopped: a persistent poison message could not be requeued (R4f)")

// ErrPaused is returned while a delivery-count MDB is paused by
// maxDeliveryFailures (R9c); Resume restarts it.
var ErrPaused = errors.New("consumer paused by maxDeliveryFailures (R9c)")

// ConsumerOptions configure a consumer.
type ConsumerOptions struct {
	Style Style
	Queue string // the point-to-point input queue, local or alias
	// Policy is the delivery-count style's poison handling (R9).
	Policy DeliveryCountPolicy
	// Outcome is what a sync-transacted application does with its
	// transaction after the consumer has handled a poison message inside it:
	// commit (the default) or roll back, which undoes the move (R3a, R4b).
	Outcome Outcome
	// ApplName is the PutApplName of dead-letter headers written by the sync
	// and async styles, for which IBM documents none; ASF writes its own.
	ApplName string
	// PauseAfter is ConsumerSpec.PauseAfter: an asf MDB whose activation
	// specification sets maxSequentialDeliveryFailures (R6i).
	PauseAfter int32
	// Wait is how long a get waits for a message (MQGMO_WAIT).
	Wait time.Duration
	// Now stamps the MQDLH PutDate/PutTime of dead letters; nil is the wall
	// clock. A simulation passes its own clock, so a dead letter's header
	// says when, in the scenario, it was dead-lettered.
	Now func() time.Time
}

// Consumer gets messages over a mqwatch.Conn the way its style does, calls a
// handler, and handles poison by the same routing and transforms the
// dashboard predicts with. It is not safe for concurrent use: like a JMS
// session it owns its connection's unit of work.
type Consumer struct {
	conn   mqwatch.Conn
	opts   ConsumerOptions
	qmgr   mqwatch.QMgrInfo
	in     mqwatch.Queue
	cached *CachedAttrs
	base   InputQueue
	// outputs caches handles opened for output (BOQ, DEADQ, reply queues).
	outputs  map[string]mqwatch.Queue
	failures int32 // consecutive delivery failures, for R9c
	paused   bool
	stopped  bool
}

// NewConsumer opens the input queue for a consumer of style opts.Style.
func NewConsumer(ctx context.Context, conn mqwatch.Conn, opts ConsumerOptions) (*Consumer, error) {
	if _, err := ParseStyle(opts.Style.String()); err != nil {
		return nil, fmt.Errorf("new consumer: %w", err)
	}
	qm, err := conn.QMgr(ctx)
	if err != nil {
		return nil, fmt.Errorf("new consumer on %s: %w", opts.Queue, err)
	}
	if opts.Outcome == OutcomeUnknown {
		opts.Outcome = OutcomeCommit
	}
	// Every style gets under syncpoint: a rollback is what increments
	// BackoutCount, and what R4b and R4d return poison to the queue with.
	oo := mqwatch.OpenOptions{Input: true, SaveAllContext: true}
	in, err := conn.Open(ctx, mqwatch.ObjectDesc{Name: opts.Queue}, oo)
	if err != nil {
		return nil, fmt.Errorf("new consumer on %s: %w", opts.Queue, err)
	}
	c := &Consumer{conn: conn, opts: opts, qmgr: qm, in: in, base: InputQueue{Name: opts.Queue, Base: opts.Queue},
		outputs: map[string]mqwatch.Queue{}}
	if !opts.Style.jms() {
		c.describe(ctx)
	}
	return c, nil
}

// Cached returns the BOTHRESH and BOQNAME the consumer cached (R1b), nil
// before it has seen BackoutCount > 0.
func (c *Consumer) Cached() *CachedAttrs {
	if c.cached == nil {
		return nil
	}
	v := *c.cached
	return &v
}

// View describes the consumer for Lint (R1b, R1f, R9a, R9c), id naming it.
func (c *Consumer) View(id string) ConsumerView {
	return ConsumerView{ID: id, Queue: c.base.Base, Style: c.opts.Style, Cached: c.Cached(), Policy: c.opts.Policy, Paused: c.paused}
}

// Paused reports whether an MDB is paused (R9c).
func (c *Consumer) Paused() bool { return c.paused }

// Resume restarts a paused MDB, as an administrator does after fixing the
// cause (R9c).
func (c *Consumer) Resume() { c.paused, c.failures = false, 0 }

// Run polls until ctx ends, the consumer stops (R4f) or pauses (R9c), or a
// call fails. MQRC_NO_MSG_AVAILABLE is not a failure: it polls again.
func (c *Consumer) Run(ctx context.Context, h Handler) error {
	for ctx.Err() == nil {
		if _, err := c.Poll(ctx, h); err != nil && !mqwatch.IsReason(err, mqfmt.RCNoMsgAvailable) {
			return err
		}
	}
	return ctx.Err()
}

// Close backs out anything open and closes the handles; the connection
// stays the caller's.
func (c *Consumer) Close(ctx context.Context) error {
	errs := []error{c.conn.Backout(ctx)}
	for _, q := range c.outputs {
		errs = append(errs, q.Close(ctx))
	}
	errs = append(errs, c.in.Close(ctx))
	return errors.Join(errs...)
}

// output returns a handle on queue name for puts that pass (or set) context.
func (c *Consumer) output(ctx context.Context, name, qmgr string, setAll bool) (mqwatch.Queue, error) {
	key := fmt.Sprintf("%s@%s/%t", name, qmgr, setAll)
	if q, ok := c.outputs[key]; ok {
		return q, nil
	}
	q, err := c.conn.Open(ctx, mqwatch.ObjectDesc{Name: name, QMgr: qmgr},
		mqwatch.OpenOptions{Output: true, PassAllContext: !setAll, SetAllContext: setAll})
	if err != nil {
		return nil, err
	}
	c.outputs[key] = q
	return q, nil
}
