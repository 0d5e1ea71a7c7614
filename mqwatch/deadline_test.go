package mqwatch_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"go.uber.org/goleak"

	"github.com/poisonwatch/poisonwatch/backend/embedded"
	"github.com/poisonwatch/poisonwatch/backend/embedded/embeddedtest"
	"github.com/poisonwatch/poisonwatch/mqwatch"
)

// fleetSnap is one snapshot and the watcher (index) that published it.
type fleetSnap struct {
	i    int
	snap *mqwatch.Snapshot
}

// watchFleet starts a watcher on each queue manager, every one with its own
// deadline, and merges what they publish into one channel.
func watchFleet(t *testing.T, qms []*embeddedtest.QM, interval, deadline time.Duration) (<-chan fleetSnap, func()) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	out := make(chan fleetSnap, 64)
	done := make(chan struct{}, 2*len(qms))
	for i, qm := range qms {
		w := mqwatch.NewWatcher(mqwatch.WatchConfig{Name: qm.Name(), Connector: qm, Interval: interval, Deadline: deadline})
		go func() { w.Run(ctx); done <- struct{}{} }()
		go func() {
			for s := range w.Snapshots() {
				select {
				case out <- fleetSnap{i, s}:
				case <-ctx.Done():
				}
			}
			done <- struct{}{}
		}()
	}
	return out, func() {
		cancel()
		for range 2 * len(qms) {
			<-done
		}
	}
}

// next waits for the next snapshot of the fleet. The bound only keeps a
// broken watcher from hanging the test: it is no measure of speed.
func next(t *testing.T, ch <-chan fleetSnap, giveUp <-chan time.Time) fleetSnap {
	t.Helper()
	select {
	case s := <-ch:
		return s
	case <-giveUp:
		t.Fatal("gave up waiting after a minute")
	}
	return fleetSnap{}
}

// TestHungQMgrDoesNotSlowTheOthers: one of ten queue managers stops
// answering. The other nine keep publishing at their interval while the
// hung one's watcher waits out its deadline, the hung one reads as not
// answering (stale, last good figures kept) without waiting for the call,
// and it recovers when the queue manager answers again. Both ways a call
// can hang are covered: one that gives up when its context ends (a slow
// network) and one that ignores it (a call stuck in the MQ client).
func TestHungQMgrDoesNotSlowTheOthers(t *testing.T) {
	defer goleak.VerifyNone(t)
	const interval, deadline, n = 20 * time.Millisecond, 400 * time.Millisecond, 10
	for _, tc := range []struct {
		name  string
		fault embedded.Fault
	}{
		{"call honours its context", embedded.Fault{Latency: time.Hour}},
		{"call ignores its context", embedded.Fault{Hang: true}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var qms []*embeddedtest.QM
			for i := range n {
				qms = append(qms, embeddedtest.New(t, embeddedtest.Options{Name: fmt.Sprintf("QM%02d", i), MQSC: setup}))
			}
			ch, stop := watchFleet(t, qms, interval, deadline)
			defer stop()
			giveUp := time.After(time.Minute)
			connected := map[int]bool{}
			for len(connected) < n {
				if s := next(t, ch, giveUp); s.snap.Connected {
					connected[s.i] = true
				}
			}
			hung := qms[0].Faults().Add(tc.fault)
			defer qms[0].Faults().Clear() // a failed test must not leave the call hung
			polls := make([]int, n)       // connected snapshots of each healthy watcher
			var report *mqwatch.Snapshot
			for report == nil {
				s := next(t, ch, giveUp)
				switch {
				case s.i != 0:
					if s.snap.Connected {
						polls[s.i]++
					}
				case !s.snap.Connected && mqwatch.IsNoAnswer(s.snap.Err):
					report = s.snap
				case s.snap.Connected:
					// a poll under way when the fault came
				default:
					t.Fatalf("hung queue manager reported %v, want no answer", s.snap.Err)
				}
			}
			// The deadline is twenty intervals: a healthy watcher held up by
			// the hung one would have published once or not at all.
			for i := 1; i < n; i++ {
				if polls[i] < 4 {
					t.Errorf("%s published %d snapshots while %s hung; want its own pace", qms[i].Name(), polls[i], qms[0].Name())
				}
			}
			if !report.Stale || len(report.Queues) == 0 || !strings.Contains(report.Err.Error(), "no answer to") {
				t.Fatalf("not-answering snapshot: stale %v, %d queues, err %v; want the last good figures marked stale",
					report.Stale, len(report.Queues), report.Err)
			}
			qms[0].Faults().Remove(hung)
			for {
				if s := next(t, ch, giveUp); s.i == 0 && s.snap.Connected {
					break
				}
			}
		})
	}
}

// A delayed watcher does not poll before its delay, unless asked to.
func TestWatcherDelayHoldsTheFirstPoll(t *testing.T) {
	defer goleak.VerifyNone(t)
	qm := newQM(t)
	cfg := mqwatch.WatchConfig{Name: "QM1", Connector: qm, Interval: time.Hour, Delay: time.Hour}
	waiting := make(chan time.Duration, 1)
	mqwatch.DelayOn(&cfg, func(d time.Duration) <-chan time.Time { waiting <- d; return nil }) // an hour that never ends
	w := mqwatch.NewWatcher(cfg)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { w.Run(ctx); close(done) }()
	defer func() { cancel(); <-done }()
	select {
	case d := <-waiting:
		if d != time.Hour {
			t.Fatalf("the watcher waits %s, want its hour's delay", d)
		}
	case <-time.After(10 * time.Second): // a bound for a broken build
		t.Fatal("the watcher never waited its delay")
	}
	select {
	case s := <-w.Snapshots():
		t.Fatalf("a poll before the hour's delay: %+v", s)
	default:
	}
	if n := qm.Stats().Verbs[embedded.VerbConnect].Calls; n != 0 {
		t.Fatalf("%d connections during the delay", n)
	}
	if s := pollOnce(t, w); !s.Connected {
		t.Fatalf("Refresh during the delay: %v", s.Err)
	}
}
