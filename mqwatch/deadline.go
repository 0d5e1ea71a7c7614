package mqwatch

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"
)

// NoAnswerError says a call to the queue manager went unanswered for the
// watcher's deadline: the queue manager, or the network to it, stopped
// answering. No reason code says that, because no answer came.
type NoAnswerError struct {
	Call  string        // the call waited on: MQCONNX, MQINQ, INQUIRE_Q, MQGET, ...
	After time.Duration // how long it had gone unanswered
}

func (e *NoAnswerError) Error() string {
	return fmt.Sprintf("no answer to %s for %s", e.Call, e.After.Round(100*time.Millisecond))
}

// IsNoAnswer reports whether err says the queue manager stopped answering.
func IsNoAnswer(err error) bool {
	var e *NoAnswerError
	return errors.As(err, &e)
}

// callWatch is the call a poll is waiting on and since when. The poll's
// goroutine writes it around every call; the watcher reads it to tell a
// slow poll (many calls, each answered: a first inventory of a big DEADQ)
// from a queue manager that stopped answering (one call, unanswered).
type callWatch struct {
	mu    sync.Mutex
	call  string
	since time.Time // zero while no call is in flight
}

func (w *callWatch) begin(call string) {
	w.mu.Lock()
	w.call, w.since = call, time.Now()
	w.mu.Unlock()
}

func (w *callWatch) end() {
	w.mu.Lock()
	w.since = time.Time{}
	w.mu.Unlock()
}

// waiting returns the call in flight and how long it has waited (0 when none).
func (w *callWatch) waiting(now time.Time) (string, time.Duration) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.since.IsZero() {
		return "", 0
	}
	return w.call, now.Sub(w.since)
}

// pollWatched runs one poll on a goroutine of its own and watches its calls.
// A call unanswered past the deadline cancels the poll, which a backend
// that honours its context ends at once; one that does not (a cgo call
// stuck in the MQ client) keeps the poll waiting, and the watcher then
// publishes a snapshot saying the queue manager does not answer, so the
// program learns it now and not when the call returns. Deadlines are wall
// clock: cfg.Now may be a scenario's virtual clock. It returns false when
// ctx ended while the poll was stuck; the poll closes its connection when
// it returns.
func (w *Watcher) pollWatched(ctx context.Context, p *poller, focus string, forget map[string][]Key) (*Snapshot, bool) {
	pctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	res := make(chan *Snapshot, 1)
	go func() { res <- p.poll(pctx, focus, forget) }()
	check := time.NewTicker(max(w.cfg.Deadline/4, time.Millisecond))
	defer check.Stop()
	var late *NoAnswerError
	reported := false
	for {
		select {
		case s := <-res:
			if late != nil && !s.Connected && ctx.Err() == nil {
				s.Err = late
			}
			return s, true
		case <-ctx.Done():
			select {
			case s := <-res:
				return s, true
			case <-time.After(w.cfg.Deadline):
				go func() { <-res; p.close() }()
				return nil, false
			}
		case now := <-check.C:
			call, d := p.watch.waiting(now)
			switch {
			case d <= w.cfg.Deadline:
			case late == nil:
				late = &NoAnswerError{Call: call, After: d}
				cancel(late)
			case d > w.cfg.Deadline+w.cfg.Deadline/2 && !reported:
				// Cancelled a while ago and still no answer: the call
				// ignores its context.
				reported = true
				w.publish(w.notAnswering(&NoAnswerError{Call: call, After: d}))
			}
		}
	}
}

// notAnswering is the last good snapshot marked stale with the error, as a
// failed poll's snapshot is; nothing of the stuck poll is in it.
func (w *Watcher) notAnswering(err error) *Snapshot {
	if w.lastGood == nil {
		return &Snapshot{QMgrName: w.cfg.Name, Err: err, Time: w.cfg.Now()}
	}
	s := *w.lastGood
	s.Connected, s.Stale, s.Err = false, true, err
	s.Deltas, s.Poll, s.NextRetry = nil, PollStats{}, time.Time{}
	return &s
}
