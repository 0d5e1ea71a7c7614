package cli

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"
	"github.com/muesli/termenv"

	"github.com/poisonwatch/poisonwatch/incident/record"
	"github.com/poisonwatch/poisonwatch/model"
	"github.com/poisonwatch/poisonwatch/ui"
)

// simRecord records d of the built-in demo to a new file.
func simRecord(t testing.TB, d time.Duration) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "demo.pwrec")
	var out, errs bytes.Buffer
	if code := Run(context.Background(), []string{"sim", "--record", path, "--duration", d.String()}, &out, &errs); code != 0 {
		t.Fatalf("sim --record: exit %d: %s", code, errs.String())
	}
	return path
}

// depths is a recording's story in figures: per poll, relative to the
// first, each queue manager's queues and their depths.
func depths(t testing.TB, path string) (string, *record.Recording) {
	t.Helper()
	r, err := record.ReadAll(path)
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	first := r.Frames()[0].Time()
	for _, fr := range r.Frames() {
		if fr.Poll == nil {
			continue
		}
		fmt.Fprintf(&b, "%s %s", fr.Poll.QMgr, fr.Poll.Time.Sub(first))
		for _, q := range fr.Poll.Queues {
			fmt.Fprintf(&b, " %s=%d", q.Info.Name, q.Status.Depth)
		}
		b.WriteByte('\n')
	}
	return b.String(), r
}

// sim --record: polls every interval of simulated time, the same story on
// every run of a seed; alerts fire in it; folded back, the DEADQ holds
// what the last poll said.
func TestSimRecordIsDeterministicAndReplays(t *testing.T) {
	a, r := depths(t, simRecord(t, 3*time.Minute))
	b, _ := depths(t, simRecord(t, 3*time.Minute))
	if a != b {
		t.Fatal("two recordings of one seed differ")
	}
	if polls := strings.Count(a, "\n"); polls != 3*(90+1) {
		t.Errorf("%d polls recorded, want 3 queue managers × 91 (every 2s for 3m, both ends)", polls)
	}
	fired := 0
	st := model.New(time.Now, 2*time.Second)
	reb := record.NewRebuilder()
	var lastDepth int32
	for _, fr := range r.Frames() {
		if fr.Alert != nil && fr.Alert.Kind == "fired" {
			fired++
		}
		if snap := reb.Frame(fr); snap != nil {
			st.Fold(snap)
			if fr.Poll.QMgr == "QM1" {
				for _, v := range snap.Queues {
					if v.Info.Name == snap.QMgr.DeadQ {
						lastDepth = v.Status.Depth
					}
				}
			}
		}
	}
	if fired == 0 {
		t.Error("no alert fired in three minutes of the demo")
	}
	q := st.QMgr("QM1")
	if inv := q.Snap.Inventories[q.Snap.QMgr.DeadQ]; inv == nil || int32(inv.Len()) != lastDepth {
		t.Errorf("replayed DEADQ inventory does not hold the last poll's depth %d", lastDepth)
	}
}

// poisonwatch playback: the first frame says PLAYBACK and the recording's
// first time; ] steps a poll, t jumps.
func TestPlaybackAppSteps(t *testing.T) {
	path := simRecord(t, 2*time.Minute)
	r := lipgloss.NewRenderer(nil)
	r.SetColorProfile(termenv.Ascii)
	app, err := playbackApp(path, tuiOpts{}, r)
	if err != nil {
		t.Fatal(err)
	}
	rec, _ := record.ReadAll(path)
	first := rec.Frames()[0].Time()
	app.Update(windowSizeMsg(120, 35))
	head := func() string { return ansi.Strip(strings.Split(app.View(), "\n")[0]) }
	if want := "PLAYBACK " + first.Format("15:04:05"); !strings.Contains(head(), want) {
		t.Fatalf("header %q lacks %q", head(), want)
	}
	pressKeys(app, "]")
	if want := "PLAYBACK " + first.Add(2*time.Second).Format("15:04:05"); !strings.Contains(head(), want) {
		t.Errorf("after ]: header %q lacks %q", head(), want)
	}
	pressKeys(app, "}", "{")
	if want := "PLAYBACK " + first.Add(2*time.Second).Format("15:04:05"); !strings.Contains(head(), want) {
		t.Errorf("after } {: header %q lacks %q", head(), want)
	}
	to := first.Add(90 * time.Second).Truncate(time.Second)
	pressKeys(app, "t")
	pressKeys(app, strings.Split(to.Format("15:04:05"), "")...)
	pressKeys(app, "enter")
	if !strings.Contains(head(), "PLAYBACK "+to.Add(-2*time.Second).Format("15:04")) {
		t.Errorf("after t %s: header %q", to.Format("15:04:05"), head())
	}
	if v := app.View(); !strings.Contains(v, "[RO]") {
		t.Error("a replay is not read-only")
	}
}

