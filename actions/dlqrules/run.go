package dlqrules

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/poisonwatch/poisonwatch/actions/ops"
	"github.com/poisonwatch/poisonwatch/codec/mqfmt"
	"github.com/poisonwatch/poisonwatch/internal/words"
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
	// Idle is called when a WAIT(YES) or WAIT(nnn) run has nothing to do
	// and starts waiting, in MQGET, up to d for a new message.
	Idle func(d time.Duration)
	// Progress reports each engine request's progress, with its rule.
	Progress func(rule int, p ops.OpProgress)
	// Step is called after each engine request.
	Step func(Step)
	// Sleep waits between passes; a timer honouring ctx when nil.
	Sleep func(ctx context.Context, d time.Duration) error
}

// waitForever is one MQGET wait of a WAIT(YES) run; it waits again after
// each, so the figure only bounds how long one call holds the connection.
const waitForever = time.Hour

// Step is one engine request of a run: a rule's action on some messages.
type Step struct {
	Pass   int
	Rule   int // 1-based
	Result ops.OpResult
	Err    error `json:",omitempty"`
}

// RunResult is what a run did.
type RunResult struct {
	QMgr, Queue string
	Passes      int
	Steps       []Step
	// Done counts messages acted on; Failed those whose every matching rule
	// spent its attempts (they stay); Left those ignored or matching no rule.
	// For a dry run, Left counts what one pass would leave (IGNORE, no
	// rule) and the steps' plans say what would happen to the rest.
	Done, Failed, Left int
	DryRun             bool `json:",omitempty"`
	Stopped            string
}

// msgID identifies a message across passes, as the engine does.
type msgID struct {
	key mqwatch.Key
	put int64
}

func idOf(s *mqwatch.Summary) msgID { return msgID{s.Key(), s.PutTime.UnixNano()} }

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
	r := &runner{src: src, t: t, o: o, qmgr: qmi.Name, queue: queue,
		attempts: map[msgID]map[int]int{}, done: map[msgID]bool{}, res: &RunResult{QMgr: qmi.Name, Queue: queue, DryRun: o.DryRun}}
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
		skip := func(i, rule int) bool { return r.attempts[idOf(&msgs[i].Sum)][rule] >= r.t.Rules[rule].Retry }
		c := classify(r.t, msgs, r.qmgr, r.queue, skip)
		if err := r.pass(ctx, pass, c); err != nil || r.o.DryRun {
			r.res.Left = c.left()
			return err
		}
		switch {
		case r.retryable(msgs, skip):
			idle = 0
			if err := r.o.Sleep(ctx, r.t.Control.RetryInt); err != nil {
				return err
			}
		case len(c.batches) > 0:
			idle = 0 // done: look again at once for what arrived meanwhile
		case r.o.Once || r.t.Control.Wait == WaitNo:
			return nil
		case r.t.Control.Wait == WaitFor && idle >= r.t.Control.WaitFor:
			return nil
		default:
			wait := waitForever
			if r.t.Control.Wait == WaitFor {
				wait = r.t.Control.WaitFor - idle
			}
			arrived, err := r.await(ctx, msgs, wait)
			if err != nil {
				return err
			}
			idle += wait
			if arrived {
				idle = 0
			}
		}
	}
}

