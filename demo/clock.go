package demo

import (
	"container/heap"
	"sync/atomic"
	"time"
)

// clock is the time the queue managers and the actors see: virtual while a
// simulation or the live demo's warmup runs, the wall clock afterwards. The
// queue managers read it from their own goroutines (channel agents, the
// dashboard's watchers), hence the atomics.
type clock struct {
	virtual atomic.Bool
	ns      atomic.Int64 // virtual time, Unix nanoseconds
}

func newVirtualClock(start time.Time) *clock {
	c := &clock{}
	c.ns.Store(start.UnixNano())
	c.virtual.Store(true)
	return c
}

// Now returns the current time.
func (c *clock) Now() time.Time {
	if c.virtual.Load() {
		return time.Unix(0, c.ns.Load())
	}
	return time.Now()
}

// advance moves virtual time forward to t; it never goes back.
func (c *clock) advance(t time.Time) {
	if n := t.UnixNano(); n > c.ns.Load() {
		c.ns.Store(n)
	}
}

// goReal switches to the wall clock. Virtual time never passes the wall
// clock, so time stays monotonic across the switch.
func (c *clock) goReal() { c.virtual.Store(false) }

// actor is a producer, a consumer instance or an event: the scheduler calls
// step at the time it asked for, and step says when to call it next, or
// false when it is done.
type actor interface {
	step(now time.Time) (next time.Time, again bool)
}

type slot struct {
	at  time.Time
	seq uint64 // breaks ties in the order actors were scheduled: determinism
	a   actor
}

// agenda is a min-heap of actors by due time.
type agenda struct {
	slots []slot
	seq   uint64
}

func (g *agenda) Len() int { return len(g.slots) }
func (g *agenda) Less(i, j int) bool {
	a, b := &g.slots[i], &g.slots[j]
	if !a.at.Equal(b.at) {
		return a.at.Before(b.at)
	}
	return a.seq < b.seq
}
func (g *agenda) Swap(i, j int) { g.slots[i], g.slots[j] = g.slots[j], g.slots[i] }
func (g *agenda) Push(x any)    { g.slots = append(g.slots, x.(slot)) }
func (g *agenda) Pop() any {
	s := g.slots[len(g.slots)-1]
	g.slots = g.slots[:len(g.slots)-1]
	return s
}

func (g *agenda) schedule(at time.Time, a actor) {
	g.seq++
	heap.Push(g, slot{at: at, seq: g.seq, a: a})
}

func (g *agenda) peek() (slot, bool) {
	if len(g.slots) == 0 {
		return slot{}, false
	}
	return g.slots[0], true
}

func (g *agenda) pop() slot { return heap.Pop(g).(slot) }
