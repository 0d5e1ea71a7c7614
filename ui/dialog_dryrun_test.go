package ui

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
)

// TestDialogWithNothingToActOnAsksForNoCount: when the dry run says every
// message would fail, there is no count to type (not even 0) and Run says why
// it is off.
func TestDialogWithNothingToActOnAsksForNoCount(t *testing.T) {
	ops := &fakeOps{msg: sampleMessage(), failFirst: 1000}
	a, _ := newTestApp(t, 80, 24, Options{Ops: ops})
	a.Update(snapshotMsg{snap: incident(1, 300)})
	press(a, "d", "enter", "space", "space", "R", "0")
	v := ansi.Strip(a.View())
	if strings.Contains(v, "type 0") || strings.Contains(v, "count:") || a.actionDialog().onRun ||
		!strings.Contains(v, "Run is off: the dry run found nothing that would be acted on") {
		t.Fatalf("a dialog where nothing would be acted on:\n%s", v)
	}
}

// TestDialogShowsTheEnginesWarnings: what the dry run warns of is on the
// dialog, wrapped, before Run.
func TestDialogShowsTheEnginesWarnings(t *testing.T) {
	ops := &fakeOps{msg: sampleMessage(), warn: "21 were dead-lettered by their consumer with MQRC_JMS_FORMAT_ERROR (2364): put back unchanged, they will most likely be refused again"}
	a, _ := newTestApp(t, 80, 24, Options{Ops: ops})
	a.Update(snapshotMsg{snap: incident(1, 30)})
	press(a, "d", "enter", "enter", "R")
	var b strings.Builder
	for _, l := range strings.Split(ansi.Strip(a.View()), "\n") {
		b.WriteString(strings.TrimSpace(l) + " ")
	}
	if !strings.Contains(b.String(), "⚠ "+ops.warn) {
		t.Fatalf("the dialog lacks the warning:\n%s", a.View())
	}
}
