package ui

import (
	"context"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/poisonwatch/poisonwatch/codec/mqfmt"
	"github.com/poisonwatch/poisonwatch/model"
)

// FleetFeed is the fleet as a monitoring system holds it (poisonwatch
// --prometheus): answers published one after another, each a whole
// fleet. In a war room every session reads the same feed, so Prometheus
// is asked once per refresh, not once per session.
type FleetFeed interface {
	// Latest is the newest answer and its number (nil and 0 before the
	// first).
	Latest() (*model.RemoteFleet, uint64)
	// Next waits for an answer newer than after; ok is false when ctx
	// ended first.
	Next(ctx context.Context, after uint64) (f *model.RemoteFleet, seq uint64, ok bool)
	// Refresh asks for an answer now (r).
	Refresh()
	// Source names the query API (its URL without credentials).
	Source() string
}

// fleetAnswerMsg says the feed published a new answer.
type fleetAnswerMsg struct{ seq uint64 }

// waitFleet waits for the feed's next answer; re-armed by each answer it
// brings, as waitSnapshot is by each snapshot.
func waitFleet(ctx context.Context, feed FleetFeed, after uint64) tea.Cmd {
	return func() tea.Msg {
		_, seq, ok := feed.Next(ctx, after)
		if !ok {
			return nil
		}
		return fleetAnswerMsg{seq: seq}
	}
}

var screenRemoteFleet = model.NewScreen("Fleet (Prometheus)")

// remoteFleetScreen is the fleet view on a monitoring system's series:
// one row per queue manager an exporter watches, worst first; under the
// table, the row in full, what its DEADQ holds, its looping queues, its
// alerts with their silences, and whether enter can open it live.
type remoteFleetScreen struct {
	base
	filterText
	grid  Grid
	fleet *model.RemoteFleet // the answer on view; nil before the first
	rows  []model.RemoteRow  // its rows the filter keeps
	st    *Styles
	now   time.Time
	// moved: the operator moved the cursor, so it follows its row through
	// re-sorts; until then it stays on the worst.
	moved bool
	w, h  int
}

func newRemoteFleetScreen() *remoteFleetScreen {
	f := &remoteFleetScreen{base: base{loc: model.Location{Screen: screenRemoteFleet, Label: "Fleet"}}}
	f.grid.Cols = remoteCols(120)
	f.grid.Cell = f.cell
	f.grid.Level = func(r int) int { return f.rows[r].Level() }
	return f
}

func (f *remoteFleetScreen) cursorGrid() *Grid { return &f.grid }

func (f *remoteFleetScreen) refresh(c common) tea.Cmd {
	type id struct{ instance, qmgr string }
	var keep *id
	if r := f.selected(); r != nil && f.moved {
		keep = &id{r.Instance, r.QMgr}
	}
	f.st, f.now = c.Styles(), c.Opts().Now()
	if feed := c.Opts().Fleet; feed != nil {
		f.fleet, _ = feed.Latest()
	}
	var all []model.RemoteRow
	if f.fleet != nil {
		all = f.fleet.Rows
	}
	ms := model.Filter(f.text, len(all), func(i int) string { return all[i].QMgr + " " + all[i].Instance })
	f.rows = f.rows[:0]
	for _, m := range ms {
		f.rows = append(f.rows, all[m.Index])
	}
	f.grid.SetRows(len(f.rows))
	for i, r := range f.rows {
		if keep != nil && r.Instance == keep.instance && r.QMgr == keep.qmgr {
			f.grid.Cursor = i
			f.grid.clamp()
			break
		}
	}
	f.fit()
	return nil
}

func (f *remoteFleetScreen) resize(_ common, w, h int) {
	f.w, f.h = w, h
	f.fit()
}

// fit lays the table out over what the title, the notice and the detail
// leave.
func (f *remoteFleetScreen) fit() {
	f.grid.Cols = remoteCols(f.w)
	f.grid.SetSize(f.w, max(f.h-1-len(f.notice())-f.detailHeight(), 2))
}

// detailHeight is the part under the table: the row in full and its alerts.
func (f *remoteFleetScreen) detailHeight() int { return min(max(f.h/3, 4), 10) }

func (f *remoteFleetScreen) selected() *model.RemoteRow {
	if f.grid.Cursor < len(f.rows) {
		return &f.rows[f.grid.Cursor]
	}
	return nil
}

func (f *remoteFleetScreen) scroll(d int) { f.moved = true; f.grid.Move(d) }

// bindings: the moves, and enter, which opens the row's queue manager live
// when this session has a connection to it (one of --qmgrs, by name) and
// otherwise says how to get one: nothing connects to a queue manager the
// operator did not name.
func (f *remoteFleetScreen) bindings(c common) []binding {
	out := gridKeys(c.Keys(), &f.grid)
	for i := range out {
		do := out[i].do
		out[i].do = func() tea.Cmd { f.moved = true; return do() }
	}
	return append(out, bind(c.Keys().Enter, func() tea.Cmd {
		f.moved = true // back from the dashboard, the cursor is where it was
		return c.SwitchQMgr(f.selected().QMgr)
	}, short, offWhen(func() string {
		r := f.selected()
		switch {
		case r == nil:
			return "no queue manager here"
		case sourceOf(c.Opts(), r.QMgr) == nil:
			return noConnection(r.QMgr)
		}
		return ""
	})))
}

// noConnection says how to open a queue manager live from the fleet view.
func noConnection(qmgr string) string {
	return mqfmt.Sanitize(qmgr) + ": no connection in this session; name it in --qmgrs to open it live (docs/fleet.md)"
}
