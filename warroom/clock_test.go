package warroom

import (
	"sync"
	"testing"
	"time"
)

// sessionClock is a clock for sessions that moves only when a test advances it: a sleep
// waits for the test, a ticker ticks as the test passes its times. Every
// new sleeper and ticker is a signal the test can wait on (until).
type sessionClock struct {
	mu      sync.Mutex
	now     time.Time
	sleeps  []clockSleep
	tickers map[*clockTicker]bool
	started int // tickers started, stopped ones included
	funcs   map[*clockFunc]bool
	changed chan struct{} // closed when a sleeper or a ticker comes
	free    bool          // stopped: sleeps return at once
}

type clockSleep struct {
	until time.Time
	wake  chan struct{}
}

type clockFunc struct {
	at time.Time
	f  func()
}

type clockTicker struct {
	every time.Duration
	next  time.Time
	c     chan time.Time
}

// newSessionClock is a clock at the wall clock's time, freed when t ends so
// no session stays asleep on it.
func newSessionClock(t *testing.T) *sessionClock {
	c := &sessionClock{now: time.Now(), tickers: map[*clockTicker]bool{}, funcs: map[*clockFunc]bool{}, changed: make(chan struct{})}
	t.Cleanup(c.release)
	return c
}

func (c *sessionClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *sessionClock) Sleep(d time.Duration) {
	c.mu.Lock()
	if c.free {
		c.mu.Unlock()
		return
	}
	s := clockSleep{until: c.now.Add(d), wake: make(chan struct{})}
	c.sleeps = append(c.sleeps, s)
	c.signal()
	c.mu.Unlock()
	<-s.wake
}

func (c *sessionClock) Tick(d time.Duration) (<-chan time.Time, func()) {
	c.mu.Lock()
	defer c.mu.Unlock()
	tk := &clockTicker{every: d, next: c.now.Add(d), c: make(chan time.Time, 1)}
	c.tickers[tk] = true
	c.started++
	c.signal()
	return tk.c, func() {
		c.mu.Lock()
		delete(c.tickers, tk)
		c.mu.Unlock()
	}
}

func (c *sessionClock) AfterFunc(d time.Duration, f func()) func() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	fn := &clockFunc{at: c.now.Add(d), f: f}
	c.funcs[fn] = true
	c.signal()
	return func() bool {
		c.mu.Lock()
		defer c.mu.Unlock()
		was := c.funcs[fn]
		delete(c.funcs, fn)
		return was
	}
}

func (c *sessionClock) signal() {
	close(c.changed)
	c.changed = make(chan struct{})
}

// Advance moves the clock by d: the sleeps that end by then return, the
// functions due run and the tickers tick (a slow reader misses ticks, as
// with time.Ticker).
func (c *sessionClock) Advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
	left := c.sleeps[:0]
	for _, s := range c.sleeps {
		if s.until.After(c.now) {
			left = append(left, s)
		} else {
			close(s.wake)
		}
	}
	c.sleeps = left
	for fn := range c.funcs {
		if !fn.at.After(c.now) {
			delete(c.funcs, fn)
			go fn.f()
		}
	}
	for tk := range c.tickers {
		for !tk.next.After(c.now) {
			select {
			case tk.c <- tk.next:
			default:
			}
			tk.next = tk.next.Add(tk.every)
		}
	}
}

// until waits for cond, read under the clock's lock, to hold: it is
// checked again whenever a sleeper or ticker comes. The bound is for a
// broken build, not a measure.
func (c *sessionClock) until(t *testing.T, what string, cond func(c *sessionClock) bool) {
	t.Helper()
	giveUp := time.After(15 * time.Second)
	for {
		c.mu.Lock()
		ok, changed := cond(c), c.changed
		c.mu.Unlock()
		if ok {
			return
		}
		select {
		case <-changed:
		case <-giveUp:
			t.Fatalf("%s: not within 15 s", what)
		}
	}
}

// release wakes every sleeper and lets later sleeps return at once.
func (c *sessionClock) release() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.free = true
	for _, s := range c.sleeps {
		close(s.wake)
	}
	c.sleeps = nil
}
