package model

import (
	"context"
	"os"
	"runtime"
	"runtime/metrics"
	"runtime/pprof"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/poisonwatch/poisonwatch/actions/ops"
)

// BenchmarkRequeueMarks1M requeues 1,000,000 marked DEADQ messages (ctrl+a
// then the requeue, RunMarks over the engine) on the embedded queue
// manager and reports what the run adds to the idle process: the peak of
// the live Go heap (after a collection, every 250 ms) and of the resident
// set above their values just before it (the queue manager's messages, the
// inventory and the marks are in both: the messages move, they are not
// copied; the resident set also holds the collector's headroom over the
// queue manager's churn), how many progress reports came and the longest
// gap between two. The live heap between two runs (sampled before every
// tenth of them, when nothing allocates) is what the queue manager, the
// inventory and the marks hold while the messages move; after the run is
// what stays. A sample taken while a run goes counts what the engine
// allocated during that collection as live (see liveHeapWhileRunning), so
// its peak is reported with that amount beside it. POISONWATCH_MARKS sets
// another count, POISONWATCH_CHUNK another run size, POISONWATCH_HEAPPROFILE
// a file for heap profiles (idle, peak, after). Run it once:
//
//	go test -run '^$' -bench BenchmarkRequeueMarks1M -benchtime 1x ./model/
func BenchmarkRequeueMarks1M(b *testing.B) {
	n := 1_000_000
	if v, err := strconv.Atoi(os.Getenv("POISONWATCH_MARKS")); err == nil && v > 0 {
		n = v
	}
	chunk := RunChunk // POISONWATCH_CHUNK=1000000: the whole selection in one run, as before RunMarks
	if v, err := strconv.Atoi(os.Getenv("POISONWATCH_CHUNK")); err == nil && v > 0 {
		chunk = v
	}
	for range b.N {
		b.StopTimer()
		qm, inv, eng := marksQM(b, n)
		sel := NewSelection()
		for i := range inv.Len() {
			sel.MarkAt(inv, i)
		}
		heap0, rss0 := liveHeap(), rssBytes()
		// Between two runs nothing allocates: the live heap there is the
		// queue manager's, the inventory's and the marks', without the
		// collector counting what a running engine allocates while it marks.
		var between int64
		var reports int
		var last time.Time
		var gap time.Duration
		var runs int
		var sampling time.Duration
		every := max(1, n/chunk/10)
		run := func(ctx context.Context, req ops.OpRequest, progress func(ops.OpProgress)) (ops.OpResult, error) {
			if runs++; runs%every == 0 {
				t := time.Now()
				between = max(between, liveHeap())
				sampling += time.Since(t)
				last = time.Time{} // the sample's collection is not a gap in progress
			}
			return eng.Run(ctx, req, progress)
		}
		writeHeapProfile(b, ".idle")
		peak := samplePeaks(b)
		var ms0, ms1 runtime.MemStats
		runtime.ReadMemStats(&ms0)
		start := time.Now()
		b.StartTimer()
		res, err := RunMarks(context.Background(), run, ops.OpRequest{Op: ops.OpRequeue, QMgr: "QM1", Queue: "QM1.DEADQ"},
			sel, chunk, func(ops.OpProgress) {
				now := time.Now()
				if !last.IsZero() {
					gap = max(gap, now.Sub(last))
				}
				last = now
				reports++
			}, nil)
		b.StopTimer()
		elapsed := time.Since(start) - sampling
		runtime.ReadMemStats(&ms1) // what the run allocated: the garbage a collection of the queue manager's heap lets pile up
		peak.stop()
		after := liveHeap() // the marks and inventory kept, the runs' state gone
		writeHeapProfile(b, ".after")
		if err != nil || res.Done != n {
			b.Fatalf("done %d of %d: %v (%s)", res.Done, n, err, res.Stopped)
		}
		if d := depth(b, qm, "ORDERS.IN"); d != n {
			b.Fatalf("ORDERS.IN has %d, want %d", d, n)
		}
		b.ReportMetric(float64(peak.heap.Load()-heap0)/(1<<20), "MiB-live-heap-above-idle")
		b.ReportMetric(float64(after-heap0)/(1<<20), "MiB-live-heap-after")
		b.ReportMetric(float64(between-heap0)/(1<<20), "MiB-live-heap-between-runs")
		b.ReportMetric(float64(peak.heap.Load()-after)/(1<<20), "MiB-live-heap-peak-over-after")
		b.ReportMetric(float64(peak.during.Load())/(1<<20), "MiB-allocated-during-the-peak's-collection")
		b.ReportMetric(float64(peak.less.Load()-heap0)/(1<<20), "MiB-live-heap-less-allocated-during-above-idle")
		b.ReportMetric(float64(peak.rss.Load()-rss0)/(1<<20), "MiB-RSS-above-idle")
		b.ReportMetric(float64(n)/elapsed.Seconds(), "msgs/s")
		b.ReportMetric(float64(ms1.TotalAlloc-ms0.TotalAlloc)/float64(n), "B-allocated/msg")
		b.ReportMetric(float64(reports), "progress-reports")
		b.ReportMetric(gap.Seconds()*1000, "ms-longest-progress-gap")
		runtime.KeepAlive(sel)
	}
}