// await waits up to d in MQGET, as runmqdlq waits, for a message the last
// pass did not see: it browses the queue with a handle of its own, marking
// every message there (one the pass missed counts as arrived), then browses
// for an unmarked message with MQGMO_WAIT. Messages left on the queue
// (IGNORE, no rule) therefore do not wake it, and nothing polls.
func (r *runner) await(ctx context.Context, seen []Subject, d time.Duration) (bool, error) {
	if r.o.Idle != nil {
		r.o.Idle(d)
	}
	known := make(map[msgID]bool, len(seen))
	for i := range seen {
		known[idOf(&seen[i].Sum)] = true
	}
	q, err := r.src.Conn.Open(ctx, mqwatch.ObjectDesc{Name: r.queue}, mqwatch.OpenOptions{Browse: true})
	if err != nil {
		return false, fmt.Errorf("wait on %s: %w", r.queue, err)
	}
	defer q.Close(context.WithoutCancel(ctx))
	for wait := time.Duration(0); ; {
		m, err := q.Browse(ctx, mqwatch.BrowseOptions{First: true, Unmarked: true, MaxBytes: scanBytes, Wait: wait})
		switch {
		case mqwatch.IsReason(err, mqfmt.RCNoMsgAvailable) && wait > 0:
			return false, nil // d passed with nothing new
		case mqwatch.IsReason(err, mqfmt.RCNoMsgAvailable):
			wait = d // every message there is marked: now wait for another
			continue
		case err != nil:
			return false, fmt.Errorf("wait on %s: %w", r.queue, err)
		}
		if s := mqwatch.Summarize(&m); wait > 0 || !known[idOf(&s)] {
			return true, nil
		}
	}
}

// retryable reports whether a message whose action failed has a rule left
// to try.
func (r *runner) retryable(msgs []Subject, skip func(i, rule int) bool) bool {
	c := classify(r.t, msgs, r.qmgr, r.queue, skip)
	for i := range msgs {
		id := idOf(&msgs[i].Sum)
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
		req.Browsed = true // the run browsed them just now; the gets verify each
		req.DryRun, req.Batch, req.Workers, req.Rate = r.o.DryRun, r.o.Batch, r.o.Workers, r.o.Rate
		rule := b.key.rule + 1
		var prog func(ops.OpProgress)
		if r.o.Progress != nil {
			prog = func(p ops.OpProgress) { r.o.Progress(rule, p) }
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
				items = append(items, ops.OpItem{Msg: b.sums[i]})
			}
		}
		for i := range items {
			it := &items[i]
			id := idOf(&it.Msg)
			switch {
			case r.o.DryRun:
			case it.Kind == ops.Done:
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
	case errors.Is(err, ops.ErrReadOnly), errors.Is(err, ops.ErrContextAuthority):
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
		if len(r.attempts[idOf(&msgs[i].Sum)]) > 0 {
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

// String summarises a run in one line; a dry run's line says what the
// pass's plans predict.
func (res *RunResult) String() string {
	s := fmt.Sprintf("%d acted on, %d left after their rules' attempts failed, %d left by IGNORE or no rule (%s)",
		res.Done, res.Failed, res.Left, words.CountPlain(res.Passes, "pass"))
	if res.DryRun {
		s = res.dryRunString()
	}
	if res.Stopped != "" {
		s += "; stopped: " + res.Stopped
	}
	return s
}

// DryRunActed says how many messages a dry run's pass would act on and how
// many of those it takes would not end where their rule sends them (fail,
// be dead-lettered again, come back, skipped): the exit code's figures.
func (res *RunResult) DryRunActed() (act, not int) {
	act, fail, again, back, skip := res.dryRunCounts()
	return act - back, fail + again + back + skip
}

func (res *RunResult) dryRunCounts() (act, fail, again, back, skip int) {
	sum := func(cs []ops.OpCount) (n int) {
		for _, c := range cs {
			n += c.Count
		}
		return n
	}
	for i := range res.Steps {
		b := res.Steps[i].Result.Breakdown()
		act, fail, again, back, skip = act+b.Act, fail+sum(b.Fail), again+sum(b.DeadLetterAgain), back+sum(b.ComesBack), skip+sum(b.Skipped)
	}
	return act, fail, again, back, skip
}

// dryRunString is a dry run's line: what the steps' plans would act on,
// what they predict would fail, come back or be skipped, and what stays.
func (res *RunResult) dryRunString() string {
	act, fail, again, back, skip := res.dryRunCounts()
	s := fmt.Sprintf("dry run: %d would be acted on, %d would fail", act, fail)
	if again > 0 {
		s += fmt.Sprintf(", %d would be dead-lettered again", again)
	}
	if back > 0 {
		s += fmt.Sprintf(", %d would come back", back)
	}
	return s + fmt.Sprintf(", %d skipped, %d left by IGNORE or no rule; nothing changed", skip, res.Left)
}
