package model

import (
	"reflect"
	"slices"
	"testing"

	"github.com/poisonwatch/poisonwatch/mqwatch"
)

// TestSelectionStreamsWhatItemsLists: the marks pulled as identities or in
// batches of any size are Items' summaries in Items' order, with unmarked
// messages and colliding identities left out as Items leaves them; a
// consumer that stops early gets no more batches.
func TestSelectionStreamsWhatItemsLists(t *testing.T) {
	for _, hashOf := range []func(mqwatch.Key) uint32{nil, func(k mqwatch.Key) uint32 { return uint32(k.MsgId[20] & 3) }} {
		inv, all := selInventory(3000)
		s := NewSelection()
		s.hashOf = hashOf
		for i := 0; i < inv.Len(); i += 2 {
			s.MarkAt(inv, i)
		}
		s.Mark(all[1])
		for i := 0; i < inv.Len(); i += 6 {
			s.Unmark(inv.Key(i))
		}
		want := s.Items()
		var keys []mqwatch.Key
		for k := range s.Keys() {
			keys = append(keys, k)
		}
		if len(keys) != len(want) {
			t.Fatalf("%d identities, %d items", len(keys), len(want))
		}
		for i := range want {
			if keys[i] != want[i].Key() {
				t.Fatalf("identity %d differs from item %d", i, i)
			}
		}
		for _, n := range []int{1, 7, 1000, 5000} {
			var got []mqwatch.Summary
			for b := range s.Batches(n) {
				if len(b) > n {
					t.Fatalf("batch of %d, want at most %d", len(b), n)
				}
				got = append(got, b...)
			}
			if !reflect.DeepEqual(got, want) {
				t.Fatalf("batches of %d: %d summaries, not Items' %d", n, len(got), len(want))
			}
		}
		batches := 0
		for range s.Batches(10) {
			if batches++; batches == 3 {
				break
			}
		}
		if batches != 3 {
			t.Fatalf("%d batches after stopping at 3", batches)
		}
	}
}

// TestSelectionSnapshotKeepsItsMarks: marking and unmarking after a
// snapshot change the selection, not the snapshot.
func TestSelectionSnapshotKeepsItsMarks(t *testing.T) {
	inv, _ := selInventory(100)
	s := NewSelection()
	for i := range 50 {
		s.MarkAt(inv, i)
	}
	snap := s.Snapshot()
	want := snap.Items()
	for i := range 50 {
		s.Unmark(inv.Key(i))
		s.MarkAt(inv, 99-i)
	}
	if got := snap.Items(); !reflect.DeepEqual(got, want) || snap.Len() != 50 {
		t.Fatalf("the snapshot changed: %d marks", snap.Len())
	}
	if got := slices.Collect(s.Keys()); len(got) != 50 || got[0] != inv.Key(99) {
		t.Fatalf("the selection lost its new marks: %d", len(got))
	}
}
