package mqwatch

import (
	"context"
	"math/rand/v2"
	"sync"
	"time"
)

// WatchConfig configures one watcher (one queue manager).
type WatchConfig struct {
	Name      string // queue manager name for display before the first poll
	Connector Connector
	Connect   ConnectOptions
	Interval  time.Duration // default 2s
	// Jitter spreads polls of several watchers: each wait is Interval ±Jitter×Interval.
	Jitter     float64 // default 0.1
	MaxBackoff time.Duration
	Include    []string // queue name patterns (MQSC generic "ORDERS.*" or globs); empty = all
	Exclude    []string // applied after Include; SYSTEM.* is always excluded but the DEADQ
	HeadDepth  int      // messages browsed at the head of input queues (default 50)
	FocusDepth int      // messages browsed on the focused queue (default 1000)
	BodyBytes  int      // body bytes a browse reads (default 4096)
	// Deadline is how long one call to the queue manager may go unanswered
	// before the watcher gives the poll up and reports the queue manager as
	// not answering (NoAnswerError); default twice the interval, at least
	// 10s. It bounds each call, not the poll: a first inventory of a big
	// DEADQ makes many calls, each answered.
	Deadline time.Duration
	// Delay holds the first poll back: a fleet's watchers, started
	// together, spread their first polls (every inventory read whole) over
	// an interval instead of reading them all at the same instant.
	Delay time.Duration
	// A poll that reads a long inventory publishes a partial snapshot every
	// ScanEvery messages (default 20,000) or, once 1,000 more are read,
	// every ScanInterval (default 1s).
	ScanEvery    int
	ScanInterval time.Duration
	Now          func() time.Time

	// delayed, when set, is what the first poll waits on instead of a
	// timer of Delay (tests: export_test.go).
	delayed func(time.Duration) <-chan time.Time
}

func (c *WatchConfig) defaults() {
	if c.Interval <= 0 {
		c.Interval = 2 * time.Second
	}
	if c.Jitter == 0 {
		c.Jitter = 0.1
	}
	if c.MaxBackoff <= 0 {
		c.MaxBackoff = 30 * time.Second
	}
	if c.HeadDepth <= 0 {
		c.HeadDepth = 50
	}
	if c.FocusDepth <= 0 {
		c.FocusDepth = 1000
	}
	if c.BodyBytes <= 0 {
		c.BodyBytes = 4096
	}
	if c.Deadline <= 0 {
		c.Deadline = max(2*c.Interval, 10*time.Second)
	}
	if c.ScanEvery <= 0 {
		c.ScanEvery = defaultScanEvery
	}
	if c.ScanInterval <= 0 {
		c.ScanInterval = defaultScanInterval
	}
	if c.Now == nil {
		c.Now = time.Now
	}
}

// Watcher polls one queue manager and publishes snapshots. It owns its
// goroutine and its connection; the program only reads Snapshots().
type Watcher struct {
	cfg  WatchConfig
	out  chan *Snapshot
	wake chan struct{}

	mu     sync.Mutex
	focus  string
	forget map[string][]Key // by queue

	// lastGood is the last connected snapshot published, what a
	// not-answering snapshot shows; only Run's goroutine uses it.
	lastGood *Snapshot
}

// NewWatcher returns a watcher; Run starts it.
func NewWatcher(cfg WatchConfig) *Watcher {
	cfg.defaults()
	return &Watcher{cfg: cfg, out: make(chan *Snapshot, 1), wake: make(chan struct{}, 1)}
}

// Snapshots delivers the latest snapshot; an unread one is replaced by a newer
// one (latest wins). The channel is closed when Run returns.
func (w *Watcher) Snapshots() <-chan *Snapshot { return w.out }

// Refresh asks for a poll now (after an action, or on ctrl+r).
func (w *Watcher) Refresh() {
	select {
	case w.wake <- struct{}{}:
	default:
	}
}

// SetFocus names the queue whose messages and handles the operator is looking
// at ("" for none) and polls at once.
func (w *Watcher) SetFocus(queue string) {
	w.mu.Lock()
	w.focus = queue
	w.mu.Unlock()
	w.Refresh()
}

// Forget tells the watcher that messages were removed from queue by this
// tool (an action), so its inventory drops them without re-reading the queue.
// Only that queue: a move keeps the MsgId, so the same key may now be on the
// target's inventory.
func (w *Watcher) Forget(queue string, keys ...Key) {
	w.mu.Lock()
	if w.forget == nil {
		w.forget = map[string][]Key{}
	}
	w.forget[queue] = append(w.forget[queue], keys...)
	w.mu.Unlock()
	w.Refresh()
}

func (w *Watcher) takeRequests() (focus string, forget map[string][]Key) {
	w.mu.Lock()
	defer w.mu.Unlock()
	focus, forget = w.focus, w.forget
	w.forget = nil
	return focus, forget
}

// Run polls until ctx ends, then closes its connection and the channel.
func (w *Watcher) Run(ctx context.Context) {
	defer close(w.out)
	p := newPoller(w.cfg)
	p.publish = w.publish
	backoff := time.Duration(0)
	if w.cfg.Delay > 0 {
		t := time.NewTimer(w.cfg.Delay)
		delay := t.C
		if w.cfg.delayed != nil {
			delay = w.cfg.delayed(w.cfg.Delay)
		}
		select {
		case <-ctx.Done():
			t.Stop()
			return
		case <-w.wake:
			t.Stop()
		case <-delay:
		}
	}
	for {
		focus, forget := w.takeRequests()
		snap, ok := w.pollWatched(ctx, p, focus, forget)
		if !ok {
			return // the stuck poll closes the connection when it returns
		}
		if ctx.Err() != nil {
			p.close()
			return
		}
		if snap.Connected {
			w.lastGood = snap
		}
		wait := w.jittered(w.cfg.Interval)
		if snap.Connected {
			backoff = 0
		} else {
			backoff = min(max(2*backoff, w.cfg.Interval), w.cfg.MaxBackoff)
			wait = backoff
			snap.NextRetry = w.cfg.Now().Add(wait)
		}
		w.publish(snap)
		t := time.NewTimer(wait)
		select {
		case <-ctx.Done():
			t.Stop()
			p.close()
			return
		case <-w.wake:
			t.Stop()
		case <-t.C:
		}
	}
}

// publish replaces any unread snapshot with snap.
func (w *Watcher) publish(snap *Snapshot) {
	for {
		select {
		case w.out <- snap:
			return
		default:
		}
		select {
		case <-w.out:
		default:
		}
	}
}

func (w *Watcher) jittered(d time.Duration) time.Duration {
	j := w.cfg.Jitter * float64(d)
	return d + time.Duration((rand.Float64()*2-1)*j)
}
