package cli

import (
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"
	"github.com/muesli/termenv"

	"github.com/poisonwatch/poisonwatch/incident/record"
	"github.com/poisonwatch/poisonwatch/mqwatch"
	"github.com/poisonwatch/poisonwatch/ui"
)

// millionStart is when the generated million-message hour begins.
var millionStart = time.Date(2026, 12, 1, 20, 0, 0, 0, time.UTC)

// writeDeadQHour records polls polls, every 2s, of a DEADQ holding n dead
// letters at the first; at each later one add arrive and add are got from
// its head.
func writeDeadQHour(path string, n, polls, add int) error {
	letter := func(i int) mqwatch.Summary {
		s := mqwatch.Summary{HasDLH: true, DLHReason: 2053, DLHDestQ: "ORDERS.IN", Arrival: uint64(i + 1), Length: 100 + i%5000,
			PutTime: millionStart.Add(-time.Duration(i%5000) * time.Second)}
		s.MsgId[0], s.MsgId[1], s.MsgId[2], s.MsgId[3] = byte(i), byte(i>>8), byte(i>>16), byte(i>>24)
		return s
	}
	var inv *mqwatch.Inventory
	batch := make([]mqwatch.Summary, 0, 10000)
	for i := 0; i < n; i++ {
		if batch = append(batch, letter(i)); len(batch) == cap(batch) {
			inv, batch = inv.Append(batch...), batch[:0]
		}
	}
	inv = inv.Append(batch...)
	w, err := record.Create(path, 1<<40, record.Header{QMgrs: []string{"QM1"}, Interval: 2 * time.Second, Source: "sim"})
	if err != nil {
		return err
	}
	d := mqwatch.InventoryDelta{Resync: true}
	for seq := 1; seq <= polls; seq++ {
		if seq > 1 {
			var added []mqwatch.Summary
			for j := 0; j < add; j++ {
				added = append(added, letter(n+(seq-2)*add+j))
			}
			d = mqwatch.InventoryDelta{Added: added}
			for j := 0; j < add; j++ {
				d.Dropped = append(d.Dropped, *inv.At(j))
			}
			inv = inv.DropHead(add).Append(added...)
		}
		w.Snapshot(&mqwatch.Snapshot{Seq: uint64(seq), Time: millionStart.Add(time.Duration(seq-1) * 2 * time.Second), QMgrName: "QM1", Connected: true,
			QMgr: mqwatch.QMgrInfo{Name: "QM1", DeadQ: "DLQ"},
			Queues: []mqwatch.QueueView{{Info: mqwatch.QueueInfo{Name: "DLQ", MaxDepth: 999999999}, HasStatus: true, Role: mqwatch.RoleDeadQ,
				Status: mqwatch.QueueStatus{Name: "DLQ", Depth: int32(inv.Len())}}},
			Inventories: map[string]*mqwatch.Inventory{"DLQ": inv}, Deltas: map[string]mqwatch.InventoryDelta{"DLQ": d}})
	}
	return w.Close()
}

// millionHour is one hour (1,800 polls) of a DEADQ of a million dead
// letters, 100 arriving and 100 got a poll, written once per test binary
// (at $PW_MILLION_HOUR when set, and read from there when it exists).
var millionHour = sync.OnceValues(func() (string, error) {
	if p := os.Getenv("PW_MILLION_HOUR"); p != "" {
		if _, err := os.Stat(p); err == nil {
			return p, nil
		}
		return p, writeDeadQHour(p, 1_000_000, 1800, 100)
	}
	dir, err := os.MkdirTemp("", "pwseek")
	if err != nil {
		return "", err
	}
	path := filepath.Join(dir, "million.pwrec")
	return path, writeDeadQHour(path, 1_000_000, 1800, 100)
})

// playbackHead is the header line of the App's screen.
func playbackHead(app *ui.App) string { return ansi.Strip(strings.Split(app.View(), "\n")[0]) }

