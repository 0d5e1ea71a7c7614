package ui

import (
	"cmp"
	"fmt"
	"strings"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	"github.com/poisonwatch/poisonwatch/actions"
	"github.com/poisonwatch/poisonwatch/codec/mqfmt"
	"github.com/poisonwatch/poisonwatch/model"
	"github.com/poisonwatch/poisonwatch/mqwatch"
)

// fleetFirstAbove is how many queue managers the header can name one by
// one; with more, the fleet view is the first screen.
const fleetFirstAbove = 4

// fleetScreen is one row per queue manager, worst first: how it answers,
// its alerts by severity, its DEADQ and its fullest backout queue. Under
// the table, the row's state in full and its most severe alerts.
type fleetScreen struct {
	base
	filterText
	grid Grid
	rows []model.FleetRow
	st   *Styles
	now  time.Time
	// held: frozen or still warming up, so data is old on purpose;
	// warming: the latter, whose rows say "starting".
	held, warming bool
	// moved: the operator moved the cursor, so it follows its queue manager
	// through re-sorts; until then it stays on the worst row.
	moved bool
	w, h  int
}

func (s *fleetScreen) cursorGrid() *Grid { return &s.grid }

func newFleetScreen() *fleetScreen {
	f := &fleetScreen{base: base{loc: model.Location{Screen: model.ScreenFleet, Label: "Fleet"}}}
	f.grid.Cols = fleetCols(120)
	f.grid.Cell = f.cell
	f.grid.Level = func(r int) int { return f.rows[r].Level() }
	return f
}

// fleetCols picks the columns that fit; the state column takes the rest.
func fleetCols(w int) []Column {
	if w < 100 {
		return []Column{
			{Title: "QMGR", Width: 8}, {Title: "STATE", Width: 16, Flex: true},
			{Title: "CRIT", Width: 4, Right: true}, {Title: "WARN", Width: 4, Right: true},
			{Title: "DEADQ", Width: 10, Right: true}, {Title: "DLQ/MIN", Width: 7, Right: true},
			{Title: "BOQ FILL", Width: 9}, {Title: "WORST BOQ", Width: 8, Flex: true},
		}
	}
	cols := []Column{
		{Title: "QMGR", Width: 12}, {Title: "STATE", Width: 30},
		{Title: "CRIT", Width: 4, Right: true}, {Title: "WARN", Width: 4, Right: true}, {Title: "INFO", Width: 4, Right: true},
		{Title: "QUEUES", Width: 6, Right: true}, {Title: "DEADQ", Width: 13, Right: true}, {Title: "DLQ/MIN", Width: 8, Right: true},
		{Title: "BOQ FILL", Width: 13}, {Title: "WORST BOQ", Width: 20, Flex: true},
	}
	if w >= 150 {
		// Room for what is wrong, not only how much.
		cols[len(cols)-1].Flex = false
		cols = append(cols, Column{Title: "OLDEST UNACKED", Width: 14}, Column{Title: "WORST ALERT", Width: 30, Flex: true})
	}
	return cols
}

func (f *fleetScreen) refresh(c common) tea.Cmd {
	keep := ""
	if r := f.selected(); r != nil && f.moved {
		keep = r.QMgr
	}
	f.st, f.now = c.Styles(), c.Opts().Now()
	// Only ever refreshed on view, never under a dialog: held is frozen or
	// warming up.
	f.held, f.warming = c.Session().still(), c.Session().warming
	all := c.State().Fleet(f.now, f.held)
	ms := model.Filter(f.text, len(all), func(i int) string { return all[i].QMgr })
	f.rows = f.rows[:0]
	for _, m := range ms {
		f.rows = append(f.rows, all[m.Index])
	}
	f.grid.SetRows(len(f.rows))
	f.fitState()
	// Rows re-sort as trouble comes and goes: the cursor stays on its
	// queue manager, not on its line.
	for i, r := range f.rows {
		if r.QMgr == keep {
			f.grid.Cursor = i
			f.grid.clamp()
			break
		}
	}
	return nil
}

func (f *fleetScreen) resize(_ common, w, h int) {
	f.w, f.h = w, h
	f.fitState()
}

