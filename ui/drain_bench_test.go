package ui

import (
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/poisonwatch/poisonwatch/mqwatch"
)

// BenchmarkUpdateWhileDrained1M is the dashboard's Update and View per poll
// while a requeue drains a 1,000,000-message DEADQ from its head (issue 31:
// under 16 ms while it runs), the triage open on it: each poll the
// inventory loses 'drop' messages at the head. Up to 10,000 a poll the
// watcher lists them (the model folds them off); past that it says Resync
// and the model regroups the inventory (the requeue moves 2,000-10,000
// messages a second, so a 5 s poll lands there). ms-max is the slowest poll:
//
//	go test -run '^$' -bench BenchmarkUpdateWhileDrained1M -benchtime 20x ./ui/
func BenchmarkUpdateWhileDrained1M(b *testing.B) {
	for _, drop := range []int{5_000, 50_000} {
		b.Run(fmt.Sprintf("drop=%d", drop), func(b *testing.B) {
			base := deadQIncident(1, 1_000_000)
			a, _ := newTestApp(b, 160, 48, Options{})
			a.Update(snapshotMsg{snap: base})
			press(a, "d")
			inv := base.Inventories["QM1.DEADQ"]
			var took []time.Duration
			for i := 0; b.Loop(); i++ {
				b.StopTimer()
				again := inv.Len() < drop
				if again {
					inv = base.Inventories["QM1.DEADQ"] // start over, as after a re-read
				}
				snap := drained(base, uint64(i+2), inv, drop, again)
				inv = snap.Inventories["QM1.DEADQ"]
				b.StartTimer()
				t0 := time.Now()
				a.Update(snapshotMsg{snap: snap})
				_ = a.View()
				took = append(took, time.Since(t0))
			}
			slices.Sort(took)
			b.ReportMetric(ms(took[len(took)/2]), "ms-median")
			b.ReportMetric(ms(took[len(took)-1]), "ms-max")
		})
	}
}

// drained is the poll after drop messages left inv's head, as the watcher
// reports it (listed up to 10,000, else Resync; Resync too when resync).
func drained(base *mqwatch.Snapshot, seq uint64, inv *mqwatch.Inventory, drop int, resync bool) *mqwatch.Snapshot {
	s := *base
	s.Seq = seq
	d := mqwatch.InventoryDelta{Resync: resync || drop > 10_000}
	if !d.Resync {
		d.Dropped = make([]mqwatch.Summary, drop)
		for i := range drop {
			inv.Load(i, &d.Dropped[i])
		}
	}
	s.Inventories = map[string]*mqwatch.Inventory{"QM1.DEADQ": inv.DropHead(drop)}
	s.Deltas = map[string]mqwatch.InventoryDelta{"QM1.DEADQ": d}
	return &s
}
