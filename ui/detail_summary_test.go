package ui

import (
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"

	"github.com/poisonwatch/poisonwatch/model"
	"github.com/poisonwatch/poisonwatch/mqwatch"
)

// stillPlayback is a recording of one poll: the incident fixture.
type stillPlayback struct{ snap *mqwatch.Snapshot }

func (p stillPlayback) Interval() time.Duration { return 2 * time.Second }
func (p stillPlayback) At() time.Time           { return clock }
func (p stillPlayback) Bounds() (time.Time, time.Time, bool) {
	return clock, clock, true
}
func (p stillPlayback) PollTime(int) time.Time { return clock }
func (p stillPlayback) Seek(time.Time) ([]model.PlaybackStep, bool) {
	return []model.PlaybackStep{{Snap: p.snap}}, true
}

// TestPlaybackMessageShowsItsSummary: a playback never fetched a message
// (a recording keeps summaries, not bodies), so every tab of the message
// screen is drawn from the recorded summary and says the body was not
// recorded; none panics, none claims a connection is missing.
func TestPlaybackMessageShowsItsSummary(t *testing.T) {
	a, _ := newTestApp(t, 120, 35, Options{Playback: stillPlayback{incident(1, 3)}})
	press(a, "d", "enter", "enter")
	want := map[string][]string{
		"DLH":   {"body was not recorded", "Reason", "2085", "MQRC_UNKNOWN_OBJECT_NAME", "'INVOICE.IN'", "'QM2'", "'amqrmppa'"},
		"MQMD":  {"body was not recorded", "MsgId", "414D5120514D31", "Persistence        1", "Length             210 bytes"},
		"Body":  {"body was not recorded", "210 bytes in all", "'MQSTR'"},
		"Route": {"What happens to this message next"},
		"RFH2":  {"no MQRFH2 in this message"},
	}
	for i := 0; i < len(detailTabs); i++ {
		v := ansi.Strip(a.View())
		tab := ""
		for _, name := range detailTabs {
			if strings.Contains(v, "["+name+"]") {
				tab = name
			}
		}
		if tab == "" {
			t.Fatalf("not on the message screen:\n%s", v)
		}
		for _, w := range want[tab] {
			if !strings.Contains(v, w) {
				t.Errorf("%s tab lacks %q:\n%s", tab, w, v)
			}
		}
		if strings.Contains(v, "no connection") || strings.Contains(v, "cannot read") {
			t.Errorf("%s tab blames a connection:\n%s", tab, v)
		}
		delete(want, tab)
		press(a, "tab")
	}
	if len(want) > 0 {
		t.Errorf("tabs never shown: %v", want)
	}
}

// TestMessageScreenWithoutOpsNeverPanics: a dashboard with no connection
// for reading messages opens a dead letter on its error, the summary's tabs
// never reading a message that is not there.
func TestMessageScreenWithoutOpsNeverPanics(t *testing.T) {
	a, _ := newTestApp(t, 120, 35, Options{})
	a.Update(snapshotMsg{snap: incident(1, 3)})
	press(a, "d", "enter", "enter")
	for range detailTabs {
		press(a, "tab")
	}
	if v := ansi.Strip(a.View()); !strings.Contains(v, "MsgId") {
		t.Fatalf("not on the message screen:\n%s", v)
	}
}
