package demo

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"slices"
	"sync"
	"time"

	"github.com/poisonwatch/poisonwatch/backend/embedded"
	"github.com/poisonwatch/poisonwatch/mqwatch"
)

// Run is a running scenario: its queue managers and the applications working
// on them. It stops when the context given to Start ends.
type Run struct {
	r    *runner
	done chan struct{}
	warm chan struct{}
	err  error
}

// Start creates the scenario's queue managers, applies their MQSC, links
// them, connects the applications and runs them until ctx ends. With a
// Warmup the scenario first simulates that much history on a virtual clock
// (as fast as the CPU allows; Start returns when it is done), so the queue
// managers start with the incident in progress and message ages that make
// sense; then it follows the wall clock. When ctx ends every application disconnects and every channel
// stops; Done is closed after that, and no goroutine of the run is left.
func (s *Scenario) Start(ctx context.Context) (*Run, error) {
	run, err := s.Begin(ctx)
	if err != nil {
		return nil, err
	}
	select {
	case <-run.Warm():
		return run, nil
	case <-run.done:
		return nil, run.err
	}
}

// Begin is Start without waiting for the warm-up: it returns as soon as the
// queue managers are defined, and simulates the warm-up in the background,
// so a dashboard can paint them at once and watch the history fill in. Warm
// is closed when the warm-up is over; until then Now runs ahead of the
// scenario's start on the virtual clock. A failed warm-up ends the run
// (Done, then Wait returns the error).
func (s *Scenario) Begin(ctx context.Context) (*Run, error) {
	if err := s.Validate(); err != nil {
		return nil, fmt.Errorf("start scenario %s: %w", s.Name, err)
	}
	now := time.Now()
	clk := newVirtualClock(now.Add(-s.Warmup))
	r := newRunner(ctx, s, clk, false)
	if err := r.setup(); err != nil {
		r.shutdown()
		return nil, fmt.Errorf("start scenario %s: %w", s.Name, err)
	}
	run := &Run{r: r, done: make(chan struct{}), warm: make(chan struct{})}
	go func() {
		defer close(run.done)
		defer r.shutdown()
		run.simulate(now)
	}()
	return run, nil
}

// simulate runs the warm-up up to now on the virtual clock, then the
// scenario on the wall clock until the run's context ends.
func (run *Run) simulate(now time.Time) {
	r := run.r
	if r.s.Warmup > 0 {
		if err := r.loop(now); err != nil {
			run.err = fmt.Errorf("start scenario %s: %w", r.s.Name, err)
			return
		}
	}
	r.clock.goReal()
	close(run.warm)
	err := r.loop(time.Time{})
	if !errors.Is(err, context.Canceled) && !errors.Is(err, context.DeadlineExceeded) {
		run.err = err
	}
}

// Warm is closed when the warm-up history has been simulated.
func (r *Run) Warm() <-chan struct{} { return r.warm }

// Now is the scenario's clock: virtual during the warm-up, the wall clock
// after. Watchers stamp their snapshots with it, so rates measured across
// the warm-up are per scenario minute.
func (r *Run) Now() time.Time { return r.r.clock.Now() }

// QMgrs returns the queue managers in the order the scenario lists them.
func (r *Run) QMgrs() []*embedded.QMgr { return slices.Clone(r.r.qms) }

// QMgr returns the queue manager called name, or nil.
func (r *Run) QMgr(name string) *embedded.QMgr { return r.r.byName[name] }

// Done is closed when the run has stopped and released everything.
func (r *Run) Done() <-chan struct{} { return r.done }

// Wait waits until the run has stopped and returns why, nil when its
// context ended.
func (r *Run) Wait() error {
	<-r.done
	return r.err
}

// Routes returns how many messages took each route so far.
func (r *Run) Routes() []RouteCount { return r.r.book.Routes() }

// Producers returns each producer's figures so far.
func (r *Run) Producers() []ProducerStats { return r.r.book.Producers() }

// Consumers returns each consumer group's state.
func (r *Run) Consumers() []ConsumerState { return r.r.book.Consumers() }

// Events returns the timed MQSC events that have run.
func (r *Run) Events() []EventResult { return r.r.book.Events() }

