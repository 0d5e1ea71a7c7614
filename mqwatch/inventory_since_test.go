package mqwatch

import (
	"encoding/binary"
	"math/rand/v2"
	"testing"
)

// sinceMsgs are n messages numbered from 'from', with their number in
// their MsgId and one of three classes.
func sinceMsgs(from, n int) []Summary {
	out := make([]Summary, n)
	for i := range out {
		a := from + i
		out[i].Arrival = uint64(a)
		binary.BigEndian.PutUint64(out[i].MsgId[16:], uint64(a))
		out[i].DLHReason = int32(2050 + a%3)
	}
	return out
}

// Since's decomposition holds whatever the inventories went through: the
// messages it says were kept are prev's at those positions, and for a
// watcher's line (drops at the head, appends at the tail, skipped
// snapshots, a sibling appended from an older version) it finds exactly
// how many went from the head.
func TestInventorySinceDecomposes(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 31))
	for round := range 200 {
		next := 0
		add := func(inv *Inventory, n int) *Inventory {
			inv = inv.Append(sinceMsgs(next, n)...)
			next += n
			return inv
		}
		line := []*Inventory{add(nil, rng.IntN(3000))}
		filtered := false
		for range 12 {
			inv := line[len(line)-1]
			switch op := rng.IntN(10); {
			case op < 4:
				inv = add(inv, rng.IntN(2500))
			case op < 8:
				inv = inv.DropHead(rng.IntN(inv.Len() + 1))
			case op < 9 && len(line) > 1:
				add(line[len(line)-2], 5) // a sibling: the next append clones
			default:
				inv = inv.Filter(func(s *Summary) bool { return s.Arrival%7 != 0 })
				filtered = true
			}
			line = append(line, inv)
		}
		for pi, prev := range line {
			cur := line[len(line)-1]
			wantDropped := prev.Len()
			if cur.Len() > 0 {
				for j := 0; j < prev.Len(); j++ {
					if prev.Arrival(j) == cur.Arrival(0) {
						wantDropped = j
					}
				}
			}
			wantKept := min(prev.Len()-wantDropped, cur.Len())
			dropped, kept, ok := cur.Since(prev)
			if !ok {
				if !filtered && wantKept > 0 {
					t.Fatalf("round %d: no decomposition from version %d of a watcher's line", round, pi)
				}
				continue
			}
			for i := 0; i < kept; i++ {
				if prev.Key(dropped+i) != cur.Key(i) {
					t.Fatalf("round %d: kept message %d is not prev's %d", round, i, dropped+i)
				}
			}
			if !filtered && (kept != wantKept || wantKept > 0 && dropped != wantDropped) {
				t.Fatalf("round %d from version %d: dropped %d kept %d, want %d and %d", round, pi, dropped, kept, wantDropped, wantKept)
			}
		}
	}
}

// A sibling's messages are not the line's: appending from an older version
// writes a copy of the shared chunk, and Since tells them apart.
func TestInventorySinceSiblingIsNotKept(t *testing.T) {
	base := (*Inventory)(nil).Append(sinceMsgs(0, 100)...)
	a := base.Append(sinceMsgs(100, 1)...)
	b := base.Append(sinceMsgs(200, 1)...)
	dropped, kept, ok := b.Since(a)
	if !ok || dropped != 0 || kept != 100 {
		t.Fatalf("dropped %d kept %d ok %v, want 0 100 true", dropped, kept, ok)
	}
}

func BenchmarkInventorySince1M(b *testing.B) {
	prev := (*Inventory)(nil).Append(sinceMsgs(0, 1_000_000)...)
	cur := prev.DropHead(500).Append(sinceMsgs(1_000_000, 500)...)
	for b.Loop() {
		cur.Since(prev)
	}
}
