package model

import (
	"testing"
	"time"

	"github.com/poisonwatch/poisonwatch/mqwatch"
)

// BenchmarkFold measures folding one issue-5 snapshot (1,000 queues, a DEADQ
// 100,000 deep, 10 BOQs of 10,000) into a State that already holds it:
//   - steady=add100: 100 dead letters arrived since the last poll;
//   - steady=add100-drop100: the same, and a dead-letter handler took 100
//     from the head (what mqwatch's BenchmarkRefresh produces);
//   - resync: every inventory rebuilt, as after a reconnect or a skipped
//     snapshot.
//
// deadq=1000000 runs the same at issue 17's scale (a DEADQ of a million, 10
// BOQs of 100,000), where a steady fold must stay under 5 ms of CPU.
// rebuilds/fold counts the inventories whose groups were regrouped from
// scratch; a steady fold should regroup none.
//
//	go test -run '^$' -bench BenchmarkFold -benchmem ./model/
func BenchmarkFold(b *testing.B) {
	runFolds(b, issue5Fold)
	b.Run("deadq=1000000", func(b *testing.B) { runFolds(b, issue17Fold) })
}

func runFolds(b *testing.B, sc foldScenario) {
	var env *foldEnv
	get := func(b *testing.B) *foldEnv {
		if env == nil {
			var err error
			if env, err = newFoldEnv(sc); err != nil {
				b.Fatal(err)
			}
		}
		return env
	}
	b.Run("steady=add100", func(b *testing.B) { benchSteadyFold(b, get(b), false) })
	b.Run("steady=add100-drop100", func(b *testing.B) { benchSteadyFold(b, get(b), true) })
	b.Run("resync", func(b *testing.B) {
		b.StopTimer()
		env := get(b)
		env.reset()
		s := New(nil, 2*time.Second)
		s.Fold(env.snapshot(nil))
		// A re-read makes inventories of their own, which Since cannot
		// relate to the last (the same inventory again would fold as
		// unchanged): two copies, taken in turn.
		copies := [2]map[string]*mqwatch.Inventory{copyInvs(env.invs), copyInvs(env.invs)}
		b.ReportAllocs()
		rebuilds := 0
		var cpu cpuMeter
		for i := 0; i < b.N; i++ {
			snap := env.snapshot(nil)
			snap.Inventories = copies[i%2]
			before := groupSets(s)
			b.StartTimer()
			cpu.begin()
			s.Fold(snap)
			cpu.end()
			b.StopTimer()
			rebuilds += countRebuilt(before, s)
		}
		b.ReportMetric(float64(rebuilds)/float64(b.N), "rebuilds/fold")
		cpu.report(b, "cpu-ms/fold")
	})
}

// regrowLimit bounds how far add-only polls grow the DEADQ before the state
// is rebuilt (untimed): 20,000 more messages.
const regrowLimit = 200

func benchSteadyFold(b *testing.B, env *foldEnv, drop bool) {
	b.StopTimer()
	var s *State
	fresh := func() {
		env.reset()
		s = New(nil, 2*time.Second)
		s.Fold(env.snapshot(nil))
	}
	fresh()
	b.ReportAllocs()
	rebuilds := 0
	var cpu cpuMeter
	for i := 0; i < b.N; i++ {
		if !drop && i > 0 && i%regrowLimit == 0 {
			fresh()
		}
		snap, err := env.steady(drop)
		if err != nil {
			b.Fatal(err)
		}
		before := groupSets(s)
		b.StartTimer()
		cpu.begin()
		s.Fold(snap)
		cpu.end()
		b.StopTimer()
		rebuilds += countRebuilt(before, s)
	}
	b.ReportMetric(float64(rebuilds)/float64(b.N), "rebuilds/fold")
	cpu.report(b, "cpu-ms/fold")
}

// groupSets records which GroupSet each inventory has, to tell a fold that
// regrouped an inventory from scratch (a new GroupSet) from one that applied
// its delta.
func groupSets(s *State) map[string]*GroupSet {
	q := s.QMgr("QM1")
	out := make(map[string]*GroupSet, len(q.Groups))
	for name, gs := range q.Groups {
		out[name] = gs
	}
	return out
}

func countRebuilt(before map[string]*GroupSet, s *State) int {
	n := 0
	for name, gs := range s.QMgr("QM1").Groups {
		if before[name] != gs {
			n++
		}
	}
	return n
}

// cpuMeter sums the process CPU time of the timed sections: the poll or fold
// itself, with the garbage collection it causes, whatever else the machine runs.
type cpuMeter struct {
	total, start time.Duration
	broken       bool
}

func (m *cpuMeter) begin() {
	var ok bool
	m.start, ok = processCPU()
	m.broken = m.broken || !ok
}

func (m *cpuMeter) end() {
	t, ok := processCPU()
	m.broken = m.broken || !ok
	m.total += t - m.start
}

// report adds the mean CPU milliseconds per operation as unit.
func (m *cpuMeter) report(b *testing.B, unit string) {
	if !m.broken && b.N > 0 {
		b.ReportMetric(float64(m.total.Microseconds())/1000/float64(b.N), unit)
	}
}

// copyInvs copies each inventory into storage of its own.
func copyInvs(invs map[string]*mqwatch.Inventory) map[string]*mqwatch.Inventory {
	out := make(map[string]*mqwatch.Inventory, len(invs))
	for name, inv := range invs {
		out[name] = inv.Filter(func(*mqwatch.Summary) bool { return true })
	}
	return out
}
