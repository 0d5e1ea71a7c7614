package ui

import (
	"strings"
	"testing"
)

// TestR1c_InhibitTogglesGET: I on the looping queue asks first (Cancel
// focused), disables GET through the engine, the row says GET OFF, and I
// again enables it naming who disabled it and when.
func TestR1c_InhibitTogglesGET(t *testing.T) {
	ops := &fixOps{fakeOps: fakeOps{msg: sampleMessage()}}
	a, _ := newTestApp(t, 120, 35, Options{Ops: ops, User: "op1"})
	a.Update(snapshotMsg{snap: incident(1, 30)})
	pressKey(t, a, km.Down, km.Inhibit)
	if v := a.View(); !strings.Contains(v, "ALTER QLOCAL(ORDERS.IN) GET(DISABLED)") || !strings.Contains(v, inhibitWhy) {
		t.Fatalf("dialog:\n%s", v)
	}
	press(a, "p")
	if v := a.View(); !strings.Contains(v, "ALTER QLOCAL(ORDERS.IN) PUT(DISABLED)") || !strings.Contains(v, "producers get MQRC_PUT_INHIBITED (2051)") {
		t.Fatalf("PUT on request:\n%s", v)
	}
	press(a, "p", "enter")
	if len(ops.inhibits) != 0 {
		t.Fatal("enter on Cancel disabled GET")
	}
	pressKey(t, a, km.Inhibit)
	press(a, "tab", "enter")
	if len(ops.inhibits) != 1 || ops.inhibits[0] != "ORDERS.IN GET(DISABLED)" {
		t.Fatalf("sent %v", ops.inhibits)
	}
	if v := a.View(); !strings.Contains(v, "GET OFF on ORDERS.IN by op1 at 03:00:01") {
		t.Fatalf("%s", v)
	}
	press(a, "esc")
	off := incident(2, 30)
	off.Queues[1].Info.InhibitGet = true
	a.Update(snapshotMsg{snap: off})
	if v := a.View(); !strings.Contains(v, "ORDERS.IN                GET OFF") {
		t.Fatalf("row lacks GET OFF:\n%s", v)
	}
	press(a, "enter")
	if v := a.View(); !strings.Contains(v, "GET OFF by op1 at 03:00:01 (I enables it)") {
		t.Fatalf("queue screen lacks who and when:\n%s", v)
	}
	press(a, "esc")
	pressKey(t, a, km.Inhibit)
	if v := a.View(); !strings.Contains(v, "GET(ENABLED)") || !strings.Contains(v, "GET was disabled by op1 at 03:00:01") {
		t.Fatalf("%s", v)
	}
	press(a, "tab", "enter")
	if len(ops.inhibits) != 2 || ops.inhibits[1] != "ORDERS.IN GET(ENABLED)" {
		t.Fatalf("sent %v", ops.inhibits)
	}
}

// TestR8c_InhibitOnlyWhereALoopOrStuckPoisonIs: I on a healthy queue says
// what it is for; read-only and viewers are refused.
func TestR8c_InhibitOnlyWhereALoopOrStuckPoisonIs(t *testing.T) {
	ops := &fixOps{fakeOps: fakeOps{msg: sampleMessage()}}
	a, _ := newTestApp(t, 120, 35, Options{Ops: ops})
	a.Update(snapshotMsg{snap: incident(1, 30)})
	cursorToQueue(t, a, "PAYMENTS.BO")
	pressKey(t, a, km.Inhibit) // PAYMENTS.BO: nothing loops there
	if _, open := a.top().(*inhibitDialog); open || !strings.Contains(a.View(), "poison loop (R1c) or with stuck poison (R8c)") {
		t.Fatalf("%s", a.View())
	}
	cursorToQueue(t, a, "PAYMENTS.IN")
	pressKey(t, a, km.Inhibit) // PAYMENTS.IN: R8c stuck poison
	if _, open := a.top().(*inhibitDialog); !open {
		t.Fatalf("no dialog on the R8c queue:\n%s", a.View())
	}
	ro, _ := newTestApp(t, 120, 35, Options{Ops: ops, ReadOnly: true, ReadOnlyWhy: "viewers cannot act"})
	ro.Update(snapshotMsg{snap: incident(1, 30)})
	pressKey(t, ro, km.Down, km.Inhibit)
	if _, open := ro.top().(*inhibitDialog); open || !strings.Contains(ro.View(), "viewers cannot act") {
		t.Fatalf("%s", ro.View())
	}
}

func TestInhibitDialogScreens(t *testing.T) {
	for _, size := range []struct{ w, h int }{{80, 24}, {200, 60}} {
		t.Run("inhibit_"+itoa(size.w)+"x"+itoa(size.h), func(t *testing.T) {
			a, _ := newTestApp(t, size.w, size.h, Options{Ops: &fixOps{fakeOps: fakeOps{msg: sampleMessage()}}})
			a.Update(snapshotMsg{snap: incident(1, 300)})
			pressKey(t, a, km.Down, km.Inhibit)
			v := a.View()
			checkFrame(t, v, size.w, size.h)
			golden(t, v)
		})
	}
}

// TestR1c_InhibitFromTheQueueScreen: I works where the looping queue's
// messages are listed, too.
func TestR1c_InhibitFromTheQueueScreen(t *testing.T) {
	ops := &fixOps{fakeOps: fakeOps{msg: sampleMessage()}}
	a, _ := newTestApp(t, 120, 35, Options{Ops: ops})
	a.Update(snapshotMsg{snap: incident(1, 30)})
	pressKey(t, a, km.Down, km.Enter, km.Inhibit)
	press(a, "tab", "enter")
	if len(ops.inhibits) != 1 || ops.inhibits[0] != "ORDERS.IN GET(DISABLED)" {
		t.Fatalf("sent %v:\n%s", ops.inhibits, a.View())
	}
}

// cursorToQueue moves the dashboard's cursor to the named queue, whatever
// the table's sort.
func cursorToQueue(t *testing.T, a *App, name string) {
	t.Helper()
	d, ok := a.top().(*dashboard)
	if !ok {
		t.Fatalf("not on the dashboard: %T", a.top())
	}
	press(a, "g")
	for range d.rows {
		if q := d.selected(); q != nil && q.View.Info.Name == name {
			return
		}
		press(a, "j")
	}
	t.Fatalf("no row for %s", name)
}

// TestR10h_InhibitDialogShowsTheChangeGatesDryRun: I shows what the
// command server would answer before Apply, and p asks again for PUT.
func TestR10h_InhibitDialogShowsTheChangeGatesDryRun(t *testing.T) {
	o := &planningFixOps{fixOps{fakeOps: fakeOps{msg: sampleMessage()}}}
	a, _ := newTestApp(t, 120, 35, Options{Ops: o, User: "op1"})
	a.Update(snapshotMsg{snap: incident(1, 30)})
	pressKey(t, a, km.Down, km.Inhibit)
	if v := a.View(); !strings.Contains(v, "dry run: MQRC_NOT_AUTHORIZED (2035)") {
		t.Fatalf("no prediction:\n%s", v)
	}
	press(a, "p")
	if v := a.View(); !strings.Contains(v, "PUT(DISABLED)") || !strings.Contains(v, "dry run: MQRC_NOT_AUTHORIZED (2035)") {
		t.Fatalf("no prediction for PUT:\n%s", v)
	}
	if len(o.inhibits) != 0 {
		t.Fatal("the dry run changed something")
	}
}
