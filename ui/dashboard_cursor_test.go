package ui

import (
	"testing"

	"github.com/poisonwatch/poisonwatch/mqwatch"
)

// calm is the incident before its trouble showed: nothing rolled back, the
// BOQ nearly empty. The first polls of a session look like this while the
// watcher warms up.
func calm(seq uint64) *mqwatch.Snapshot {
	s := incident(seq, 0)
	s.Heads = nil
	s.Queues[0].Status.Depth = 1
	s.Queues[1].Status.Depth = 10
	return s
}

func dashRows(d *dashboard) []string {
	var out []string
	for _, qs := range d.rows {
		out = append(out, qs.View.Info.Name)
	}
	return out
}

// The dashboard opens on its worst queue: until the operator moves the
// cursor it stays on the first row while the first polls re-sort the table
// by severity; once they have moved it, it follows their queue.
func TestDashboardCursorStaysOnTopUntilMoved(t *testing.T) {
	a, _ := newTestApp(t, 120, 40, Options{})
	a.Update(snapshotMsg{snap: calm(1)})
	d := topIs[*dashboard](t, a)
	first := dashRows(d)
	a.Update(snapshotMsg{snap: incident(2, 300)})
	sorted := dashRows(d)
	if first[0] == sorted[0] {
		t.Fatalf("the fixture does not re-sort: %v then %v", first, sorted)
	}
	if d.grid.Cursor != 0 || d.selected().View.Info.Name != sorted[0] {
		t.Fatalf("cursor on row %d (%s) after the re-sort %v, want the top row %s", d.grid.Cursor, d.selected().View.Info.Name, sorted, sorted[0])
	}

	press(a, "down")
	mine := d.selected().View.Info.Name
	a.Update(snapshotMsg{snap: calm(3)})
	if got := d.selected().View.Info.Name; got != mine {
		t.Fatalf("after a move the cursor is on %s, want the operator's %s (rows %v)", got, mine, dashRows(d))
	}
	if dashRows(d)[1] == mine {
		t.Fatalf("the fixture does not move %s: %v", mine, dashRows(d))
	}

	press(a, "s") // another order starts at its top, and stays there
	a.Update(snapshotMsg{snap: incident(4, 300)})
	if d.grid.Cursor != 0 {
		t.Fatalf("after s and a poll the cursor is on row %d, want 0 (%v)", d.grid.Cursor, dashRows(d))
	}
}
