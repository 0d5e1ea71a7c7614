package promfleet

import (
	"context"
	"sync"
	"time"

	"github.com/poisonwatch/poisonwatch/model"
)

// Poller refreshes the fleet every interval and publishes each answer to
// whoever waits: the dashboard's fleet view, or every session of a war
// room (poisonwatch serve --prometheus), which share one refresh rather
// than each asking Prometheus. The next refresh starts an interval after
// the last one ended, so a slow Prometheus is never asked twice at once.
type Poller struct {
	c     *Client
	every time.Duration

	mu      sync.Mutex
	cur     *model.RemoteFleet
	seq     uint64
	changed chan struct{} // closed, and replaced, at each publication
	kick    chan struct{}
}

// NewPoller makes a poller that starts from first, an answer already read
// (the check at start), or nil.
func NewPoller(c *Client, every time.Duration, first *model.RemoteFleet) *Poller {
	p := &Poller{c: c, every: every, changed: make(chan struct{}), kick: make(chan struct{}, 1)}
	if first != nil {
		p.cur, p.seq = first, 1
	}
	return p
}

// Source is the query API's URL, credentials removed.
func (p *Poller) Source() string { return p.c.Source() }

// Run refreshes until ctx ends: at once unless a first answer was given,
// then an interval after each refresh ends, or at once when asked.
func (p *Poller) Run(ctx context.Context) {
	wait := time.Duration(0)
	if p.Seq() > 0 {
		wait = p.every
	}
	t := time.NewTimer(wait)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		case <-p.kick:
		}
		p.refresh(ctx)
		t.Reset(p.every)
	}
}

// refresh reads the fleet once and publishes it; a failed read publishes
// the last answer's rows with the error, so the view says both what it
// last knew and that it is old.
func (p *Poller) refresh(ctx context.Context) {
	f, err := p.c.Fetch(ctx)
	if ctx.Err() != nil {
		return
	}
	if err != nil {
		prev, _ := p.Latest()
		f = &model.RemoteFleet{Source: p.c.Source()}
		if prev != nil {
			*f = *prev
		}
		f.Err, f.Failed = err, p.c.cfg.Now()
	}
	p.publish(f)
}

func (p *Poller) publish(f *model.RemoteFleet) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.cur = f
	p.seq++
	close(p.changed)
	p.changed = make(chan struct{})
}

// Refresh asks for a refresh now (the r key); a refresh already asked for
// and not begun is not asked twice.
func (p *Poller) Refresh() {
	select {
	case p.kick <- struct{}{}:
	default:
	}
}

// Seq is the number of answers published so far.
func (p *Poller) Seq() uint64 {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.seq
}

// Latest is the newest answer and its number (nil and 0 before the first).
func (p *Poller) Latest() (*model.RemoteFleet, uint64) {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.cur, p.seq
}

// Next waits for an answer newer than after and returns it; ok is false
// when ctx ended first.
func (p *Poller) Next(ctx context.Context, after uint64) (f *model.RemoteFleet, seq uint64, ok bool) {
	for {
		p.mu.Lock()
		f, seq, ch := p.cur, p.seq, p.changed
		p.mu.Unlock()
		if seq > after {
			return f, seq, true
		}
		select {
		case <-ch:
		case <-ctx.Done():
			return nil, 0, false
		}
	}
}
