//go:build unix

package cli

import (
	"context"
	"fmt"
	"runtime"
	"syscall"
	"testing"
	"time"

	"github.com/charmbracelet/lipgloss"
	"github.com/muesli/termenv"

	"github.com/poisonwatch/poisonwatch/model"
	"github.com/poisonwatch/poisonwatch/themes"
)

// fleetInterval is the poll interval a fleet is watched at.
const fleetInterval = 5 * time.Second

// BenchmarkFleet measures one process watching a generated fleet of 1,000
// queues per queue manager (--scenario fleet:Nx1000) at a 5 s interval, the
// issue's target being at most one core on average and 500 MiB.
//
// mode=cycle: one op is one poll cycle of the whole fleet, every watcher
// polled once (Refresh) and its snapshot folded into the model, as the
// dashboard does each interval. cpu-ms/cycle is the process CPU time of the
// cycle; cores@5s is that over 5 s, the share of one core the fleet costs
// at the interval.
//
// mode=live: one op is 5 s of the dashboard as `poisonwatch --scenario
// fleet:Nx1000 --interval 5s` runs it (watchers, folds, every frame
// rendered), the embedded queue managers and their demo workload included
// in the same process; cores is its CPU time over the 5 s.
//
// Both report the live heap after a GC for everything (heap-MiB) and for
// the watchers and model alone (watch-heap-MiB: what watching real queue
// managers would cost; the rest is the embedded fleet itself), and the
// process's peak RSS. Run each size on its own so the peak is its own:
//
//	go test -run '^$' -bench 'BenchmarkFleet/qmgrs=50/mode=cycle' -benchtime 10x .
//	go test -run '^$' -bench 'BenchmarkFleet/qmgrs=50/mode=live' -benchtime 4x .
func BenchmarkFleet(b *testing.B) {
	for _, n := range []int{10, 50} {
		for _, mode := range []string{"cycle", "live"} {
			b.Run(fmt.Sprintf("qmgrs=%d/mode=%s", n, mode), func(b *testing.B) {
				f := startFleet(b, n)
				defer f.stop()
				if mode == "cycle" {
					f.cycles(b)
				} else {
					f.live(b)
				}
			})
		}
	}
}

// benchFleet is a warmed-up generated fleet on the embedded backend.
type benchFleet struct {
	be        *backend
	ctx       context.Context
	stop      func()
	fleetHeap uint64 // live heap with the fleet running, before any watcher
}

func startFleet(b *testing.B, n int) *benchFleet {
	b.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	be, err := startBackend(ctx, tuiOpts{backend: "embedded", scenario: fmt.Sprintf("fleet:%dx1000", n)})
	if err != nil {
		cancel()
		b.Fatal(err)
	}
	<-be.warm
	return &benchFleet{be: be, ctx: ctx, stop: func() { cancel(); be.stop() }, fleetHeap: liveHeap()}
}

// cycles polls the fleet once per op with watchers that poll only when asked.
func (f *benchFleet) cycles(b *testing.B) {
	ctx, cancel := context.WithCancel(f.ctx)
	sources, wait := startWatchers(ctx, tuiOpts{interval: time.Hour}, f.be)
	defer func() { cancel(); wait() }()
	st := model.New(f.be.now, fleetInterval)
	poll := func() (calls int) {
		for _, s := range sources {
			s.Refresh()
		}
		for _, s := range sources {
			snap := <-s.Snapshots()
			st.Fold(snap)
			calls += snap.Poll.Calls
		}
		return calls
	}
	// The first polls read every inventory whole: not the steady state.
	for range 2 {
		poll()
	}
	var cpu cpuSpan
	calls := 0
	b.ResetTimer()
	for b.Loop() {
		cpu.begin()
		calls += poll()
		cpu.end()
	}
	b.StopTimer()
	cpu.report(b, b.N, "cpu-ms/cycle", fleetInterval)
	b.ReportMetric(float64(calls)/float64(b.N), "calls/cycle")
	f.memory(b, st)
}

// live runs the dashboard for 5 s per op, as the binary does.
func (f *benchFleet) live(b *testing.B) {
	th, err := themes.Load("dark")
	if err != nil {
		b.Fatal(err)
	}
	r := lipgloss.NewRenderer(nil)
	r.SetColorProfile(termenv.Ascii)
	ctx, cancel := context.WithCancel(f.ctx)
	app, wait := newDashboard(ctx, tuiOpts{interval: fleetInterval}, f.be, th, r)
	defer func() { cancel(); wait() }()
	d := newDriver(ctx, app, 200, 60)
	run := func(dur time.Duration) {
		end := time.After(dur)
		for {
			select {
			case m := <-d.msgs:
				if m == nil {
					continue
				}
				_, c := app.Update(m)
				d.exec(c)
				_ = app.View()
			case <-end:
				return
			}
		}
	}
	run(2 * fleetInterval) // the first polls read every inventory whole
	var cpu cpuSpan
	b.ResetTimer()
	for b.Loop() {
		cpu.begin()
		run(fleetInterval)
		cpu.end()
	}
	b.StopTimer()
	cpu.report(b, b.N, "cpu-ms/5s", fleetInterval)
	f.memory(b, app)
}

// memory reports the live heap, all of it and the part that is not the
// embedded fleet, and the peak RSS; keep is what must stay alive meanwhile.
func (f *benchFleet) memory(b *testing.B, keep any) {
	heap := liveHeap()
	runtime.KeepAlive(keep)
	b.ReportMetric(float64(heap)/(1<<20), "heap-MiB")
	b.ReportMetric((float64(heap)-float64(f.fleetHeap))/(1<<20), "watch-heap-MiB")
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) == nil {
		b.ReportMetric(float64(ru.Maxrss)/1024, "peak-rss-MiB") // KiB on Linux
	}
}

func liveHeap() uint64 {
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return ms.HeapAlloc
}

// cpuSpan sums the process CPU time (user and system) of timed sections:
// on a shared machine wall-clock time grows with other load, CPU time not.
type cpuSpan struct {
	total, start time.Duration
	broken       bool
}

func processCPU() (time.Duration, bool) {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0, false
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano()), true
}

func (c *cpuSpan) begin() {
	var ok bool
	c.start, ok = processCPU()
	c.broken = c.broken || !ok
}

func (c *cpuSpan) end() {
	t, ok := processCPU()
	c.broken = c.broken || !ok
	c.total += t - c.start
}

// report adds the mean CPU milliseconds per op as unit, and the cores that
// is at one op per period.
func (c *cpuSpan) report(b *testing.B, n int, unit string, period time.Duration) {
	if c.broken || n == 0 {
		return
	}
	per := c.total / time.Duration(n)
	b.ReportMetric(float64(per.Microseconds())/1000, unit)
	b.ReportMetric(float64(per)/float64(period), "cores@5s")
}
