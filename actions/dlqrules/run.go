package dlqrules

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/poisonwatch/poisonwatch/actions"
	"github.com/poisonwatch/poisonwatch/mqwatch"
)

// RunOptions tune a run of a table.
type RunOptions struct {
	Queue string // the DEADQ; "" = the table's INPUTQ, else the queue manager's
	// DryRun reports what one pass would do and changes nothing.
	DryRun bool
	// Once processes the messages there now (retrying as RETRY says) and
	// stops, whatever WAIT says.
	Once           bool
	Batch, Workers int
	Rate           float64
	// Poll is how often WAIT(YES) and WAIT(nnn) look for new messages;
	// DefaultPoll when 0.
	Poll time.Duration
	// Progress reports each engine request's progress, with its rule.
	Progress func(rule int, p actions.OpProgress)
	// Step is called after each engine request.
	Step func(Step)
	// Sleep waits between passes; a timer honouring ctx when nil.
	Sleep func(ctx context.Context, d time.Duration) error
}

// DefaultPoll is how often a waiting run looks for new messages.
const DefaultPoll = 5 * time.Second

// Step is one engine request of a run: a rule's action on some messages.
type Step struct {
	Pass   int
	Rule   int // 1-based
	Result actions.OpResult
	Err    error `json:",omitempty"`
}

// RunResult is what a run did.
type RunResult struct {
	QMgr, Queue string
	Passes      int
	Steps       []Step
	// Done counts messages acted on; Failed those whose every matching rule
	// spent its attempts (they stay); Left those ignored or matching no rule.
	Done, Failed, Left int
	Stopped            string
}

// msgID identifies a message across passes, as the engine does.
type msgID struct {
	key mqwatch.Key
	put int64
}

func idOf(s *mqwatch.Summary) msgID { return msgID{s.Key(), s.PutTime.UnixNano()} }

var doneWord = map[actions.Op]string{actions.OpRequeue: "requeued", actions.OpMove: "moved", actions.OpDiscard: "discarded"}

// Run carries out the table on the queue through the engine, pass after
// pass: each pass browses the queue, applies the first rule whose attempts
// are not spent to each message, and runs one engine request per rule and
// target (batches, syncpoint, audit, archive before discard). A message
// whose action fails is tried again after RETRYINT, up to the rule's RETRY
// attempts, then by the next rule that matches, as runmqdlq does. WAIT says
// whether to wait for new messages once nothing is left to do.
func Run(ctx context.Context, src Source, t *Table, o RunOptions) (*RunResult, error) {
	qmi, queue, err := where(ctx, src.Conn, t, o.Queue)
	if err != nil {
		return nil, err
	}
	if o.Sleep == nil {
		o.Sleep = sleep
	}
	if o.Poll <= 0 {
		o.Poll = DefaultPoll
	}
	r := &runner{src: src, t: t, o: o, qmgr: qmi.Name, queue: queue,
		attempts: map[msgID]map[int]int{}, done: map[msgID]bool{}, res: &RunResult{QMgr: qmi.Name, Queue: queue}}
	err = r.loop(ctx)
	if err != nil {
		r.res.Stopped = err.Error()
	}
	if !o.DryRun {
		r.tally(context.WithoutCancel(ctx))
	}
	return r.res, err
}

type runner struct {
	src         Source
	t           *Table
	o           RunOptions
	qmgr, queue string
	attempts    map[msgID]map[int]int
	done        map[msgID]bool
	res         *RunResult
}

func (r *runner) loop(ctx context.Context) error {
	idle := time.Duration(0)
	for pass := 1; ; pass++ {
		r.res.Passes = pass
		msgs, err := scan(ctx, r.src.Conn, r.queue)
		if err != nil {
			return err
		}
		skip := func(i, rule int) bool { return r.attempts[idOf(&msgs[i].sum)][rule] >= r.t.Rules[rule].Retry }
		c := classify(r.t, msgs, r.qmgr, r.queue, skip)
		if err := r.pass(ctx, pass, c); err != nil || r.o.DryRun {
			return err
		}
		wait := r.t.Control.RetryInt
		switch {
		case r.retryable(msgs, skip):
			idle = 0
		case len(c.batches) > 0:
			idle, wait = 0, 0 // done: look again at once for what arrived meanwhile
		case r.o.Once || r.t.Control.Wait == WaitNo:
			return nil
		case r.t.Control.Wait == WaitFor && idle >= r.t.Control.WaitFor:
			return nil
		default:
			wait = r.o.Poll
			if r.t.Control.Wait == WaitFor {
				wait = min(wait, r.t.Control.WaitFor-idle)
			}
			idle += wait
		}
		if err := r.o.Sleep(ctx, wait); err != nil {
			return err
		}
	}
}