// openPlayback opens a recording in a playback App of w×h without colour,
// the whole recording read.
func openPlayback(t testing.TB, path string, w, h int) (*ui.App, *record.Recording) {
	t.Helper()
	r := lipgloss.NewRenderer(nil)
	r.SetColorProfile(termenv.Ascii)
	app, rec, err := playbackAppOf(path, tuiOpts{}, r)
	if err != nil {
		t.Fatal(err)
	}
	app.Update(windowSizeMsg(w, h))
	rec.Wait()
	return app, rec
}

// millionPath is the million hour's file.
func millionPath(b *testing.B) string {
	path, err := millionHour()
	if err != nil {
		b.Fatal(err)
	}
	return path
}

// openMillion opens the million hour in an App and folds it ahead.
func openMillion(b *testing.B) (*ui.App, *record.Recording, time.Time, time.Time) {
	app, rec := openPlayback(b, millionPath(b), 120, 35)
	foldAhead(b, app) // as the program does, from its start
	first, last := rec.Frames()[0].Time(), rec.Frames()[rec.Len()-1].Time()
	return app, rec, first, last
}

// jumpTo moves a playback App to t with the t key.
func jumpTo(app *ui.App, t time.Time) {
	pressKeys(app, "t")
	pressKeys(app, strings.Split(t.Format("15:04:05"), "")...)
	pressKeys(app, "enter")
}

// BenchmarkPlaybackSeekMillion measures, on an hour of a million-message
// DEADQ, what the operator waits for: opening the recording to its first
// frame; the first jump from the start to the end, before the recording is
// folded ahead and after; folding it ahead; [ one poll back from the end
// and a jump from the end to the middle (each from the end: the App is
// taken back there untimed).
func BenchmarkPlaybackSeekMillion(b *testing.B) {
	b.Run("open", func(b *testing.B) { benchmarkOpen(b, millionPath(b)) })
	// The first jump of a fresh playback, from its first frame to the
	// last: cold, before the recording is folded ahead; then once it is
	// (fold-ahead: what that costs the App's loop, in stretches between
	// which keys are answered).
	fresh := func(b *testing.B) (*ui.App, *record.Recording, time.Time) {
		app, rec := openPlayback(b, millionPath(b), 120, 35)
		return app, rec, rec.Frames()[rec.Len()-1].Time()
	}
	jump := func(name string, ahead bool) {
		b.Run(name, func(b *testing.B) {
			for b.Loop() {
				b.StopTimer()
				app, rec, last := fresh(b)
				if ahead {
					foldAhead(b, app)
				}
				b.StartTimer()
				jumpTo(app, last)
				b.StopTimer()
				if at := "PLAYBACK " + last.Format("15:04:05"); !strings.Contains(playbackHead(app), at) {
					b.Fatalf("header %q lacks %q", playbackHead(app), at)
				}
				rec.Close()
				b.StartTimer()
			}
		})
	}
	jump("start-to-end-cold", false)
	jump("start-to-end", true)
	b.Run("fold-ahead", func(b *testing.B) {
		for b.Loop() {
			b.StopTimer()
			app, rec, _ := fresh(b)
			b.StartTimer()
			foldAhead(b, app)
			b.StopTimer()
			rec.Close()
			b.StartTimer()
		}
	})
	seek := func(name string, keys func(app *ui.App, first, last time.Time), want func(first, last time.Time) time.Time) {
		b.Run(name, func(b *testing.B) {
			app, _, first, last := openMillion(b)
			for b.Loop() {
				b.StopTimer()
				jumpTo(app, last)
				b.StartTimer()
				keys(app, first, last)
				b.StopTimer()
				if at := "PLAYBACK " + want(first, last).Format("15:04:05"); !strings.Contains(playbackHead(app), at) {
					b.Fatalf("header %q lacks %q", playbackHead(app), at)
				}
				b.StartTimer()
			}
		})
	}
	seek("back-one-poll", func(app *ui.App, _, _ time.Time) { pressKeys(app, "[") },
		func(_, last time.Time) time.Time { return last.Add(-2 * time.Second) })
	// The worst case after checkpoints: just before the next one.
	middle := func(first, _ time.Time) time.Time { return first.Add(31*time.Minute + 58*time.Second) }
	seek("end-to-middle", func(app *ui.App, first, last time.Time) { jumpTo(app, middle(first, last)) }, middle)
}
