package model

import (
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/poisonwatch/poisonwatch/mqwatch"
)

// The age index's tally is TallyClasses' after drains at the head,
// arrivals, both at once over skipped versions, a sibling version and a
// removal in the middle.
func TestAgeIndexTalliesAsTallyClasses(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 17))
	next := 0
	grow := func(inv *mqwatch.Inventory, n int) *mqwatch.Inventory {
		inv = inv.Append(rulesMsgs(next, n)...)
		next += n
		return inv
	}
	var x ageIndex
	inv := grow(nil, 20_000)
	for step := range 60 {
		switch op := rng.IntN(10); {
		case op < 4:
			inv = inv.DropHead(rng.IntN(6000))
		case op < 7:
			inv = grow(inv, rng.IntN(7000))
		case op < 8:
			inv = grow(inv.DropHead(rng.IntN(3000)), rng.IntN(3000))
		case op < 9:
			grow(inv, 3) // a sibling writes the shared tail chunk
			inv = grow(inv, 2)
		default:
			inv = inv.Filter(func(s *mqwatch.Summary) bool { return s.Arrival%11 != 0 })
		}
		if got, want := x.tally(inv), TallyClasses(inv); !reflect.DeepEqual(got, want) {
			t.Fatalf("step %d (%d messages): the index's tally differs from TallyClasses", step, inv.Len())
		}
	}
}
