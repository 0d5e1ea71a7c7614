package ui

import (
	"fmt"
	"strings"
	"testing"
)

// TestTriageShowsTheEventsThatExplainAGroup: with the event queues watched,
// the group under the cursor shows the events on its destination with its
// reason (an authority or queue-full event beside the dead letters it
// explains); a group no event explains shows none.
func TestTriageShowsTheEventsThatExplainAGroup(t *testing.T) {
	var asked []string
	a, _ := newTestApp(t, 200, 35, Options{Events: func(qm string, reason int32, queue string) string {
		asked = append(asked, fmt.Sprintf("%s/%d/%s", qm, reason, queue))
		if reason == 2053 || reason == 2035 {
			return fmt.Sprintf("2× event %d on %s", reason, queue)
		}
		return ""
	}})
	a.Update(snapshotMsg{snap: incident(1, 30)})
	press(a, "d")
	ts := a.top().(*triageScreen)
	if g := ts.selected(); g == nil || g.Key.Reason != 2085 {
		t.Fatalf("the fixture's largest group is 2085 on INVOICE.IN, got %+v", g)
	}
	if v := a.View(); strings.Contains(v, "⚑") {
		t.Errorf("an event line under a group no event explains:\n%s", v)
	}
	press(a, "down")
	if g := ts.selected(); g == nil || g.Key.Reason != 2053 || g.Key.DestQ != "AUDIT.IN" {
		t.Fatalf("the second group is 2053 on AUDIT.IN, got %+v", g)
	}
	if v := a.View(); !strings.Contains(v, "⚑ 2× event 2053 on AUDIT.IN") {
		t.Errorf("no event line under the queue-full group:\n%s", v)
	}
	if len(asked) == 0 || !strings.HasPrefix(asked[len(asked)-1], "QM1/2053/AUDIT.IN") {
		t.Errorf("asked %v", asked)
	}
}
