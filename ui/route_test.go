package ui

import (
	"strings"
	"testing"

	"github.com/poisonwatch/poisonwatch/mqwatch"
)

// TestOpenByWrapsAt200Columns: every application that has the queue open is
// named, wrapped onto the panel's rows, not cut at the screen's edge.
func TestOpenByWrapsAt200Columns(t *testing.T) {
	a, _ := newTestApp(t, 200, 60, Options{})
	snap := incident(1, 30)
	var hs []mqwatch.Handle
	for i := range 6 {
		hs = append(hs, mqwatch.Handle{Queue: "QM1.DEADQ", ApplTag: "dlq-handler-" + itoa(i), User: "mqapp",
			Channel: "APP.SVRCONN", ConnName: "10.20.30." + itoa(40+i) + "(1414)", PID: 4000 + i, Input: true, Browse: true})
	}
	snap.Focus = &mqwatch.FocusView{Queue: "QM1.DEADQ", Handles: hs}
	a.Update(snapshotMsg{snap: snap})
	press(a, "d", "tab")
	topIs[*queueScreen](t, a)
	v := a.View()
	checkFrame(t, v, 200, 60)
	for _, h := range hs {
		if !strings.Contains(joinedText(v), handleText(h)) {
			t.Fatalf("open by cuts %q:\n%s", handleText(h), v)
		}
	}
}