// retryable reports whether a message whose action failed has a rule left
// to try.
func (r *runner) retryable(msgs []scanned, skip func(i, rule int) bool) bool {
	c := classify(r.t, msgs, r.qmgr, r.queue, skip)
	for i := range msgs {
		id := idOf(&msgs[i].sum)
		if len(r.attempts[id]) > 0 && !r.done[id] && c.rule[i] >= 0 && c.res[i].Op != "" {
			return true
		}
	}
	return false
}

// pass runs the batches of one pass, counting each message's attempts.
func (r *runner) pass(ctx context.Context, pass int, c *classification) error {
	for _, b := range c.batches {
		req := b.request(r.qmgr, r.queue)
		req.DryRun, req.Batch, req.Workers, req.Rate = r.o.DryRun, r.o.Batch, r.o.Workers, r.o.Rate
		rule := b.key.rule + 1
		var prog func(actions.OpProgress)
		if r.o.Progress != nil {
			prog = func(p actions.OpProgress) { r.o.Progress(rule, p) }
		}
		res, runErr := r.src.Engine.Run(ctx, req, prog)
		st := Step{Pass: pass, Rule: rule, Result: res, Err: runErr}
		r.res.Steps = append(r.res.Steps, st)
		if r.o.Step != nil {
			r.o.Step(st)
		}
		items := res.Items
		if len(items) == 0 && runErr != nil {
			// Refused before any message was planned: each was attempted.
			for i := range b.sums {
				items = append(items, actions.OpItem{Msg: b.sums[i]})
			}
		}
		for i := range items {
			it := &items[i]
			id := idOf(&it.Msg)
			switch {
			case r.o.DryRun:
			case it.Outcome == doneWord[req.Op]:
				r.done[id] = true
				r.res.Done++
			default:
				if r.attempts[id] == nil {
					r.attempts[id] = map[int]int{}
				}
				r.attempts[id][b.key.rule]++
			}
		}
		if stop := fatal(ctx, runErr); stop != nil {
			return stop
		}
	}
	return nil
}

// fatal returns the error that ends a run: cancellation, read-only mode,
// missing context authority. Other failures are per message and retried.
func fatal(ctx context.Context, err error) error {
	switch {
	case err == nil:
		return nil
	case ctx.Err() != nil:
		return ctx.Err()
	case errors.Is(err, actions.ErrReadOnly), errors.Is(err, actions.ErrContextAuthority):
		return err
	}
	return nil
}

// tally counts what is left on the queue after the run: messages an action
// was tried on and failed, and the rest (IGNORE, no rule, no MQDLH).
func (r *runner) tally(ctx context.Context) {
	msgs, err := scan(ctx, r.src.Conn, r.queue)
	if err != nil {
		return
	}
	for i := range msgs {
		if len(r.attempts[idOf(&msgs[i].sum)]) > 0 {
			r.res.Failed++
		} else {
			r.res.Left++
		}
	}
}

// sleep waits d unless ctx ends first.
func sleep(ctx context.Context, d time.Duration) error {
	select {
	case <-time.After(max(d, 0)):
		return ctx.Err()
	case <-ctx.Done():
		return ctx.Err()
	}
}

// String summarises a run in one line.
func (res *RunResult) String() string {
	s := fmt.Sprintf("%d acted on, %d left after their rules' attempts failed, %d left by IGNORE or no rule (%d passes)",
		res.Done, res.Failed, res.Left, res.Passes)
	if res.Stopped != "" {
		s += "; stopped: " + res.Stopped
	}
	return s
}
