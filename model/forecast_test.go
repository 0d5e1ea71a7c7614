package model

import (
	"testing"
	"time"

	"github.com/poisonwatch/poisonwatch/mqwatch"
)

// TestNoTimeToFullWithoutArrivals: a BOQ whose depth rose while nothing
// arrived on it (its arrivals are counted from its inventory) has no
// forecast; the same depth with arrivals has one.
func TestNoTimeToFullWithoutArrivals(t *testing.T) {
	for _, tc := range []struct {
		name     string
		arrivals bool
		forecast bool
	}{{"no_arrivals", false, false}, {"arrivals", true, true}} {
		t.Run(tc.name, func(t *testing.T) {
			s := New(func() time.Time { return t0 }, 2*time.Second)
			b := &snapBuilder{}
			var inv *mqwatch.Inventory
			for i := 0; i < 4; i++ {
				var add []mqwatch.Summary
				if tc.arrivals {
					add = []mqwatch.Summary{msg(byte(i), 0)}
					inv = inv.Append(add...)
				}
				b.views = []mqwatch.QueueView{local("ORDERS.BO", int32(10+i), 100, 0, "")}
				b.views[0].Role = mqwatch.RoleBOQ
				b.invs = map[string]*mqwatch.Inventory{"ORDERS.BO": inv}
				b.delta = map[string]mqwatch.InventoryDelta{"ORDERS.BO": {Added: add}}
				s.Fold(b.snap(t0.Add(time.Duration(i) * time.Minute)))
			}
			qs := s.QMgr("QM1").Queues["ORDERS.BO"]
			if net, ok := qs.DepthPerMinute(); !ok || net != 1 {
				t.Fatalf("depth per minute %v %v, want +1", net, ok)
			}
			if _, ok := qs.TimeToFull(); ok != tc.forecast {
				t.Fatalf("forecast %v, want %v", ok, tc.forecast)
			}
		})
	}
}
