package ui

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
)

// TestR10f_DialogKeepsCancelWhenMessagesWouldComeBack: when the dry run says
// messages would come back, the dialog says so with the cause, typing the
// count leaves the focus on Cancel (Run takes a tab), the dashboard's run
// asks for the check after it, and the result says what came back and
// raises the requeue-loop alert.
func TestR10f_DialogKeepsCancelWhenMessagesWouldComeBack(t *testing.T) {
	ops := &fakeOps{msg: sampleMessage(), comeBack: 2}
	a, _ := newTestApp(t, 100, 30, Options{Ops: ops})
	a.Update(snapshotMsg{snap: incident(1, 300)})
	pressKey(t, a, km.DeadQ, km.Enter, km.Mark, km.Mark, km.Requeue)
	d := a.actionDialog()
	if d == nil || d.plan.Breakdown().Back() != 2 {
		t.Fatalf("no dialog or no comes_back: %v", a.View())
	}
	for _, k := range "2" {
		press(a, string(k))
	}
	if d.onRun {
		t.Fatalf("the count is typed and messages would come back, yet Run has the focus:\n%s", ansi.Strip(a.View()))
	}
	if v := ansi.Strip(a.View()); !strings.Contains(v, "would come back") || !strings.Contains(v, "[ Cancel ]") {
		t.Fatalf("dialog:\n%s", v)
	}
	press(a, "tab", "enter")
	if len(ops.runs) != 1 || ops.runs[0].Verify != dashboardVerify {
		t.Fatalf("runs %+v: want one, with the check after it", ops.runs)
	}
	v := ansi.Strip(a.View())
	if !strings.Contains(v, "check: 2 back on") || !strings.Contains(v, "(2053: ORDERS.BO full (40/40))") {
		t.Fatalf("result:\n%s", v)
	}
	// The run and what came back are in the journal, and the next poll's
	// alerts name the requeue loop from it (R10f).
	press(a, "esc") // the dialog held the live updates
	a.Update(snapshotMsg{snap: incident(2, 30)})
	found := false
	for _, al := range a.state.QMgr(d.req.QMgr).Alerts {
		found = found || al.Rule == "R10f" && strings.Contains(al.Text, "2 of the")
	}
	if !found {
		t.Fatalf("no requeue-loop alert after the run: %+v", a.state.QMgr(d.req.QMgr).Alerts)
	}
}
