package model

import (
	"testing"

	"github.com/poisonwatch/poisonwatch/mqwatch"
)

func selInventory(n int) (*mqwatch.Inventory, []mqwatch.Summary) {
	all := make([]mqwatch.Summary, n)
	for i := range all {
		all[i] = msg(1, 0)
		all[i].MsgId[20], all[i].MsgId[21] = byte(i), byte(i>>8)
		all[i].Arrival = uint64(i + 1)
	}
	var inv *mqwatch.Inventory
	return inv.Append(all...), all
}

// TestSelectionIdentities: marks by inventory and index and by summary keep
// their order and the summaries as marked, whatever collides.
func TestSelectionIdentities(t *testing.T) {
	for _, tc := range []struct {
		name   string
		hashOf func(mqwatch.Key) uint32
	}{
		{"maphash", nil},
		{"every hash collides", func(mqwatch.Key) uint32 { return 7 }},
		{"two buckets", func(k mqwatch.Key) uint32 { return uint32(k.MsgId[20] & 1) }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			inv, all := selInventory(50)
			s := NewSelection()
			s.hashOf = tc.hashOf
			for i := 10; i < 20; i++ {
				s.MarkAt(inv, i)
			}
			s.Mark(all[3])
			s.MarkAt(inv, 12) // already marked: no second entry
			if s.Len() != 11 || !s.Marked(all[15].Key()) || s.Marked(all[20].Key()) || !s.Marked(all[3].Key()) {
				t.Fatalf("len %d, marks wrong", s.Len())
			}
			if s.Toggle(all[11]) || s.Marked(all[11].Key()) {
				t.Fatal("toggle did not unmark")
			}
			s.Unmark(all[40].Key()) // not marked: nothing happens
			s.MarkAt(inv, 11)       // marked again: now last
			got := s.Items()
			want := []int{10, 12, 13, 14, 15, 16, 17, 18, 19, 3, 11}
			if len(got) != len(want) {
				t.Fatalf("%d items, want %d", len(got), len(want))
			}
			for i, w := range want {
				if got[i].MsgId != all[w].MsgId || got[i].Arrival != all[w].Arrival {
					t.Fatalf("item %d is arrival %d, want %d", i, got[i].Arrival, all[w].Arrival)
				}
			}
			if h := s.Hidden(func(k mqwatch.Key) bool { return k != all[3].Key() }); h != 1 {
				t.Fatalf("hidden %d, want 1", h)
			}
		})
	}
}

// TestSelectionKeepsTheSummariesAsMarked: a later inventory without the
// messages does not change what the selection acts on.
func TestSelectionKeepsTheSummariesAsMarked(t *testing.T) {
	inv, all := selInventory(20)
	s := NewSelection()
	s.MarkAt(inv, 5)
	_ = inv.DropHead(10) // the next poll's version; the marked one is unchanged
	if got := s.Items(); len(got) != 1 || got[0].MsgId != all[5].MsgId {
		t.Fatalf("items %v", got)
	}
}

// TestSelectionCompactsUnmarked: unmarking most of a large selection drops
// the dead entries and keeps the rest in order.
func TestSelectionCompactsUnmarked(t *testing.T) {
	inv, all := selInventory(3000)
	s := NewSelection()
	for i := range 3000 {
		s.MarkAt(inv, i)
	}
	for i := range 2500 {
		s.Unmark(all[i].Key())
	}
	if len(s.idx) >= 3000 {
		t.Fatalf("%d entries kept for %d marks: not compacted", len(s.idx), s.Len())
	}
	got := s.Items()
	if len(got) != 500 || got[0].MsgId != all[2500].MsgId || got[499].MsgId != all[2999].MsgId {
		t.Fatalf("%d items after compaction", len(got))
	}
	s.Clear()
	if s.Len() != 0 || len(s.Items()) != 0 {
		t.Fatal("clear")
	}
}
