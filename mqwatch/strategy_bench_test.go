package mqwatch_test

import (
	"context"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/poisonwatch/poisonwatch/mqwatch"
)

// These tests back BenchmarkRefresh at a scale -race runs in seconds: the
// steady state is steady, the two strategies see the same messages, and the
// figures the benchmark reports are what the queue manager counted.

func smallScenario(deadDepth int) benchScenario {
	return benchScenario{Queues: 40, DeadDepth: deadDepth, BOQs: 3, BOQDepth: 200, PerPoll: 10,
		LoadedEvery: 5, LoadedDepth: 3, Stuck: 2}
}

// wantIncrementalCalls is the call count of a steady-state poll: three
// inquiries; per loaded input queue one browse on its kept-open handle, plus the
// deeper browses of stuck heads (each message, then 2033); on the DEADQ one
// marked browse per new message, the 2033 that ends them and the head browse
// that finds what the consumer took; one 2033 per BOQ. Depth appears nowhere.
func wantIncrementalCalls(sc benchScenario) int64 {
	// Head-browse handles stay open between polls: one browse per loaded queue.
	return int64(3 + sc.loadedQueues() + sc.Stuck*sc.LoadedDepth + sc.PerPoll + 2 + sc.BOQs)
}

// wantNaiveCalls is the same poll reading every BOQ and DEADQ message: an
// open, a browse per message, the 2033 and a close per queue.
func wantNaiveCalls(sc benchScenario) int64 {
	heads := 3*sc.loadedQueues() + sc.Stuck*sc.LoadedDepth
	return int64(3 + heads + (sc.DeadDepth + 3) + sc.BOQs*(sc.BOQDepth+3))
}

func steadyPolls(t *testing.T, env *steadyQM, inc *incremental, n int) []pollCost {
	t.Helper()
	var out []pollCost
	for i := 0; i < n; i++ {
		env.step(t)
		s := inc.poll(t)
		c := costOf(env.qm.Stats())
		if int64(s.Poll.Calls) != c.Calls {
			t.Fatalf("poll %d: the watcher counted %d calls, the queue manager %d", s.Seq, s.Poll.Calls, c.Calls)
		}
		if s.Poll.Bytes < c.Bytes {
			t.Fatalf("poll %d: the watcher counted %d bytes, fewer than the %d data bytes the queue manager returned", s.Seq, s.Poll.Bytes, c.Bytes)
		}
		d := s.Deltas[deadQ]
		if s.Poll.Resyncs != 0 || d.Resync || len(d.Added) != env.sc.PerPoll || len(d.Dropped) != env.sc.PerPoll {
			t.Fatalf("poll %d not steady: resyncs %d, delta resync=%v added=%d dropped=%d",
				s.Seq, s.Poll.Resyncs, d.Resync, len(d.Added), len(d.Dropped))
		}
		if got := s.Inventories[deadQ].Len(); got != env.sc.DeadDepth {
			t.Fatalf("poll %d: DEADQ inventory %d, want %d", s.Seq, got, env.sc.DeadDepth)
		}
		out = append(out, c)
	}
	return out
}

func TestIncrementalSteadyPollCostDoesNotGrowWithDepth(t *testing.T) {
	var bytesAt []int64
	for _, depth := range []int{500, 2000} {
		sc := smallScenario(depth)
		t.Run("deadq="+strconv.Itoa(depth), func(t *testing.T) {
			env := newSteadyQM(t, sc)
			inc := startIncremental(t, env.qm)
			defer inc.stop()
			costs := steadyPolls(t, env, inc, 3)
			for i, c := range costs {
				if want := wantIncrementalCalls(sc); c.Calls != want {
					t.Fatalf("steady poll %d: %d calls, want %d (%+v)", i, c.Calls, want, c)
				}
			}
			bytesAt = append(bytesAt, costs[len(costs)-1].Bytes)
		})
	}
	if len(bytesAt) == 2 && (bytesAt[1] > bytesAt[0]*21/20 || bytesAt[0] > bytesAt[1]*21/20) {
		t.Fatalf("bytes per poll depend on depth: %d at 500 deep, %d at 2000", bytesAt[0], bytesAt[1])
	}
}

func TestNaivePollReadsEveryInventoriedMessage(t *testing.T) {
	sc := smallScenario(500)
	env := newSteadyQM(t, sc)
	c := connect(env.qm)
	p := newNaivePoller(c)
	env.step(t)
	got, err := p.poll(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	cost := costOf(env.qm.Stats())
	if want := wantNaiveCalls(sc); cost.Calls != want {
		t.Fatalf("naive poll: %d calls, want %d", cost.Calls, want)
	}
	if n := got.Inventories[deadQ].Len(); n != sc.DeadDepth {
		t.Fatalf("naive DEADQ inventory %d, want %d", n, sc.DeadDepth)
	}
	if len(got.Inventories) != 1+sc.BOQs || len(got.Heads) != sc.loadedQueues() {
		t.Fatalf("naive poll kept %d inventories and %d heads, want %d and %d",
			len(got.Inventories), len(got.Heads), 1+sc.BOQs, sc.loadedQueues())
	}
}

func TestNaiveAndIncrementalSeeTheSameMessages(t *testing.T) {
	sc := smallScenario(500)
	env := newSteadyQM(t, sc)
	inc := startIncremental(t, env.qm)
	defer inc.stop()
	steadyPolls(t, env, inc, 2)
	snap := inc.last
	naive, err := newNaivePoller(connect(env.qm)).poll(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if len(naive.Inventories) != len(snap.Inventories) {
		t.Fatalf("naive has %d inventories, the watcher %d", len(naive.Inventories), len(snap.Inventories))
	}
	for name, inv := range snap.Inventories {
		if !slices.Equal(invKeys(inv), invKeys(naive.Inventories[name])) {
			t.Fatalf("%s: the watcher's inventory (%d) differs from a full read (%d)", name, inv.Len(), naive.Inventories[name].Len())
		}
	}
	for name, head := range snap.Heads {
		if !slices.Equal(headFacts(head), headFacts(naive.Heads[name])) {
			t.Fatalf("%s: head %v, full read %v", name, headFacts(head), headFacts(naive.Heads[name]))
		}
	}
}

func TestLatencyDelaysOnlyTheWatchersCalls(t *testing.T) {
	env := newSteadyQM(t, smallScenario(500))
	inc := startIncremental(t, env.qm)
	defer inc.stop()
	id := env.addLatency(t, time.Millisecond)
	defer env.qm.Faults().Remove(id)
	env.step(t)
	if hits := env.qm.Faults().Hits(id); hits != 0 {
		t.Fatalf("the producer and consumer were delayed: %d hits", hits)
	}
	s := inc.poll(t)
	if hits := env.qm.Faults().Hits(id); hits != s.Poll.Calls {
		t.Fatalf("%d calls delayed, the poll made %d", hits, s.Poll.Calls)
	}
}

func invKeys(inv *mqwatch.Inventory) []mqwatch.Key {
	var out []mqwatch.Key
	inv.Each(func(_ int, s *mqwatch.Summary) bool { out = append(out, s.Key()); return true })
	return out
}

type headFact struct {
	Key          mqwatch.Key
	BackoutCount int32
}

func headFacts(head []mqwatch.Summary) []headFact {
	out := make([]headFact, len(head))
	for i := range head {
		out[i] = headFact{head[i].Key(), head[i].BackoutCount}
	}
	return out
}
