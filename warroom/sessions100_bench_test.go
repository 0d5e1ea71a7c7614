//go:build unix

package warroom

import (
	"fmt"
	"syscall"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/poisonwatch/poisonwatch/ui"
)

// BenchmarkWarRoomSessions measures serve's room at 1, 20 and 100
// sessions on the in-process transport: each session a dashboard App
// showing the room's model, as serve runs them, its program loop run by
// hand so that every poll, folded once, is rendered once per session. One op
// is one poll of a queue manager with 1,000 dead letters, done when every
// session has rendered the frame with it.
//
// calls/poll are the MQ calls the queue manager counted (the same at any
// audience); KiB/session is the live heap each session adds; cpu-us/session
// is the process CPU time of the poll (the poll itself, the fan-out, every
// session's Update and View) divided by the sessions; the goal is 1 MB and
// 1 ms per session per poll. deadq=1000000 is the room over a million dead
// letters (benchmarkRoomAtAMillion):
//
//	go test -run '^$' -bench 'BenchmarkWarRoomSessions/sessions' -benchtime 20x ./warroom/
func BenchmarkWarRoomSessions(b *testing.B) {
	for _, n := range []int{1, 20, 100} {
		b.Run(fmt.Sprintf("sessions=%d", n), func(b *testing.B) {
			e := newFeedEnv(b, 1000)
			e.poll(b) // the first snapshots, garbage once replaced, are not the sessions'
			e.poll(b)
			before := heap()
			frames := make(chan struct{}, n)
			for range n {
				e.drive(b, frames, benchSizes[0], nil)
			}
			poll := func() int64 {
				calls := e.poll(b)
				for range n {
					<-frames
				}
				return calls
			}
			poll()
			poll()
			perSession := float64(heap()-before) / float64(n)
			var calls int64
			var cpu time.Duration
			b.ResetTimer()
			for range b.N {
				t0 := processCPU()
				calls += poll()
				cpu += processCPU() - t0
			}
			b.StopTimer()
			b.ReportMetric(float64(calls)/float64(b.N), "calls/poll")
			b.ReportMetric(perSession/1024, "KiB/session")
			b.ReportMetric(float64(cpu.Microseconds())/float64(b.N)/float64(n), "cpu-us/session")
		})
	}
	b.Run("deadq=1000000", benchmarkRoomAtAMillion)
}

// benchSizes are the terminals the benchmarks' sessions open: the first
// for all of them, unless a case spreads them over more.
var benchSizes = []tea.WindowSizeMsg{{Width: 120, Height: 40}, {Width: 80, Height: 24}, {Width: 200, Height: 60}}

// drive starts a session whose program loop is run by hand, on a terminal
// of size, seated in a war room (nil: none): each picture it receives is
// taken (Update) and rendered (View), then counted on frames.
func (e *feedEnv) drive(b *testing.B, frames chan<- struct{}, size tea.WindowSizeMsg, seat ui.Room) {
	app, release := e.sessionIn(seat)
	msgs := make(chan tea.Msg, 16)
	exec := e.commands(msgs)
	exec(app.Init())
	app.Update(size)
	_ = app.View()
	go func() {
		for {
			select {
			case m := <-msgs:
				if m == nil {
					continue
				}
				_, c := app.Update(m)
				exec(c)
				if fmt.Sprintf("%T", m) == "ui.pictureMsg" {
					_ = app.View()
					frames <- struct{}{}
				}
			case <-e.ctx.Done():
				return
			}
		}
	}()
	b.Cleanup(release)
}

func processCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
