package ui

import (
	"strings"
	"testing"
)

// TestDialogSaysWhichGroupsItsMarksComeFrom: marks made on one group and
// acted on from another group's screen are not "hidden by the current
// filter" (no filter is set): the dialog names the group they come from and
// says it is not the one on view.
func TestDialogSaysWhichGroupsItsMarksComeFrom(t *testing.T) {
	a, _ := newTestApp(t, 120, 35, Options{Ops: &fakeOps{msg: sampleMessage()}})
	a.Update(snapshotMsg{snap: incident(1, 300)})
	pressKey(t, a, km.DeadQ, km.Down, km.Mark, km.Up, km.Enter) // mark the 2053 group, open the 2085 one
	if s := topIs[*queueScreen](t, a); s.loc.Group == nil || s.loc.Group.Reason != 2085 {
		t.Fatalf("not on the 2085 group: %+v", s.loc)
	}
	pressKey(t, a, km.Requeue)
	v := a.View()
	if a.actionDialog() == nil {
		t.Fatalf("no dialog:\n%s", v)
	}
	if strings.Contains(v, "hidden by the current filter") {
		t.Fatalf("marks from another group read as hidden by a filter:\n%s", v)
	}
	if !strings.Contains(v, "requeue marks from another group") {
		t.Fatalf("the breadcrumb reads as if the group on view were requeued:\n%s", v)
	}
	j := joinedText(v)
	if !strings.Contains(j, "2053 Q_FULL → AUDIT.IN (QM2) ×10") || !strings.Contains(j, "not in the 2085") {
		t.Fatalf("the dialog does not say its marks come from the 2053 group:\n%s", v)
	}
}
