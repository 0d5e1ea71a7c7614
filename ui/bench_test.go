package ui

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/poisonwatch/poisonwatch/mqwatch"
)

// benchDepths are the DEADQ depths the ui must stay fast at: a bad night, a
// burst that filled a 100k-message dead-letter queue, and issue 17's
// million-message incident.
var benchDepths = []int{1000, 100000, 1000000}

// deadQIncident is incident() with a DEADQ of n messages whose MsgIds are all
// distinct (incident's ids repeat after 65,536), so selection and filtering
// see n different messages.
func deadQIncident(seq uint64, n int) *mqwatch.Snapshot {
	snap := incident(seq, 0)
	var inv *mqwatch.Inventory
	sums := make([]mqwatch.Summary, 0, 4096)
	for i := 0; i < n; i++ {
		reason, dest := int32(2085), "INVOICE.IN"
		if i%30 == 29 {
			reason, dest = 2053, "AUDIT.IN"
		}
		s := dlqSummary(i, reason, dest)
		s.MsgId[19] = byte(i >> 16)
		s.Arrival = uint64(i + 1)
		if sums = append(sums, s); len(sums) == cap(sums) || i == n-1 {
			inv, sums = inv.Append(sums...), sums[:0]
		}
	}
	snap.Inventories["QM1.DEADQ"] = inv
	for i := range snap.Queues {
		if snap.Queues[i].Role == mqwatch.RoleDeadQ {
			snap.Queues[i].Status.Depth = int32(n)
			snap.Queues[i].Info.MaxDepth = 500000
		}
	}
	return snap
}

// quietPoll is the next poll of base when nothing arrived or left: the
// contiguous sequence and an empty delta let the model fold incrementally.
func quietPoll(base *mqwatch.Snapshot, seq uint64) *mqwatch.Snapshot {
	s := *base
	s.Seq = seq
	s.Deltas = map[string]mqwatch.InventoryDelta{"QM1.DEADQ": {}}
	return &s
}

// resyncPoll is the next poll of base after the watcher re-read the DEADQ
// (or a snapshot was skipped): the model rebuilds its groups from scratch.
func resyncPoll(base *mqwatch.Snapshot, seq uint64) *mqwatch.Snapshot {
	s := *base
	s.Seq = seq
	s.Deltas = map[string]mqwatch.InventoryDelta{"QM1.DEADQ": {Resync: true}}
	return &s
}

// benchScreens are the screens measured at each depth, by the keys that open
// them from the dashboard.
var benchScreens = []struct {
	name string
	keys []string
}{
	{"dashboard", nil},
	{"dlq", []string{"d"}},                     // the DEADQ triage: groups
	{"dlq_group", []string{"d", "enter"}},      // the messages of the largest group
	{"dlq_all_end", []string{"d", "tab", "G"}}, // every message, cursor on the last
}

// measure runs op b.N times and reports ms/op and the median in ms. The median
// is what an operator feels per frame; the mean hides nothing but GC pauses.
// reset, when set, runs between iterations with the timer stopped.
func measure(b *testing.B, reset, op func()) {
	b.ReportAllocs()
	took := make([]time.Duration, 0, b.N)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if reset != nil && i > 0 {
			b.StopTimer()
			reset()
			b.StartTimer()
		}
		t0 := time.Now()
		op()
		took = append(took, time.Since(t0))
	}
	b.StopTimer()
	slices.Sort(took)
	b.ReportMetric(ms(took[len(took)/2]), "ms-median")
	b.ReportMetric(ms(b.Elapsed())/float64(b.N), "ms/op")
}

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }

// BenchmarkView measures one frame of each screen, and the Update a live poll
// costs, at DEADQ depths of 1,000 and 100,000. View must not grow with depth.
func BenchmarkView(b *testing.B) {
	for _, n := range benchDepths {
		base := deadQIncident(1, n)
		b.Run(fmt.Sprintf("depth=%d", n), func(b *testing.B) {
			for _, sc := range benchScreens {
				b.Run("screen="+sc.name, func(b *testing.B) {
					a, _ := newTestApp(b, 120, 35, Options{Ops: &fakeOps{msg: sampleMessage()}})
					a.Update(snapshotMsg{snap: base})
					press(a, sc.keys...)
					measure(b, nil, func() { _ = a.View() })
				})
			}
			benchUpdate(b, base)
		})
	}
}

// benchUpdate measures folding a poll and refreshing the open screen: on the
// dashboard, and with the largest DEADQ group open (whose message list is
// re-filtered every poll).
func benchUpdate(b *testing.B, base *mqwatch.Snapshot) {
	polls := []struct {
		name string
		next func(*mqwatch.Snapshot, uint64) *mqwatch.Snapshot
	}{{"quiet", quietPoll}, {"resync", resyncPoll}}
	for _, p := range polls {
		for _, sc := range benchScreens[:3] {
			b.Run("update="+p.name+"/screen="+sc.name, func(b *testing.B) {
				a, _ := newTestApp(b, 120, 35, Options{})
				a.Update(snapshotMsg{snap: base})
				press(a, sc.keys...)
				seq := base.Seq
				measure(b, nil, func() {
					seq++
					a.Update(snapshotMsg{snap: p.next(base, seq)})
				})
			})
		}
	}
}

// BenchmarkFilter measures typing one filter character on the DEADQ's list of
// every message: "/" then a rune that every row matches (the worst case: all
// rows kept and ranked). The filter is cleared between iterations, untimed.
func BenchmarkFilter(b *testing.B) {
	for _, n := range benchDepths {
		base := deadQIncident(1, n)
		// path=update is what a keystroke costs the Update path (the frame the
		// operator waits for); path=total adds the background scan that large
		// lists run in a command ("filtering N messages…" meanwhile).
		for _, path := range []string{"update", "total"} {
			b.Run(fmt.Sprintf("n=%d/path=%s", n, path), func(b *testing.B) {
				a, _ := newTestApp(b, 120, 35, Options{})
				a.Update(snapshotMsg{snap: base})
				press(a, "d", "tab")
				if got := topIs[*queueScreen](b, a).msgs.Len(); got != n {
					b.Fatalf("list has %d rows, want %d", got, n)
				}
				var cmd tea.Cmd
				op := func() { press(a, "/", "I") }
				if path == "update" {
					op = func() {
						a.Update(keyMsg("/"))
						_, cmd = a.Update(keyMsg("I"))
					}
				}
				measure(b, func() { drain(a, cmd); press(a, "esc") }, op)
				drain(a, cmd)
				if got := topIs[*queueScreen](b, a).msgs.Len(); got != n {
					b.Fatalf("filter I kept %d of %d rows; every row has INVOICE.IN or AUDIT.IN", got, n)
				}
			})
		}
	}
}

// BenchmarkTriageRegroup measures `o` on the DEADQ triage, the key that
// changes the grouping, and the frame after it: at 1,000,000 messages issue
// 17 asks for at most 150 ms. Every dimension's groups are kept from the
// last fold, so the key costs sorting the groups (and, when removals
// narrowed the age ranges, one pass over the inventory's classes).
func BenchmarkTriageRegroup(b *testing.B) {
	for _, n := range benchDepths[1:] {
		b.Run(fmt.Sprintf("depth=%d", n), func(b *testing.B) {
			a, _ := newTestApp(b, 120, 35, Options{})
			a.Update(snapshotMsg{snap: deadQIncident(1, n)})
			press(a, "d")
			measure(b, nil, func() { press(a, "o"); _ = a.View() })
			if !strings.Contains(a.View(), "grouped by") {
				b.Fatal("not on the triage screen")
			}
		})
	}
}
