package model

import (
	"testing"

	"github.com/poisonwatch/poisonwatch/mqwatch"
)

// EachCount reports the same sizes as Groups, after a removal too (when
// Groups would rescan ages and EachCount must not need to).
func TestEachCountAgreesWithGroups(t *testing.T) {
	var all []mqwatch.Summary
	for i := 0; i < 90; i++ {
		all = append(all, dl(i, []int32{2085, 2053, 2087}[i%3], []string{"INVOICE.IN", "AUDIT.IN"}[i%2]))
	}
	inv := (*mqwatch.Inventory)(nil).Append(all...)
	gs := BuildGroups("DLQ", true, inv)
	inv = inv.DropHead(7)
	gs.apply(mqwatch.InventoryDelta{Dropped: all[:7]}, inv, t0, true)
	for _, d := range []Dim{DimReasonDest, DimReason, DimDest, DimAppl} {
		got := map[GroupKey]int{}
		total := 0
		gs.EachCount(d, func(k GroupKey, n int) { got[k] += n; total += n })
		want := counts(gs, d)
		if len(got) != len(want) || total != 83 {
			t.Fatalf("%v: %d groups holding %d, want %d groups holding 83", d, len(got), total, len(want))
		}
		for k, n := range want {
			if got[k] != n {
				t.Errorf("%v %+v: %d, want %d", d, k, got[k], n)
			}
		}
	}
}
