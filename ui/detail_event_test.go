package ui

import (
	"io"
	"strings"
	"testing"

	"github.com/charmbracelet/lipgloss"

	"github.com/poisonwatch/poisonwatch/codec/mqfmt"
	"github.com/poisonwatch/poisonwatch/mqwatch/pcf"
	"github.com/poisonwatch/poisonwatch/themes"
)

// TestMessageScreenShowsAnEvent: a queue-full event on the message screen
// reads as the event, with its queue; masked, only its name is shown.
func TestMessageScreenShowsAnEvent(t *testing.T) {
	th, err := themes.Load("dark")
	if err != nil {
		t.Fatal(err)
	}
	st := NewStyles(lipgloss.NewRenderer(io.Discard), th)
	data, err := pcf.EncodeEvent(mqfmt.EncodingNative, mqfmt.EventCmdPerfm, mqfmt.RCQFull,
		[]pcf.Param{pcf.Str(pcf.EventParamQMgrName, "QM1"), pcf.Str(pcf.EventParamQName, "APP.IN")})
	if err != nil {
		t.Fatal(err)
	}
	b := mqfmt.Body{Format: mqfmt.FmtEvent, Encoding: mqfmt.EncodingNative, CCSID: mqfmt.CCSIDUTF8}
	all := strings.Join(eventLines(&st, data, b, false), "\n")
	for _, want := range []string{"event: Queue Full", "MQRC_Q_FULL (2053)", "MQCMD_PERFM_EVENT", "QName", "'APP.IN'"} {
		if !strings.Contains(all, want) {
			t.Errorf("lacks %q:\n%s", want, all)
		}
	}
	if masked := strings.Join(eventLines(&st, data, b, true), "\n"); strings.Contains(masked, "APP.IN") {
		t.Errorf("masked shows parameters:\n%s", masked)
	}
	if eventLines(&st, data, mqfmt.Body{Format: mqfmt.FmtString}, false) != nil {
		t.Error("an MQSTR body read as an event")
	}
}
