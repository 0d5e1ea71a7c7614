package ui

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/poisonwatch/poisonwatch/codec/mqfmt"
)

// TestJMSTimestampReadsAsADate: the message screen's RFH2 tab shows the jms
// folder's Tms with its date, as decode does.
func TestJMSTimestampReadsAsADate(t *testing.T) {
	a, _ := newTestApp(t, 120, 35, Options{})
	d := &detailScreen{st: &a.st}
	es := []mqfmt.Element{mqfmt.NewTypedElement("Tms", "i8", "1446139225436"), mqfmt.NewTypedElement("Dlv", "i4", "2")}
	got := ansi.Strip(strings.Join(d.elementLines("jms", es, "", false), "\n"))
	if !strings.Contains(got, "1446139225436 (i8, 2015-10-29 17:20:25.436 GMT)") || !strings.Contains(got, "2 (i4)") {
		t.Fatalf("jms folder:\n%s", got)
	}
}
