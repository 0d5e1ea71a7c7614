package mqwatch_test

import (
	"context"
	"testing"
	"time"

	"github.com/poisonwatch/poisonwatch/mqwatch"
)

// BenchmarkRefresh measures one steady-state poll of the issue-5 queue
// manager (1,000 queues, a DEADQ 100,000 deep, 10 BOQs of 10,000, 100 new
// dead letters per poll) in MQI calls and message bytes as the queue
// manager's own accounting counts them, for the watcher's incremental
// browsing and for a naive poller that re-reads every BOQ and DEADQ message.
// Building the queue manager (tens of seconds) and the first, full poll are
// outside the timers. After both strategies ran it fails unless incremental
// polls cost at least 100 times fewer calls and bytes.
//
// deadq=1000000 is the same queue manager with a DEADQ of a million (issue
// 17; minutes to build): a steady poll must cost the same calls and bytes
// as at 100,000, and it fails otherwise when both ran.
//
//	go test -run '^$' -bench BenchmarkRefresh ./mqwatch/
//	go test -run '^$' -bench 'BenchmarkRefresh/(strategy=incremental|deadq=1000000)/' -benchtime 20x ./mqwatch/
func BenchmarkRefresh(b *testing.B) {
	var env *steadyQM
	var inc *incremental
	defer func() {
		if inc != nil {
			inc.stop()
		}
	}()
	// Built on first use, for the parent benchmark: a sub-benchmark's
	// function runs once per round, and its cleanups run after each.
	parent := b
	issue5QM := func(*testing.B) *steadyQM {
		if env == nil {
			env = newSteadyQM(parent, issue5)
		}
		return env
	}
	watcher := func(*testing.B) *incremental {
		if inc == nil {
			inc = startIncremental(parent, issue5QM(parent).qm)
		}
		return inc
	}
	var incCost, naiveCost, bigCost *pollFigures
	b.Run("strategy=incremental", func(b *testing.B) {
		b.Run("latency=0", func(b *testing.B) {
			b.StopTimer()
			incCost = benchIncremental(b, issue5QM(b), watcher(b), 0)
		})
		b.Run("latency=1ms", func(b *testing.B) {
			b.StopTimer()
			benchIncremental(b, issue5QM(b), watcher(b), time.Millisecond)
		})
	})
	b.Run("strategy=naive", func(b *testing.B) {
		naiveCost = benchNaive(b, issue5QM(b))
		if incCost != nil {
			// Shown on this line because a parent benchmark's log is only
			// printed with -v.
			b.ReportMetric(naiveCost.Calls/incCost.Calls, "calls-ratio")
			b.ReportMetric(naiveCost.Bytes/incCost.Bytes, "bytes-ratio")
		}
	})
	checkRatio(b, incCost, naiveCost)
	b.Run("deadq=1000000", func(b *testing.B) {
		b.StopTimer()
		big := issue5
		big.DeadDepth = 1_000_000
		env := newSteadyQM(b, big)
		w := startIncremental(b, env.qm)
		defer w.stop()
		// Its sub-benchmarks run on this one's queue manager: this
		// function runs once, as it only runs sub-benchmarks.
		b.Run("strategy=incremental", func(b *testing.B) {
			b.Run("latency=0", func(b *testing.B) {
				b.StopTimer()
				bigCost = benchIncremental(b, env, w, 0)
			})
		})
	})
	checkSameCost(b, incCost, bigCost)
}

// checkSameCost fails unless a steady poll with a DEADQ of a million costs
// what it costs at 100,000: only what is new is read.
func checkSameCost(b *testing.B, small, big *pollFigures) {
	if small == nil || big == nil {
		return
	}
	b.Logf("steady poll, DEADQ 100,000 vs 1,000,000: %.1f vs %.1f calls, %.0f vs %.0f bytes", small.Calls, big.Calls, small.Bytes, big.Bytes)
	if big.Calls != small.Calls || big.Bytes > small.Bytes*1.01 || big.Bytes < small.Bytes*0.99 {
		b.Errorf("a steady poll costs %.1f calls and %.0f bytes at a million, %.1f and %.0f at 100,000", big.Calls, big.Bytes, small.Calls, small.Bytes)
	}
}

// pollFigures are per-poll averages.
type pollFigures struct {
	Calls, Bytes, Browses float64
}

