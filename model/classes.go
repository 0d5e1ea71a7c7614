package model

import (
	"time"

	"github.com/poisonwatch/poisonwatch/mqwatch"
)

// Grouping reads an inventory class by class: every grouping fact of a
// message is in its class (mqwatch.Class), so what a group is made of is
// decided once per class, and the pass over a million messages only counts.

// ClassTally is how many messages of one class an inventory holds, where
// the first is, and their age range (zero times: unknown put times only).
type ClassTally struct {
	Count          int
	First          int
	Oldest, Newest time.Time
}

// TallyClasses counts an inventory's messages per class number.
func TallyClasses(inv *mqwatch.Inventory) []ClassTally {
	out := make([]ClassTally, inv.NumClasses())
	for i := 0; i < inv.Len(); i++ {
		t := &out[inv.ClassID(i)]
		if t.Count == 0 {
			t.First = i
		}
		t.Count++
		q := inv.QueuedAt(i)
		if q.IsZero() {
			continue
		}
		if t.Oldest.IsZero() || q.Before(t.Oldest) {
			t.Oldest = q
		}
		if q.After(t.Newest) {
			t.Newest = q
		}
	}
	return out
}

// ClassKeys returns the group key along d of each of the inventory's class
// numbers.
func ClassKeys(inv *mqwatch.Inventory, d Dim) []GroupKey {
	out := make([]GroupKey, inv.NumClasses())
	for id := range out {
		out[id] = project(d, fullKeyOf(inv.Class(id)))
	}
	return out
}

// GroupRows returns the positions of the inventory's messages in group k of
// dimension d, every position when k is nil.
func GroupRows(inv *mqwatch.Inventory, d Dim, k *GroupKey) []int {
	n := inv.Len()
	if k == nil {
		out := make([]int, n)
		for i := range out {
			out[i] = i
		}
		return out
	}
	in := make([]bool, inv.NumClasses())
	for id, ck := range ClassKeys(inv, d) {
		in[id] = ck == *k
	}
	var out []int
	for i := 0; i < n; i++ {
		if in[inv.ClassID(i)] {
			out = append(out, i)
		}
	}
	return out
}

// KeyOfClass returns the group key along d of the messages of class c.
func KeyOfClass(d Dim, c *mqwatch.Class) GroupKey { return project(d, fullKeyOf(c)) }

// FirstInGroup returns the position of the inventory's first message in
// group k of dimension d, -1 when it has none. It reads from the head and
// stops there: a screen that wants one message of a group does not list
// a million.
func FirstInGroup(inv *mqwatch.Inventory, d Dim, k GroupKey) int {
	in := make([]bool, inv.NumClasses())
	for id, ck := range ClassKeys(inv, d) {
		in[id] = ck == k
	}
	for i := 0; i < inv.Len(); i++ {
		if in[inv.ClassID(i)] {
			return i
		}
	}
	return -1
}