// runner holds a run's state. Apart from the book and the clock it is used by
// the scheduler goroutine only.
type runner struct {
	ctx    context.Context
	s      *Scenario
	clock  *clock
	start  time.Time
	qms    []*embedded.QMgr
	byName map[string]*embedded.QMgr
	nets   []*embedded.Network
	agenda agenda
	book   *book
	ledger *ledger // nil unless a simulation accounts for every message
	conns  []mqwatch.Conn
	closed sync.Once
	// stops is shared by the ASF consumers of one destination: R4f stops
	// delivery to all connection consumers on it.
	stops map[string]*bool
	// defined, when set, is told of each queue manager as soon as its MQSC
	// has run, before the next one is set up (BeginEach).
	defined func(i int, qm *embedded.QMgr)
}

// EventResult reports a timed MQSC event.
type EventResult struct {
	At    time.Duration `json:"at"`
	QMgr  string        `json:"qmgr"`
	Error string        `json:"error,omitempty"`
}

func newRunner(ctx context.Context, s *Scenario, clk *clock, account bool) *runner {
	r := &runner{ctx: ctx, s: s, clock: clk, start: clk.Now(), byName: map[string]*embedded.QMgr{},
		book: newBook(s), stops: map[string]*bool{}}
	if account {
		r.ledger = newLedger()
	}
	return r
}

// loop runs the actors in time order. On the virtual clock it runs as fast
// as it can and returns once the next actor is due after until; on the wall
// clock it sleeps until each actor is due and returns only when ctx ends.
func (r *runner) loop(until time.Time) error {
	for {
		if err := r.ctx.Err(); err != nil {
			return err
		}
		virtual := r.clock.virtual.Load()
		sl, ok := r.agenda.peek()
		switch {
		case !ok && virtual:
			return nil
		case !ok:
			<-r.ctx.Done()
			return r.ctx.Err()
		case virtual && sl.at.After(until):
			return nil
		case virtual:
			r.clock.advance(sl.at)
		default:
			if err := sleepUntil(r.ctx, sl.at); err != nil {
				return err
			}
		}
		r.agenda.pop()
		now := r.clock.Now()
		if next, again := sl.a.step(now); again {
			r.agenda.schedule(later(next, now), sl.a)
		}
		if virtual {
			if err := r.flush(); err != nil {
				return err
			}
		}
		if r.ledger != nil && r.ledger.full() {
			return errLedgerFull
		}
	}
}

// later keeps an actor from being rescheduled at the instant it ran, which
// would spin a virtual clock in place.
func later(next, now time.Time) time.Time {
	if next.After(now) {
		return next
	}
	return now.Add(time.Microsecond)
}

// flush lets the channels move what the last step put on transmission
// queues before virtual time moves on, so a simulation does not depend on
// how goroutines are scheduled.
func (r *runner) flush() error {
	for _, n := range r.nets {
		// Flush sleeps a millisecond whenever a channel is busy, which would
		// dominate a simulation that crosses the channel a thousand times.
		// With an ended context it only reports whether the channels are
		// idle, so yield to the channel goroutines (up to a thousand times,
		// well under a millisecond) before falling back to it.
		//
		// Flush can also report idle while a channel is delivering the last
		// message of its transmission queue: it reads the agent's busy flag
		// before it looks at the queue, and the agent takes the message off
		// the queue in between. A second idle report in a row cannot be
		// that (the agent clears busy only after the delivery), so wait
		// for two.
		for idle := 0; idle < 2; {
			for range 1000 {
				if n.Flush(doneCtx) == nil {
					break
				}
				runtime.Gosched()
			}
			if err := n.Flush(r.ctx); err != nil {
				return err
			}
			idle++
		}
	}
	return nil
}

// doneCtx is an ended context: Network.Flush with it returns at once.
var doneCtx = func() context.Context {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	return ctx
}()

func sleepUntil(ctx context.Context, at time.Time) error {
	d := time.Until(at)
	if d <= 0 {
		return nil
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

// shutdown disconnects every application (backing out anything in flight)
// and stops the channels. It is safe to call twice.
func (r *runner) shutdown() {
	r.closed.Do(func() {
		for i := len(r.conns) - 1; i >= 0; i-- {
			_ = r.conns[i].Close() // the connection may be broken already; nothing to do then
		}
		for _, n := range r.nets {
			n.Close()
		}
	})
}
