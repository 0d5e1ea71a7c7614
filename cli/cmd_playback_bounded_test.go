package cli

import (
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"
	"github.com/muesli/termenv"
)

// A dead letter opened in the playback of an ordinary sim --record
// (never fetched: a recording keeps summaries, not bodies) shows every tab
// from its recorded summary; it used to panic on the MQDLH tab.
func TestPlaybackOpensARecordedDeadLetter(t *testing.T) {
	r := lipgloss.NewRenderer(nil)
	r.SetColorProfile(termenv.Ascii)
	app, err := playbackApp(simRecord(t, 2*time.Minute), tuiOpts{}, r)
	if err != nil {
		t.Fatal(err)
	}
	app.Update(windowSizeMsg(120, 35))
	pressKeys(app, "}", "d", "enter", "enter")
	seen := map[string]bool{}
	for range 5 {
		v := ansi.Strip(app.View())
		for _, tab := range []string{"MQMD", "RFH2", "DLH", "Body", "Route"} {
			if strings.Contains(v, "["+tab+"]") {
				seen[tab] = true
			}
		}
		if strings.Contains(v, "[DLH]") && (!strings.Contains(v, "its body was not recorded") || !strings.Contains(v, "DestQName")) {
			t.Fatalf("the DLH tab:\n%s", v)
		}
		app.Update(tea.KeyMsg{Type: tea.KeyTab})
	}
	if len(seen) != 5 {
		t.Errorf("tabs shown: %v", seen)
	}
}

// The playback of a recording whose names carry terminal escapes draws
// them as visible escapes: nothing reaches the terminal to act on it (a
// queue manager's name used to retitle the tmux pane).
func TestPlaybackOfAHostileRecordingIsTerminalSafe(t *testing.T) {
	r := lipgloss.NewRenderer(nil)
	r.SetColorProfile(termenv.Ascii)
	app, err := playbackApp(hostileRecordingFile(t), tuiOpts{}, r)
	if err != nil {
		t.Fatal(err)
	}
	app.Update(windowSizeMsg(160, 40))
	for _, keys := range [][]string{nil, {"]", "]"}, {"d"}, {"enter"}, {"enter"}} {
		pressKeys(app, keys...)
		v := app.View()
		assertTerminalSafe(t, v)
		if keys == nil && !strings.Contains(v, `QM1\x1b]0;PWNED\x07`) {
			t.Fatalf("the queue manager is not named:\n%s", v)
		}
	}
}