// fitState gives the STATE column the width its longest text needs (up to
// 30), and what it does not need to the worst BOQ's name: "● 1s ago" does
// not hold 30 columns while the name beside it is dropped.
func (f *fleetScreen) fitState() {
	cols := fleetCols(f.w)
	need := 10
	for i := range f.rows {
		need = max(need, ansi.StringWidth(f.stateCell(&f.rows[i], 30).Text))
	}
	fixed := len(cols) + 2 // the gutter and the blanks between cells
	for _, c := range cols {
		if c.Title != "STATE" && !c.Flex {
			fixed += c.Width
		}
	}
	for i := range cols {
		switch {
		case cols[i].Title == "STATE":
			cols[i].Width, cols[i].Flex = min(need, 30, max(f.w-fixed-8, 10)), false
		case cols[i].Title == "WORST BOQ" && f.w >= 150:
			cols[i].Width = max(cols[i].Width, 20)
		}
	}
	f.grid.Cols = cols
	f.grid.SetSize(f.w, max(f.h-1-f.detailHeight(), 2))
}

// detailHeight is the part under the table: the row in full and its alerts.
func (f *fleetScreen) detailHeight() int { return min(max(f.h/4, 3), 8) }

func (f *fleetScreen) selected() *model.FleetRow {
	if f.grid.Cursor < len(f.rows) {
		return &f.rows[f.grid.Cursor]
	}
	return nil
}

func (f *fleetScreen) bindings(c common) []binding {
	out := gridKeys(c.Keys(), &f.grid)
	for i := range out {
		do := out[i].do
		out[i].do = func() tea.Cmd { f.moved = true; return do() }
	}
	return append(out, bind(c.Keys().Enter, func() tea.Cmd {
		f.moved = true // back from the dashboard, the cursor is where it was
		return c.SwitchQMgr(f.selected().QMgr)
	}, short, offIf(func() bool { return f.selected() == nil }, "no queue manager here")))
}

func (f *fleetScreen) scroll(d int) { f.moved = true; f.grid.Move(d) }

func (f *fleetScreen) cell(row, col int) Cell {
	r := &f.rows[row]
	st := f.st
	switch f.grid.Cols[col].Title {
	case "QMGR":
		return Cell{Text: mqfmt.Sanitize(r.QMgr), Style: levelStyle(st, r.Level())}
	case "STATE":
		return f.stateCell(r, f.grid.widths[col])
	case "CRIT":
		return countCell(st, r.Crit, 2)
	case "WARN":
		return countCell(st, r.Warn, 1)
	case "INFO":
		return countCell(st, r.Info, 0)
	case "QUEUES":
		return Cell{Text: human(int64(r.Queues))}
	case "DEADQ":
		if r.DeadQ == "" {
			return Cell{Text: "-", Style: &st.Muted}
		}
		return Cell{Text: compact(float64(r.DeadDepth)) + "/" + compact(float64(r.DeadMax)), Style: levelStyle(st, fillLevel(fraction(r.DeadDepth, r.DeadMax)))}
	case "DLQ/MIN":
		if !r.DeadRateOK || r.DeadRate < 0.5 {
			return Cell{Text: rate(r.DeadRate, r.DeadRateOK)}
		}
		return Cell{Text: rate(r.DeadRate, r.DeadRateOK), Style: &st.Warning} // dead letters are arriving
	case "BOQ FILL":
		if r.WorstBOQ == "" {
			return Cell{Text: "-", Style: &st.Muted}
		}
		w := max(f.grid.Cols[col].Width-5, 1)
		return Cell{Text: fmt.Sprintf("%s %3.0f%%", bar(r.WorstFill, w), 100*r.WorstFill), Style: levelStyle(st, fillLevel(r.WorstFill))}
	case "WORST BOQ":
		return Cell{Text: mqfmt.Sanitize(r.WorstBOQ)}
	case "OLDEST UNACKED":
		return oldestCell(st, r, f.now)
	case "WORST ALERT":
		if r.Top == nil {
			return Cell{Text: "no alerts", Style: &st.Muted}
		}
		al := r.Top
		return Cell{Text: mqfmt.Sanitize(strings.TrimSpace(al.Rule + " " + al.Queue + " " + al.Text)), Style: levelStyle(st, int(al.Severity))}
	}
	return Cell{}
}

func fraction(n, of int32) float64 {
	if of <= 0 {
		return 0
	}
	return float64(n) / float64(of)
}

