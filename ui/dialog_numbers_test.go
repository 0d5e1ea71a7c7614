package ui

import (
	"strings"
	"testing"
)

// TestDialogCountsHaveOneFormat: every count the dialog itself writes reads
// 1,257, like its ×1,257 lines; the confirmation takes the count typed with
// or without the commas.
func TestDialogCountsHaveOneFormat(t *testing.T) {
	ops := &fakeOps{msg: sampleMessage()}
	a, _ := newTestApp(t, 120, 35, Options{Ops: ops})
	a.Update(snapshotMsg{snap: incident(1, 1300)})
	pressKey(t, a, km.DeadQ, km.Requeue) // the 2085 group under the cursor: 1,257 messages
	v := a.View()
	for _, want := range []string{"REQUEUE — 1,257 message(s)", "×1,257", "(type 1,257 to confirm)", "Run is off: type 1,257 to confirm"} {
		if !strings.Contains(v, want) {
			t.Fatalf("the dialog lacks %q:\n%s", want, v)
		}
	}
	press(a, typed("1,257")...)
	press(a, "enter")
	if len(ops.runs) != 1 {
		t.Fatalf("1,257 typed did not confirm:\n%s", a.View())
	}
	if v := a.View(); !strings.Contains(v, "done: 1,257 · skipped 0 · failed 0") {
		t.Fatalf("the result's counts:\n%s", v)
	}
}
