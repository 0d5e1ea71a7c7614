package ui

import (
	"strings"
	"testing"
)

// TestAlertDetailScrollsAt80x24: an alert taller than an 80x24 screen says
// how much is left and scrolls to its end, where its rule is; one that fits
// shows no position line.
func TestAlertDetailScrollsAt80x24(t *testing.T) {
	a, _ := newTestApp(t, 80, 24, Options{Ops: &fakeOps{msg: sampleMessage()}})
	a.Update(snapshotMsg{snap: incident(1, 300)})
	press(a, "tab", "j", "enter")
	v := a.View()
	if !strings.Contains(v, "↓ j/pgdown for the rest") || strings.Contains(v, "Rule R") {
		t.Fatalf("a long alert at 80x24 should show its start and say there is more:\n%s", v)
	}
	pressKey(t, a, km.End)
	v = a.View()
	checkFrame(t, v, 80, 24)
	if !strings.Contains(v, "Rule R") || strings.Contains(v, "for the rest") {
		t.Fatalf("after end the alert's rule should show, with nothing left below:\n%s", v)
	}
	pressKey(t, a, km.Home)
	if v := a.View(); !strings.Contains(v, "Why") {
		t.Fatalf("home goes back to the start:\n%s", v)
	}

	b, _ := newTestApp(t, 160, 48, Options{Ops: &fakeOps{msg: sampleMessage()}})
	b.Update(snapshotMsg{snap: incident(1, 300)})
	press(b, "tab", "j", "enter")
	if v := b.View(); strings.Contains(v, "lines 1–") || !strings.Contains(v, "Rule R") {
		t.Fatalf("an alert that fits shows whole, without a position line:\n%s", v)
	}
}