func (f *pollFigures) report(b *testing.B) {
	b.ReportMetric(f.Calls, "calls/poll")
	b.ReportMetric(f.Bytes, "bytes/poll")
	b.ReportMetric(f.Browses, "browses/poll")
}

// benchIncremental times Refresh-to-snapshot on the real watcher. With
// latency, every call on the watcher's connection waits that long first, as
// a client connection's round trip would.
func benchIncremental(b *testing.B, env *steadyQM, inc *incremental, latency time.Duration) *pollFigures {
	b.StopTimer()
	b.ReportAllocs()
	if latency > 0 {
		defer env.qm.Faults().Remove(env.addLatency(b, latency))
	}
	var cost pollCost
	var cpu cpuMeter
	var watcherCalls, watcherBytes int64
	for i := 0; i < b.N; i++ {
		env.step(b)
		b.StartTimer()
		cpu.begin()
		s := inc.poll(b)
		cpu.end()
		b.StopTimer()
		cost.add(costOf(env.qm.Stats()))
		watcherCalls += int64(s.Poll.Calls)
		watcherBytes += s.Poll.Bytes
		d := s.Deltas[deadQ]
		if s.Poll.Resyncs > 0 || d.Resync || len(d.Added) != env.sc.PerPoll {
			b.Fatalf("poll %d is not in steady state: resyncs %d, DEADQ delta resync=%v added=%d",
				s.Seq, s.Poll.Resyncs, d.Resync, len(d.Added))
		}
	}
	f := &pollFigures{}
	f.Calls, f.Bytes, f.Browses = cost.perPoll(b.N)
	f.report(b)
	cpu.report(b, "cpu-ms/poll")
	// The watcher's own counter: calls, and bytes including MQMDs and an
	// estimate of the PCF responses.
	b.ReportMetric(float64(watcherCalls)/float64(b.N), "watcher-calls/poll")
	b.ReportMetric(float64(watcherBytes)/float64(b.N), "watcher-bytes/poll")
	if latency > 0 {
		b.ReportMetric(float64(b.Elapsed().Microseconds())/1000/float64(b.N), "ms/poll")
	}
	return f
}

// benchNaive times the naive poller on its own connection.
func benchNaive(b *testing.B, env *steadyQM) *pollFigures {
	b.StopTimer()
	b.ReportAllocs()
	ctx := context.Background()
	c, err := env.qm.Connect(ctx, mqwatch.ConnectOptions{ApplName: "naive-bench"})
	if err != nil {
		b.Fatal(err)
	}
	defer c.Close()
	p := newNaivePoller(c)
	var cost pollCost
	var cpu cpuMeter
	for i := 0; i < b.N; i++ {
		env.step(b)
		b.StartTimer()
		cpu.begin()
		got, err := p.poll(ctx)
		cpu.end()
		b.StopTimer()
		if err != nil {
			b.Fatal(err)
		}
		if n := got.Inventories[deadQ].Len(); n != env.sc.DeadDepth {
			b.Fatalf("naive poll read %d DEADQ messages, want %d", n, env.sc.DeadDepth)
		}
		cost.add(costOf(env.qm.Stats()))
	}
	f := &pollFigures{}
	f.Calls, f.Bytes, f.Browses = cost.perPoll(b.N)
	f.report(b)
	cpu.report(b, "cpu-ms/poll")
	return f
}

// minRatio is issue 5's requirement: incremental polls cost at least this
// many times fewer calls, and fewer bytes, than naive ones.
const minRatio = 100

func checkRatio(b *testing.B, inc, naive *pollFigures) {
	if inc == nil || naive == nil {
		return // a -bench pattern left one strategy out
	}
	calls, bytes := naive.Calls/inc.Calls, naive.Bytes/inc.Bytes
	b.Logf("naive/incremental per poll: %.0f× calls (%.0f / %.1f), %.0f× bytes (%.0f / %.0f); issue 5 asks ≥%d×",
		calls, naive.Calls, inc.Calls, bytes, naive.Bytes, inc.Bytes, minRatio)
	if calls < minRatio || bytes < minRatio {
		b.Errorf("incremental polls are only %.0f× cheaper in calls and %.0f× in bytes, want ≥%d×", calls, bytes, minRatio)
	}
}
