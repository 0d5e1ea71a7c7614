package cli

import (
	"fmt"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/poisonwatch/poisonwatch/incident/record"
	"github.com/poisonwatch/poisonwatch/ui"
)

// foldAhead runs a playback App's start as its program would, until the
// recording is folded ahead: the App's fold ahead is a chain of commands
// each answered on the App's loop (here, the test's goroutine). Other
// commands of the start (ticks, sources) are run and their messages
// dropped.
func foldAhead(t testing.TB, app *ui.App) { foldAheadFor(t, app, -1) }

// foldAheadFor is foldAhead stopped after n stretches (n < 0: none).
func foldAheadFor(t testing.TB, app *ui.App, n int) {
	t.Helper()
	msgs := make(chan tea.Msg, 64)
	var run func(c tea.Cmd)
	run = func(c tea.Cmd) {
		if c == nil {
			return
		}
		go func() {
			m := c()
			if b, ok := m.(tea.BatchMsg); ok {
				for _, c := range b {
					run(c)
				}
				return
			}
			msgs <- m
		}()
	}
	run(app.Init())
	limit := time.After(2 * time.Minute)
	for {
		select {
		case m := <-msgs:
			if fmt.Sprintf("%T", m) != "ui.aheadMsg" {
				continue
			}
			if n == 0 {
				return // stopped midway: the rest is never folded
			}
			n--
			_, c := app.Update(m)
			if c == nil {
				return // the end: the checkpoints are the App's
			}
			run(c)
		case <-limit:
			t.Fatal("the playback was not folded ahead within 2 minutes")
		}
	}
}

// simPlayback records d of the built-in demo and returns its first
// frame's time and a way to open it in a new playback App (140×45).
func simPlayback(t *testing.T, d time.Duration) (time.Time, func() *ui.App) {
	t.Helper()
	path := simRecord(t, d)
	rec, err := record.ReadAll(path)
	if err != nil {
		t.Fatal(err)
	}
	return rec.Frames()[0].Time(), func() *ui.App {
		app, _ := openPlayback(t, path, 140, 45)
		return app
	}
}

// A playback folded ahead, once it has taken the checkpoints (all of them,
// or those folded so far when a jump comes midway), jumps forward from a
// checkpoint rather than folding everything between; what it shows is
// what folding straight from the start shows, wherever it jumps, forward
// or back.
func TestPlaybackFoldedAheadShowsTheSamePicture(t *testing.T) {
	first, open := simPlayback(t, 7*time.Minute)
	ahead, midway := open(), open()
	foldAhead(t, ahead)
	foldAheadFor(t, midway, 3) // checkpoints up to about three minutes in, adopted at the first jump
	for _, to := range []time.Duration{6*time.Minute + 31*time.Second, 2*time.Minute + 10*time.Second, 30 * time.Second, 4*time.Minute + 3*time.Second} {
		target := first.Add(to).Truncate(time.Second)
		jumpTo(ahead, target)
		straight := open()
		jumpTo(straight, target)
		if got, want := ahead.View(), straight.View(); got != want {
			t.Errorf("at +%s: folded ahead\n%s\nfrom the start\n%s", to, got, want)
		}
		jumpTo(midway, target)
		if got, want := midway.View(), straight.View(); got != want {
			t.Errorf("at +%s: folded ahead midway\n%s\nfrom the start\n%s", to, got, want)
		}
	}
}