var hourRecording = sync.OnceValue(func() string {
	dir, _ := os.MkdirTemp("", "pwbench")
	path := filepath.Join(dir, "hour.pwrec")
	var out, errs bytes.Buffer
	if code := Run(context.Background(), []string{"sim", "--record", path, "--duration", "1h"}, &out, &errs); code != 0 {
		panic(errs.String())
	}
	return path
})

// BenchmarkRecordDemoHour records an hour of the built-in demo (3 queue
// managers polled every 2s) with sim --record and reports the file's size:
// the budget is 20 MB.
func BenchmarkRecordDemoHour(b *testing.B) {
	for b.Loop() {
		path := simRecord(b, time.Hour)
		st, err := os.Stat(path)
		if err != nil {
			b.Fatal(err)
		}
		b.ReportMetric(float64(st.Size())/1e6, "MB/hour")
	}
}

// BenchmarkReplayOpenHour opens a one-hour recording and renders its first
// frame: what `poisonwatch playback FILE` makes the operator wait for.
func BenchmarkReplayOpenHour(b *testing.B) { benchmarkOpen(b, hourRecording()) }

// benchmarkOpen opens the recording at path in a playback App until its
// first frame, each op; the rest of the file is not its business.
func benchmarkOpen(b *testing.B, path string) {
	r := lipgloss.NewRenderer(nil)
	r.SetColorProfile(termenv.Ascii)
	for b.Loop() {
		app, rec, err := playbackAppOf(path, tuiOpts{}, r)
		if err != nil {
			b.Fatal(err)
		}
		app.Update(windowSizeMsg(120, 35))
		if !strings.Contains(playbackHead(app), "PLAYBACK") {
			b.Fatal("no playback header")
		}
		rec.Close()
		rec.Wait()
	}
}

func windowSizeMsg(w, h int) tea.WindowSizeMsg { return tea.WindowSizeMsg{Width: w, Height: h} }

// pressKeys sends keys to an App; the replay's keys need no command run.
func pressKeys(app *ui.App, keys ...string) {
	for _, k := range keys {
		msg := tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(k)}
		if k == "enter" {
			msg = tea.KeyMsg{Type: tea.KeyEnter}
		}
		app.Update(msg)
	}
}

// TestReplayIsTheR10eOperationAlone: replay given a recording does not
// open it (replay is R10e, copies of messages); it names playback, which
// opens it (its usage is the recording's).
func TestReplayIsTheR10eOperationAlone(t *testing.T) {
	path := simRecord(t, 30*time.Second)
	var out, errb strings.Builder
	if code := Run(context.Background(), []string{"replay", path}, &out, &errb); code != ExitUsage ||
		!strings.Contains(errb.String(), "poisonwatch playback "+path) {
		t.Fatalf("replay RECORDING: exit %d, %q; want 2 naming poisonwatch playback", code, errb.String())
	}
	out.Reset()
	if code := Run(context.Background(), []string{"playback", "--help"}, &out, &out); code != 0 || !strings.Contains(out.String(), "Usage: poisonwatch playback [--theme NAME] FILE") {
		t.Fatalf("playback --help: exit %d\n%s", code, out.String())
	}
}
