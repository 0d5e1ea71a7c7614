package ui

import (
	"strings"
	"testing"
)

// TestExportEnterTakesTheTypedFileAndRunsTheBrowse: the export dialog opens
// with a file name ready, so enter takes it (focus on the action, as typing a
// value gives requeue and discard); after the dry run of a browse enter
// exports, without a tab.
func TestExportEnterTakesTheTypedFileAndRunsTheBrowse(t *testing.T) {
	ops := &fakeOps{msg: sampleMessage()}
	a, _ := newTestApp(t, 120, 35, Options{Ops: ops})
	a.Update(snapshotMsg{snap: incident(1, 30)})
	pressKey(t, a, km.DeadQ, km.Enter, km.Mark, km.Export)
	if !strings.Contains(a.View(), "[ Run ]") {
		t.Fatalf("export opens with Cancel focused over a ready file name:\n%s", a.View())
	}
	press(a, "backspace", "backspace", "backspace", "backspace", ".", "d", "m", "p")
	if !strings.Contains(a.View(), "[ Run ]") {
		t.Fatalf("typing the file name left Cancel focused:\n%s", a.View())
	}
	press(a, "enter")
	if d := a.actionDialog(); d == nil || d.askTarget {
		t.Fatalf("enter after typing the file name did not dry-run:\n%s", a.View())
	}
	if !strings.Contains(a.View(), "[ Run ]") {
		t.Fatalf("after the export's dry run the focus went back to Cancel:\n%s", a.View())
	}
	press(a, "enter")
	if len(ops.runs) != 1 || ops.runs[0].Op != "export" || !strings.HasSuffix(ops.runs[0].File, ".dmp") {
		t.Fatalf("enter, enter did not export: runs %+v\n%s", ops.runs, a.View())
	}
}