// stateCell says how the queue manager answers, in words and symbols so
// that it reads without colour: ● answering, ◌ stale, ✖ down or silent.
func (f *fleetScreen) stateCell(r *model.FleetRow, w int) Cell {
	st := f.st
	switch r.Link {
	case model.LinkConnecting:
		return Cell{Text: "connecting…", Style: &st.Muted}
	case model.LinkStale:
		return Cell{Text: "◌ stale " + age(r.Age), Style: &st.Warning}
	case model.LinkNoAnswer:
		text := "✖ no answer, data " + age(r.Age) + " old"
		if ansi.StringWidth(text) > w { // short, not cut: the detail says it in full
			text = "✖ no answer " + age(r.Age)
		}
		return Cell{Text: text, Style: &st.Danger}
	case model.LinkDown:
		text := "✖ down"
		if rc := mqwatch.ReasonOf(r.Err); rc != 0 {
			text = fmt.Sprintf("✖ %d %s", int32(rc), trimRC(rc.String()))
			if ansi.StringWidth(text) > w {
				text = fmt.Sprintf("✖ down %d", int32(rc))
			}
		}
		return Cell{Text: text, Style: &st.Danger}
	}
	text := "● " + age(r.Age.Truncate(time.Second)) + " ago"
	switch {
	case f.warming:
		text = "● starting" // the history is still being filled in
	case f.held:
		text = "● held" // frozen or a dialog open: the header says which
	case w < 20:
		text = "● " + age(r.Age.Truncate(time.Second))
	}
	return Cell{Text: text, Style: &st.OK}
}

func (f *fleetScreen) view(c common, w, h int) string {
	st := c.Styles()
	count := fmt.Sprintf("%d queue managers", len(f.rows))
	if n := len(c.State().Order); n != len(f.rows) {
		count = fmt.Sprintf("%d of %d queue managers", len(f.rows), n)
	}
	title := section(c.Styles(), fmt.Sprintf("Fleet: %s, worst first %s  (enter: its dashboard)", count, position(f.grid)), w, true)
	grid := f.grid.View(st)
	if f.grid.Rows == 0 {
		grid = fitHeight(grid, 1) + "\n" + st.Muted.Render(" no queue manager matches")
	}
	lines := f.detail(c, w)
	return title + "\n" + fitHeight(grid, h-1-len(lines)) + "\n" + strings.Join(lines, "\n")
}

// detail is the row under the cursor in full: why it cannot be reached
// (reason code, name and explanation), then its most severe alerts.
func (f *fleetScreen) detail(c common, w int) []string {
	st := c.Styles()
	n := f.detailHeight()
	r := f.selected()
	if f.grid.Rows == 0 {
		r = nil
	}
	if r == nil {
		return make([]string, n)
	}
	q := c.State().QMgrs[r.QMgr]
	head := fmt.Sprintf("%s: %s queues, DEADQ %s", r.QMgr, human(int64(r.Queues)), cmp.Or(r.DeadQ, "none"))
	switch r.Link {
	case model.LinkDown, model.LinkNoAnswer:
		head = fmt.Sprintf("%s: %v; data %s old", r.QMgr, r.Err, age(r.Age))
		if q.Snap != nil && !q.Snap.NextRetry.IsZero() {
			head += "; next try in " + age(q.Snap.NextRetry.Sub(f.now).Round(time.Second))
		}
	case model.LinkConnecting:
		head = r.QMgr + ": waiting for the first poll"
	}
	// The reason code's explanation is the point of the line: it wraps
	// onto the rows below rather than being cut (the alerts follow it).
	lines := wrapped(st.Info, " ", mqfmt.Sanitize(head), w)
	if len(lines) > n {
		lines = lines[:n]
		lines[n-1] = ansi.Truncate(lines[n-1], w-1, "") + "…"
	}
	if l := oldestLine(st, r, f.now, w); l != "" && len(lines) < n {
		lines = append(lines, l)
	}
	for _, al := range q.Alerts {
		if len(lines) == n {
			break
		}
		if al.Queue == "" && al.Severity == actions.Critical && r.Link >= model.LinkNoAnswer {
			continue // the line above says it
		}
		text := fmt.Sprintf("  %s %s %s %s", strings.ToUpper(al.Severity.Label()), al.Rule, al.Queue, al.Text)
		lines = append(lines, ansi.Truncate(st.Level(int(al.Severity)).Render(mqfmt.Sanitize(text)), w, "…"))
	}
	for len(lines) < n {
		lines = append(lines, "")
	}
	return lines
}
