//go:build unix

package warroom

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/poisonwatch/poisonwatch/backend/genqm"

	"github.com/poisonwatch/poisonwatch/model"
	"github.com/poisonwatch/poisonwatch/mqwatch"
	"github.com/poisonwatch/poisonwatch/ui"
)

// benchmarkRoomAtAMillion is BenchmarkWarRoomSessions over issue 39's queue
// manager: a DEADQ of 1,000,000 dead letters and 999 other queues (a
// generated queue manager, as cli's TestDeadQTrackedRSS), gaining 100 dead
// letters a poll, with 1, 10 and 50 sessions at 120x40, 50 spread over
// three terminal sizes (sizes=3: 120x40, 80x24, 200x60, which draw three
// dashboards), and 50 seated in a war room (room: as serve seats them,
// each header's presence line its own). cpu-ms/poll is the process's
// CPU time (user and system) from the poll to the last session's frame:
// the poll, the room's fold and picture, every session's Update and View.
// MiB/session is the live heap each session adds. Goals (issue 39): at 50
// sessions, CPU per poll at most twice one session's, and at most 0.5 MiB
// of live heap a session.
//
//	go test -run '^$' -bench 'BenchmarkWarRoomSessions/deadq=1000000' -benchtime 20x ./warroom/
func benchmarkRoomAtAMillion(b *testing.B) {
	env, err := millionRoom()
	if err != nil {
		b.Fatal(err)
	}
	for _, c := range []struct {
		n, sizes int
		room     bool
	}{{1, 1, false}, {10, 1, false}, {50, 1, false}, {50, 3, false}, {50, 1, true}} {
		n, name := c.n, fmt.Sprintf("sessions=%d", c.n)
		if c.sizes > 1 {
			name += fmt.Sprintf(",sizes=%d", c.sizes)
		}
		var room *Room
		if c.room {
			name, room = name+",room", NewRoom()
		}
		b.Run(name, func(b *testing.B) {
			ctx, cancel := context.WithCancel(env.ctx)
			defer cancel() // ends the sessions' program loops
			e := *env
			e.ctx = ctx
			frames := make(chan struct{}, n)
			poll := func() {
				e.pollGen(b)
				for range n {
					<-frames
				}
			}
			before := heap()
			for i := range n {
				e.drive(b, frames, benchSizes[i%c.sizes], seatIn(room, i))
			}
			poll()
			poll()
			perSession := float64(heap()-before) / float64(n)
			var cpu time.Duration
			b.ResetTimer()
			for range b.N {
				t0 := processCPU()
				poll()
				cpu += processCPU() - t0
			}
			b.StopTimer()
			b.ReportMetric(float64(cpu.Microseconds())/1000/float64(b.N), "cpu-ms/poll")
			b.ReportMetric(perSession/(1<<20), "MiB/session")
		})
	}
}

// seatIn seats session i in room as an operator of its own name, so each
// header's presence line differs ("(you)"); nil without a room.
func seatIn(room *Room, i int) ui.Room {
	if room == nil {
		return nil
	}
	return room.Join(Identity{User: fmt.Sprintf("op%02d", i), Role: Operator})
}

// millionRoom is the room over the generated queue manager, built once per
// process: the watcher's first read of a million dead letters takes longer
// than the measurements.
var millionRoom = sync.OnceValues(func() (*feedEnv, error) {
	g := genqm.New(1_000_000, 0, 0)
	ctx := context.Background()
	w := mqwatch.NewWatcher(mqwatch.WatchConfig{Name: "QM1", Connector: g, Interval: time.Hour})
	go w.Run(ctx)
	fold := NewFold(model.New(nil, time.Hour))
	f := NewFeed(named{w, "QM1"}, fold)
	go f.Run(ctx)
	e := &feedEnv{w: w, feed: f, fold: fold, probe: f.Subscribe(), ctx: ctx}
	if err := e.waitFull(10 * time.Minute); err != nil { // the first poll reads every message
		return nil, err
	}
	g.Grown.Store(true)
	return e, nil
})

// pollGen asks for one poll of the generated queue manager and waits until
// the probe session has it.
func (e *feedEnv) pollGen(t testing.TB) {
	t.Helper()
	e.w.Refresh()
	if err := e.waitFull(time.Minute); err != nil {
		t.Fatal(err)
	}
}

// waitFull waits for a whole poll's snapshot newer than the last: a long
// read publishes partial ones as it goes.
func (e *feedEnv) waitFull(limit time.Duration) error {
	deadline := time.After(limit)
	for {
		select {
		case snap := <-e.probe.Snapshots():
			if snap.Seq > e.seq && !snap.Partial() {
				e.seq = snap.Seq
				return nil
			}
		case <-deadline:
			return fmt.Errorf("no whole poll within %v", limit)
		}
	}
}
