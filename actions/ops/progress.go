package ops

import (
	"context"
	"sync"
	"time"

	"golang.org/x/time/rate"
)

// opLimiter spaces messages evenly at a rate shared by every worker of a
// run: a token bucket of one, so a pause never buys a burst. Time and
// waiting are injectable so tests count the waits instead of timing them.
type opLimiter struct {
	lim   *rate.Limiter
	now   func() time.Time
	sleep func(ctx context.Context, d time.Duration) error
}

// newLimiter returns nil (no limit) for rate 0.
func newLimiter(perSecond float64, now func() time.Time, sleep func(context.Context, time.Duration) error) *opLimiter {
	if perSecond <= 0 {
		return nil
	}
	return &opLimiter{lim: rate.NewLimiter(rate.Limit(perSecond), 1), now: now, sleep: sleep}
}

// wait blocks until the next message may go, or ctx ends.
func (l *opLimiter) wait(ctx context.Context) error {
	if l == nil {
		return ctx.Err()
	}
	now := l.now()
	return l.sleep(ctx, l.lim.ReserveN(now, 1).DelayFrom(now))
}

// opProgress counts a run's outcomes and reports them. Reports are
// serialised, so the callback needs no locking of its own.
type opProgress struct {
	mu      sync.Mutex
	fn      func(OpProgress)
	now     func() time.Time
	start   time.Time
	total   int
	done    int
	skipped int
	failed  int
	inDoubt int
}

func newProgress(fn func(OpProgress), now func() time.Time, total int) *opProgress {
	return &opProgress{fn: fn, now: now, start: now(), total: total}
}

// add counts outcomes and reports when anything was counted.
func (p *opProgress) add(done, skipped, failed, inDoubt int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.done += done
	p.skipped += skipped
	p.failed += failed
	p.inDoubt += inDoubt
	if done+skipped+failed+inDoubt > 0 {
		p.reportLocked()
	}
}

// final reports the end state once more.
func (p *opProgress) final() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.reportLocked()
}

func (p *opProgress) reportLocked() {
	if p.fn == nil {
		return
	}
	now := p.now()
	ev := OpProgress{Done: p.done, Total: p.total, Skipped: p.skipped, Failed: p.failed + p.inDoubt}
	if el := now.Sub(p.start); el > 0 && p.done > 0 {
		ev.Rate = float64(p.done) / el.Seconds()
		left := p.total - p.done - p.skipped - p.failed - p.inDoubt
		ev.ETA = time.Duration(float64(left) / ev.Rate * float64(time.Second))
	}
	p.fn(ev)
}

// counts returns done, skipped, failed and in-doubt so far.
func (p *opProgress) counts() (int, int, int, int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.done, p.skipped, p.failed, p.inDoubt
}
