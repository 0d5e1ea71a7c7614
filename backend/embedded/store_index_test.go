package embedded

import (
	"encoding/binary"
	"testing"
)

// A drained queue's MsgId index is made again smaller, and every message
// left (duplicates of one MsgId in arrival order included) is still found.
func TestStoreIndexShrinksAfterDrainAndStillFinds(t *testing.T) {
	s := newStore()
	const n = 20_000
	msgs := make([]*message, n)
	for i := range msgs {
		m := &message{seq: uint64(i)}
		binary.BigEndian.PutUint64(m.md.MsgId[16:], uint64(i%(n-10))) // the last 10 repeat the first 10's ids
		s.add(m)
		msgs[i] = m
	}
	if s.idHigh != n-10 {
		t.Fatalf("idHigh %d, want %d", s.idHigh, n-10)
	}
	for _, m := range msgs[10 : n-100] {
		s.remove(m)
	}
	if s.idHigh >= (n-10)/4 {
		t.Errorf("idHigh %d after draining to %d: the index was not made again", s.idHigh, len(s.byID))
	}
	if s.depth != 110 || len(s.byID) != 100 {
		t.Fatalf("depth %d, ids %d; want 110, 100", s.depth, len(s.byID))
	}
	for i := range 10 {
		first := s.byID[msgs[i].md.MsgId]
		if first != msgs[i] || first.idNext != msgs[n-10+i] || msgs[n-10+i].idPrev != first {
			t.Fatalf("MsgId %d: duplicates not kept in arrival order", i)
		}
	}
	for _, m := range msgs[n-100 : n-10] {
		if s.byID[m.md.MsgId] != m {
			t.Fatalf("message %d not found by MsgId after the index shrank", m.seq)
		}
	}
}
