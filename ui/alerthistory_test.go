package ui

import (
	"strings"
	"testing"
	"time"
)

// TestFlowAcknowledge: K on the focused alert asks for a note; enter
// records it, the flash says who and why, the alert is dimmed and listed
// after the rest, and the header counts it apart.
func TestFlowAcknowledge(t *testing.T) {
	for _, size := range []struct{ w, h int }{{80, 24}, {200, 60}} {
		t.Run(itoa(size.w)+"x"+itoa(size.h), func(t *testing.T) {
			a, _ := newTestApp(t, size.w, size.h, Options{User: "alice"})
			a.Update(snapshotMsg{snap: incident(1, 300)})
			pressKey(t, a, km.Tab)
			first := a.state.QMgrs["QM1"].Alerts[0]
			pressKey(t, a, km.Ack)
			t.Run("dialog", func(t *testing.T) {
				v := a.View()
				checkFrame(t, v, size.w, size.h)
				golden(t, v)
			})
			press(a, strings.Split("on it", "")...)
			press(a, "enter")
			v := a.View()
			checkFrame(t, v, size.w, size.h)
			for _, want := range []string{"acked by alice 03:00: on it", "✓1 acked", "Alerts (4, 1 acked)"} {
				if !strings.Contains(v, want) {
					t.Errorf("screen lacks %q:\n%s", want, v)
				}
			}
			al := a.state.QMgrs["QM1"].Alerts
			if last := al[len(al)-1]; last.Key() != first.Key() || !last.Acked(a.opt.Now()) {
				t.Errorf("the acknowledged alert is not last: %+v", last)
			}
			t.Run("acked", func(t *testing.T) { golden(t, v) })
			pressKey(t, a, km.Alerts)
			t.Run("all_alerts", func(t *testing.T) {
				v := a.View()
				checkFrame(t, v, size.w, size.h)
				golden(t, v)
			})
		})
	}
}

// TestFlowSnooze: Z offers 15m/1h/4h/until it clears; tab picks one.
func TestFlowSnooze(t *testing.T) {
	a, _ := newTestApp(t, 80, 24, Options{User: "bob"})
	a.Update(snapshotMsg{snap: incident(1, 300)})
	pressKey(t, a, km.Tab, km.Snooze)
	press(a, "tab")
	v := a.View()
	checkFrame(t, v, 80, 24)
	golden(t, v)
	press(a, "enter")
	if v := a.View(); !strings.Contains(v, "snoozed by bob 03:00 until 04:00") {
		t.Errorf("no snooze in the flash:\n%s", v)
	}
	// An hour later the snooze is over: the alert counts again.
	a.opt.Now = func() time.Time { return clock.Add(61 * time.Minute) }
	c, w := alertCounts(a.opt.Now(), a.state.QMgrs["QM1"])
	if c+w != 4 {
		t.Errorf("after the snooze: %d crit + %d warn, want all 4 counted (the fifth is info)", c, w)
	}
}

// TestFlowAckEscLeavesTheAlert: esc in the dialog records nothing.
func TestFlowAckEscLeavesTheAlert(t *testing.T) {
	a, _ := newTestApp(t, 80, 24, Options{User: "alice"})
	a.Update(snapshotMsg{snap: incident(1, 300)})
	pressKey(t, a, km.Tab, km.Ack)
	press(a, "x", "esc")
	for _, al := range a.state.QMgrs["QM1"].Alerts {
		if al.History.Ack.By != "" {
			t.Fatalf("esc recorded %+v", al.History.Ack)
		}
	}
}
