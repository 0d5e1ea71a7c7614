package ui

import (
	"testing"

	"github.com/poisonwatch/poisonwatch/mqwatch"
)

// dlqGroups is incident's snapshot with a DEADQ of 2085 groups, n[dest]
// messages each.
func dlqGroups(seq uint64, n map[string]int) *mqwatch.Snapshot {
	var sums []mqwatch.Summary
	i := 0
	for _, dest := range []string{"A.IN", "B.IN", "C.IN"} {
		for range n[dest] {
			sums = append(sums, dlqSummary(i, 2085, dest))
			i++
		}
	}
	s := incident(seq, 0)
	s.Inventories["QM1.DEADQ"] = (*mqwatch.Inventory)(nil).Append(sums...)
	for j := range s.Queues {
		if s.Queues[j].Info.Name == "QM1.DEADQ" {
			s.Queues[j].Status.Depth = int32(len(sums))
		}
	}
	return s
}

func triageRows(t *triageScreen) []string {
	var out []string
	for _, g := range t.groups {
		out = append(out, g.Key.DestQ)
	}
	return out
}

// TestTriageCursorStaysOnTopUntilMoved: while the first polls re-sort the
// DEADQ's groups the cursor stays on the first row; once the operator moves
// it, it follows their group through re-sorts; another grouping starts at
// its top again.
func TestTriageCursorStaysOnTopUntilMoved(t *testing.T) {
	a, _ := newTestApp(t, 120, 40, Options{})
	a.Update(snapshotMsg{snap: dlqGroups(1, map[string]int{"A.IN": 30, "B.IN": 20, "C.IN": 10})})
	pressKey(t, a, km.DeadQ)
	tr := topIs[*triageScreen](t, a)
	if rows := triageRows(tr); len(rows) != 3 || rows[0] != "A.IN" || tr.grid.Cursor != 0 {
		t.Fatalf("rows %v, cursor %d: want A.IN first, the cursor on it", rows, tr.grid.Cursor)
	}
	a.Update(snapshotMsg{snap: dlqGroups(2, map[string]int{"A.IN": 5, "B.IN": 40, "C.IN": 50})})
	if rows := triageRows(tr); rows[2] != "A.IN" || tr.grid.Cursor != 0 || tr.selected().Key.DestQ != "C.IN" {
		t.Fatalf("after a re-sort (%v) the cursor is on row %d, want the first row", rows, tr.grid.Cursor)
	}

	press(a, "down")
	if tr.selected().Key.DestQ != "B.IN" {
		t.Fatalf("down: on %s, want B.IN (%v)", tr.selected().Key.DestQ, triageRows(tr))
	}
	a.Update(snapshotMsg{snap: dlqGroups(3, map[string]int{"A.IN": 60, "B.IN": 1, "C.IN": 70})})
	if rows := triageRows(tr); rows[2] != "B.IN" || tr.selected().Key.DestQ != "B.IN" {
		t.Fatalf("after a move and a re-sort (%v) the cursor is on row %d, want the operator's B.IN", rows, tr.grid.Cursor)
	}

	pressKey(t, a, km.Group) // another grouping starts at its top, and stays there
	a.Update(snapshotMsg{snap: dlqGroups(4, map[string]int{"A.IN": 80, "B.IN": 1, "C.IN": 2})})
	if tr.grid.Cursor != 0 {
		t.Fatalf("after g and a poll the cursor is on row %d, want 0 (%v)", tr.grid.Cursor, triageRows(tr))
	}
}
