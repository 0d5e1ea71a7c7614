package embedded

import (
	"context"
	"fmt"
	"math/rand/v2"
	"sync"
	"time"

	"github.com/poisonwatch/poisonwatch/codec/mqfmt"
)

// Fault describes calls to disturb. A call matches when its verb and queue
// match (empty = any); matching calls are counted, the first After of them pass,
// and the next Times of them (every later one when Times is 0) are hit, each
// with chance Probability (always when 0) drawn from the queue manager's seeded
// random source.
type Fault struct {
	Verb  string // VerbPut, VerbGet, ...; "" = every verb
	Queue string // queue or object name as the call names it; "" = any
	// ConnID limits the fault to one connection (Handle.ConnID); "" = any.
	ConnID      string
	After       int
	Times       int
	Probability float64
	// Latency delays a hit call before it runs, as a client round trip would;
	// the call gives up when its context ends.
	Latency time.Duration
	// RC fails a hit call with this reason code (0: the call then runs).
	RC mqfmt.Reason
	// Break breaks the connection at a hit call: the call and every later
	// call on that connection fail with MQRC_CONNECTION_BROKEN (2009), and
	// its open unit of work is backed out, as when a client loses its queue
	// manager.
	Break bool
	// Hang holds a hit call unanswered, whatever its context says, until the
	// fault is removed: a client call stuck on a connection whose peer
	// vanished, which the MQ client ends only when the heartbeat gives up.
	// Latency models a slow answer; Hang one that does not come.
	Hang bool
}

// FaultID identifies an added fault.
type FaultID int

type faultRule struct {
	Fault
	id      FaultID
	matched int
	hits    int
	release chan struct{} // closed when a Hang rule is removed
}

// Faults holds the fault rules of one queue manager.
type Faults struct {
	mu    sync.Mutex
	rules []*faultRule
	next  FaultID
	rng   *rand.Rand
}

func newFaults(seed uint64) *Faults { return &Faults{rng: newRand(seed)} }

// Faults returns the queue manager's fault injection rules.
func (qm *QMgr) Faults() *Faults { return qm.faults }

// Add installs a fault and returns its id.
func (f *Faults) Add(fault Fault) FaultID {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.next++
	r := &faultRule{Fault: fault, id: f.next}
	if fault.Hang {
		r.release = make(chan struct{})
	}
	f.rules = append(f.rules, r)
	return f.next
}

// Remove uninstalls a fault.
func (f *Faults) Remove(id FaultID) {
	f.mu.Lock()
	defer f.mu.Unlock()
	for i, r := range f.rules {
		if r.id == id {
			r.free()
			f.rules = append(f.rules[:i], f.rules[i+1:]...)
			return
		}
	}
}

// Clear uninstalls every fault.
func (f *Faults) Clear() {
	f.mu.Lock()
	for _, r := range f.rules {
		r.free()
	}
	f.rules = nil
	f.mu.Unlock()
}

// free lets the calls a Hang rule holds go on.
func (r *faultRule) free() {
	if r.release != nil {
		close(r.release)
	}
}

// Hits returns how many calls the fault has hit so far.
func (f *Faults) Hits(id FaultID) int {
	f.mu.Lock()
	defer f.mu.Unlock()
	for _, r := range f.rules {
		if r.id == id {
			return r.hits
		}
	}
	return 0
}

// SetLatency delays every call by d, standing in for a client connection's
// round trip. It returns the id of the rule it adds.
func (f *Faults) SetLatency(d time.Duration) FaultID { return f.Add(Fault{Latency: d}) }

// FailNth fails the nth call from now (of any verb, on any connection) with rc.
func (f *Faults) FailNth(n int, rc mqfmt.Reason) FaultID {
	return f.Add(Fault{After: n - 1, Times: 1, RC: rc})
}

// action is what the matching faults do to one call.
type action struct {
	latency time.Duration
	rc      mqfmt.Reason
	brk     bool
	hang    []chan struct{} // every one must be closed before the call goes on
}

func (f *Faults) match(verb, object, connID string) action {
	f.mu.Lock()
	defer f.mu.Unlock()
	var a action
	for _, r := range f.rules {
		if (r.Verb != "" && r.Verb != verb) || (r.Queue != "" && r.Queue != object) ||
			(r.ConnID != "" && r.ConnID != connID) {
			continue
		}
		r.matched++
		if r.matched <= r.After || (r.Times > 0 && r.hits >= r.Times) {
			continue
		}
		if r.Probability > 0 && r.Probability < 1 && f.rng.Float64() >= r.Probability {
			continue
		}
		r.hits++
		a.latency += r.Latency
		if a.rc == 0 {
			a.rc = r.RC
		}
		a.brk = a.brk || r.Break
		if r.release != nil {
			a.hang = append(a.hang, r.release)
		}
	}
	return a
}

// wait holds the call for the latency (given up when ctx ends) and then,
// ignoring ctx, until every Hang rule that hit it is removed.
func (a action) wait(ctx context.Context) error {
	if err := sleepCtx(ctx, a.latency); err != nil {
		return err
	}
	for _, ch := range a.hang {
		<-ch
	}
	return nil
}

// sleepCtx waits d or until ctx ends.
func sleepCtx(ctx context.Context, d time.Duration) error {
	if d <= 0 {
		return nil
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return fmt.Errorf("injected latency: %w", ctx.Err())
	}
}