// peaks are the highest readings of the process while a run goes: the
// live heap (with what was allocated during that collection), the live heap
// less that allocation, and the resident set.
type peaks struct {
	heap, rss, during, less atomic.Int64
	done                    chan struct{}
	wg                      sync.WaitGroup
}

// samplePeaks samples the process every 250 ms until stop.
func samplePeaks(b *testing.B) *peaks {
	p := &peaks{done: make(chan struct{})}
	p.wg.Add(1)
	go func() {
		defer p.wg.Done()
		for {
			h, during := liveHeapWhileRunning()
			p.less.Store(max(p.less.Load(), h-during))
			if h > p.heap.Load() {
				p.heap.Store(h)
				p.during.Store(during)
				writeHeapProfile(b, "")
			}
			p.rss.Store(max(p.rss.Load(), rssBytes()))
			select {
			case <-p.done:
				return
			case <-time.After(250 * time.Millisecond):
			}
		}
	}()
	return p
}

func (p *peaks) stop() { close(p.done); p.wg.Wait() }

// writeHeapProfile writes the heap profile to $POISONWATCH_HEAPPROFILE, when
// set, at every new peak of the live heap (the last one written is the
// peak's), and the idle and after-run ones to $POISONWATCH_HEAPPROFILE.idle and .after, for
// go tool pprof -base.
func writeHeapProfile(tb testing.TB, suffix string) {
	name := os.Getenv("POISONWATCH_HEAPPROFILE")
	if name == "" {
		return
	}
	f, err := os.Create(name + suffix)
	if err != nil {
		tb.Error(err)
		return
	}
	defer f.Close()
	if err := pprof.WriteHeapProfile(f); err != nil {
		tb.Error(err)
	}
}

// liveHeapWhileRunning is liveHeap taken while the run goes, with what was
// allocated during that collection: the collector counts everything
// allocated while it marks as live for that cycle, whether or not it is
// still referenced at the end, and on a heap of a million queued messages
// the marking takes long enough for a running engine to allocate tens of
// MiB. The live heap less that figure is a lower bound of what was really
// live, the live heap an upper one.
func liveHeapWhileRunning() (live, during int64) {
	s := []metrics.Sample{{Name: "/gc/heap/allocs:bytes"}}
	metrics.Read(s)
	a0 := s[0].Value.Uint64()
	live = liveHeap()
	metrics.Read(s)
	return live, int64(s[0].Value.Uint64() - a0)
}

// liveHeap is the heap the collector found live: HeapAlloc after a
// collection would add what the run allocated while it marked, which on a
// heap of a million queued messages is hundreds of MiB.
func liveHeap() int64 {
	runtime.GC()
	s := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	metrics.Read(s)
	return int64(s[0].Value.Uint64())
}

// rssBytes is the process's resident set (Linux), 0 elsewhere.
func rssBytes() int64 {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0
	}
	for _, l := range strings.Split(string(b), "\n") {
		if f := strings.Fields(l); len(f) == 3 && f[0] == "VmRSS:" {
			kb, _ := strconv.ParseInt(f[1], 10, 64)
			return kb << 10
		}
	}
	return 0
}
