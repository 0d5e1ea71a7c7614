package ui

import (
	"strings"
	"testing"

	"github.com/poisonwatch/poisonwatch/mqwatch"
)

// midScan is incident's snapshot while the watcher has read only the first
// n of the DEADQ's depth messages: a partial snapshot of its first poll.
func midScan(seq uint64, n, depth int) *mqwatch.Snapshot {
	snap := incident(seq, depth)
	inv := snap.Inventories["QM1.DEADQ"]
	var part *mqwatch.Inventory
	for i := 0; i < n; i++ {
		part = part.Append(*inv.At(i))
	}
	snap.Inventories = map[string]*mqwatch.Inventory{"QM1.DEADQ": part}
	snap.Scan = &mqwatch.ScanProgress{Queue: "QM1.DEADQ", Scanned: n, Depth: depth}
	return snap
}

// While the first read of a DEADQ goes on, its triage shows the groups of
// what was read with the progress, grows with each partial snapshot, can be
// navigated and opened, and drops the progress line when the read ends.
func TestTriageGrowsWhileTheDeadQIsRead(t *testing.T) {
	a, _ := newTestApp(t, 120, 35, Options{})
	a.Update(snapshotMsg{snap: midScan(1, 120, 300)})
	press(a, "d")
	v := a.View()
	for _, want := range []string{"scanned 120 of 300 (40%)", "×116", "×4", "2085 UNKNOWN_OBJECT_NAME → INVOICE.IN (QM2)"} {
		if !strings.Contains(v, want) {
			t.Fatalf("mid-scan triage lacks %q:\n%s", want, v)
		}
	}
	press(a, "j") // onto AUDIT.IN, the smaller group
	a.Update(snapshotMsg{snap: midScan(2, 240, 300)})
	tr := topIs[*triageScreen](t, a)
	if g := tr.selected(); g == nil || g.Key.DestQ != "AUDIT.IN" || g.Count != 8 {
		t.Fatalf("cursor left its group as the counts grew: %+v", g)
	}
	if v := a.View(); !strings.Contains(v, "scanned 240 of 300 (80%)") || !strings.Contains(v, "×232") {
		t.Fatalf("triage did not grow with the read:\n%s", v)
	}
	press(a, "enter")
	if qs := topIs[*queueScreen](t, a); qs.msgs.Len() != 8 {
		t.Fatalf("group opened mid-scan lists %d messages, want the 8 read", qs.msgs.Len())
	}
	press(a, "esc")
	final := incident(3, 300)
	final.Deltas = map[string]mqwatch.InventoryDelta{"QM1.DEADQ": {Resync: true}}
	a.Update(snapshotMsg{snap: final})
	if v := a.View(); strings.Contains(v, "scanned") || !strings.Contains(v, "×290") || !strings.Contains(v, "×10") {
		t.Fatalf("after the read the triage shows:\n%s", v)
	}
}

// TestScreenMidScan is the triage golden while the DEADQ is being read.
func TestScreenMidScan(t *testing.T) {
	for _, size := range []struct{ w, h int }{{80, 24}, {160, 48}} {
		t.Run(itoa(size.w)+"x"+itoa(size.h), func(t *testing.T) {
			a, _ := newTestApp(t, size.w, size.h, Options{})
			a.Update(snapshotMsg{snap: midScan(1, 240, 1000)})
			press(a, "d")
			v := a.View()
			checkFrame(t, v, size.w, size.h)
			golden(t, v)
		})
	}
}

// Frozen, the dashboard holds the polls it must fold later, but not the
// partial snapshots of a long read that a later snapshot supersedes.
func TestFrozenHoldsNoSupersededPartialSnapshot(t *testing.T) {
	a, _ := newTestApp(t, 120, 35, Options{})
	a.Update(snapshotMsg{snap: incident(1, 30)})
	press(a, "f")
	a.Update(snapshotMsg{snap: midScan(2, 10, 300)})
	a.Update(snapshotMsg{snap: midScan(3, 20, 300)})
	if n := len(a.pending[0]); n != 1 || !a.pending[0][0].Partial() || a.pending[0][0].Seq != 3 {
		t.Fatalf("held %d snapshots, want the latest partial one", n)
	}
	final := incident(4, 300)
	a.Update(snapshotMsg{snap: final})
	if n := len(a.pending[0]); n != 1 || a.pending[0][0] != final {
		t.Fatalf("held %d snapshots, want the poll's own", n)
	}
	press(a, "f")
	if g := a.state.QMgr("QM1").Groups["QM1.DEADQ"]; g == nil || len(a.pending[0]) != 0 {
		t.Fatal("unfreezing did not fold what was held")
	}
	if got := a.state.QMgr("QM1").Groups["QM1.DEADQ"].Groups(0)[0].Count; got != 290 {
		t.Fatalf("after unfreezing the largest group has %d messages, want 290", got)
	}
}
