package ui

import (
	"fmt"
	"slices"
	"strings"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"

	"github.com/poisonwatch/poisonwatch/codec/mqfmt"
	"github.com/poisonwatch/poisonwatch/model"
	"github.com/poisonwatch/poisonwatch/mqwatch"
)

// dashboard is the first screen: every queue with its trouble, the DEADQ and
// BOQ trends, and the alerts of one queue manager.
type dashboard struct {
	base
	filterText
	grid   Grid
	rows   []*model.QueueState
	q      *model.QMgrState
	st     *Styles
	focus  int // 0 queues, 1 alerts
	alerts alertPane
	// alertText filters the alerts as filterText filters the queues: `/`
	// filters the pane that has the focus.
	alertText string
	sortBy    queueSort
	w, h      int
	gridH     int
	bottomH   int
	trendsH   int
	// moved: the operator has moved the cursor (dashboard_cursor.go).
	moved bool
	// from is what rows and the alerts were last made of, and colsFor the
	// width the columns were picked for: a drawing's key names them.
	from    dashFrom
	colsFor int
}

func (s *dashboard) cursorGrid() *Grid { return &s.grid }

func newDashboard(qm string) *dashboard {
	d := &dashboard{base: base{loc: model.Location{Screen: model.ScreenDashboard, QMgr: qm}}}
	d.grid.Cols, d.colsFor = dashCols(120), 120
	return d
}

// dashCols picks the columns that fit: narrow terminals drop the least urgent.
func dashCols(w int) []Column {
	cols := []Column{
		{Title: "QUEUE", Width: 24},
		{Title: "TYPE", Width: 7},
		{Title: "DEPTH", Width: 13, Right: true},
		{Title: "FILL", Width: 8},
		{Title: "Δ/MIN", Width: 7, Right: true},
		{Title: "BOTHR", Width: 5, Right: true},
		{Title: "RISK", Width: 4, Right: true},
		{Title: "STUCK", Width: 5, Right: true},
	}
	if w < 100 {
		cols[1].Width = 4
	} else {
		cols = append(cols, Column{Title: "IN/OUT", Width: 6, Right: true}, Column{Title: "BOQNAME", Width: 14, Flex: true})
	}
	if w >= 140 {
		cols = append(cols[:len(cols)-1], Column{Title: "OLDEST", Width: 7, Right: true}, Column{Title: "LAST GET", Width: 8, Right: true}, cols[len(cols)-1])
	}
	if w < 100 {
		cols[0].Flex = true
	}
	return cols
}

func (d *dashboard) refresh(c common) tea.Cmd {
	keepQ := d.followedQueue()
	d.q = c.State().QMgr(d.loc.QMgr)
	d.st = c.Styles()
	d.grid.Cell = d.cell
	d.grid.Level = func(r int) int { return queueLevel(d.rows[r]) }
	d.sortBy = c.Session().order
	all := c.Session().frames.order(c.State(), d.q, d.sortBy)
	d.rows = d.rows[:0]
	if d.text == "" {
		// What an empty filter matches, without a match made for each of
		// a thousand queues on every poll of every session.
		d.rows = append(d.rows, all...)
	} else {
		for _, m := range model.Filter(d.text, len(all), func(i int) string { return all[i].View.Info.Name }) {
			d.rows = append(d.rows, all[m.Index])
		}
	}
	d.grid.SetRows(len(d.rows))
	for i, qs := range d.rows {
		if keepQ != "" && qs.View.Info.Name == keepQ {
			d.grid.Cursor = i
			d.grid.clamp()
			break
		}
	}
	d.alerts.now = c.Opts().Now()
	d.alerts.set(filterAlerts(d.q.Alerts, d.alertText))
	d.from = dashFrom{q: d.q, by: d.sortBy, text: d.text, alertText: d.alertText}
	d.layout(c)
	return nil
}

// filter is the focused pane's: the alerts' while they have the focus.
func (d *dashboard) filter() *string {
	if d.focus == 1 {
		return &d.alertText
	}
	return &d.text
}

// filterAlerts keeps the alerts whose queue, rule or text match, in their
// order (most severe first).
func filterAlerts(list []model.Alert, text string) []model.Alert {
	if text == "" {
		return list
	}
	ms := model.Filter(text, len(list), func(i int) string { return list[i].Queue + " " + list[i].Rule + " " + list[i].Text })
	idx := make([]int, len(ms))
	for i, m := range ms {
		idx[i] = m.Index
	}
	slices.Sort(idx)
	out := make([]model.Alert, len(idx))
	for i, j := range idx {
		out[i] = list[j]
	}
	return out
}

func (d *dashboard) resize(c common, w, h int) {
	d.w, d.h = w, h
	d.grid.Cols, d.colsFor = dashCols(w), w
	d.layout(c)
}

func (d *dashboard) scroll(n int) {
	if d.focus == 1 {
		d.alerts.move(n)
		return
	}
	d.moved = true
	d.grid.Move(n)
}

func (d *dashboard) selected() *model.QueueState {
	if d.grid.Cursor < len(d.rows) {
		return d.rows[d.grid.Cursor]
	}
	return nil
}

func (d *dashboard) bindings(c common) []binding {
	k := *c.Keys()
	var out []binding
	if d.focus == 1 {
		out = append(d.alerts.keys(c), bind(k.Sort, nil,
			offIf(func() bool { return true }, "the alerts are listed most severe first; s sorts the queue table (tab to it)")))
	} else {
		out = d.moving(gridKeys(c.Keys(), &d.grid))
		out = append(out, bind(k.Enter, func() tea.Cmd {
			if qs := d.selected(); qs != nil {
				return openQueue(c, qs.View.Info.Name)
			}
			return nil
		}, short), bind(k.Sort, run(func() {
			o := &c.Session().order
			*o = (*o + 1) % queueSortCount
			d.moved = false // a new order starts at its top
			d.refresh(c)
			d.grid.Home()
		})), inhibitKey(c, c.QMgrName(), d.selected))
	}
	return append(out, bind(k.Tab, run(func() { d.focus = 1 - d.focus; d.layout(c) }), short),
		bind(k.DeadQ, func() tea.Cmd { return openDeadQ(c) }, short))
}

// cell renders one queue cell, colouring by threshold: depth against
// MAXDEPTH, BackoutCount against BOTHRESH, age.
func (d *dashboard) cell(row, col int) Cell {
	qs := d.rows[row]
	v := qs.View
	st := d.st
	title := d.grid.Cols[col].Title
	switch title {
	case "QUEUE":
		return Cell{Text: mqfmt.Sanitize(v.Info.Name), Style: levelStyle(st, queueLevel(qs))}
	case "TYPE":
		if off := inhibitLabel(v.Info); off != "" {
			return Cell{Text: off, Style: &st.Danger} // R10h: gets or puts stopped, by I or by anyone
		}
		return Cell{Text: typeLabel(v, d.grid.Cols[col].Width)}
	case "DEPTH":
		if v.InquireErr != nil {
			// The inquiry failed for this queue alone: the figures are the
			// last good poll's, so the cell says so instead of a depth.
			return Cell{Text: fmt.Sprintf("stale %d", mqwatch.ReasonOf(v.InquireErr)), Style: &st.Warning}
		}
		if !v.HasStatus {
			return Cell{Text: "-"}
		}
		return Cell{Text: fmt.Sprintf("%s/%s", compact(float64(v.Status.Depth)), compact(float64(v.Info.MaxDepth))), Style: levelStyle(st, fillLevel(qs.Fill()))}
	case "FILL":
		if !v.HasStatus {
			return Cell{}
		}
		return Cell{Text: bar(qs.Fill(), 8), Style: levelStyle(st, fillLevel(qs.Fill()))}
	case "Δ/MIN":
		r, ok := qs.DepthPerMinute()
		return Cell{Text: rate(r, ok)}
	case "BOTHR":
		return Cell{Text: fmt.Sprint(v.Info.BackoutThresh), Style: bothreshStyle(st, v)}
	case "RISK":
		return countCell(st, qs.AtRisk, 1)
	case "STUCK":
		return countCell(st, qs.Stuck, 2)
	case "BOQNAME":
		return Cell{Text: mqfmt.Sanitize(v.Info.BackoutQName)}
	case "IN/OUT":
		if !v.HasStatus {
			return Cell{}
		}
		return Cell{Text: fmt.Sprintf("%d/%d", v.Status.OpenInput, v.Status.OpenOutput)}
	case "OLDEST":
		if !v.HasStatus || !v.Status.Monitored {
			return Cell{Text: "?", Style: &st.Muted}
		}
		if v.Status.Depth == 0 {
			return Cell{Text: "-"}
		}
		return Cell{Text: age(v.Status.OldestAge), Style: levelStyle(st, ageLevel(v.Status.OldestAge))}
	case "LAST GET":
		if !v.HasStatus || !v.Status.Monitored {
			return Cell{Text: "?", Style: &st.Muted}
		}
		if v.Status.LastGet.IsZero() {
			return Cell{Text: "never"}
		}
		return Cell{Text: age(d.q.Snap.Time.Sub(v.Status.LastGet))}
	}
	return Cell{}
}

func typeLabel(v mqwatch.QueueView, w int) string {
	switch v.Role {
	case mqwatch.RoleDeadQ:
		return "DLQ"
	case mqwatch.RoleBOQ:
		return "BOQ"
	case mqwatch.RoleXmitQ:
		return "XMIT"
	}
	if w < 5 {
		return v.Info.Type.String()[:2] // QL, QA, QR, QM, QC as MQSC abbreviates them
	}
	return strings.TrimPrefix(v.Info.Type.String(), "Q")
}

func countCell(st *Styles, n, level int) Cell {
	if n == 0 {
		return Cell{Text: "·", Style: &st.Muted}
	}
	return Cell{Text: fmt.Sprint(n), Style: levelStyle(st, level)}
}

func levelStyle(st *Styles, l int) *lipgloss.Style {
	switch l {
	case 1:
		return &st.Warning
	case 2:
		return &st.Danger
	}
	return nil
}

func fillLevel(f float64) int {
	switch {
	case f >= 0.9:
		return 2
	case f >= 0.7:
		return 1
	}
	return 0
}

// queueLevel is the worst signal on a queue: stuck poison or a loop is red.
func queueLevel(qs *model.QueueState) int {
	v := qs.View
	switch {
	case qs.Stuck > 0, qs.MaxBackout > 0 && v.Info.BackoutThresh == 0 && v.Role == mqwatch.RoleInput:
		return 2
	case fillLevel(qs.Fill()) == 2:
		return 2
	case qs.AtRisk > 0, fillLevel(qs.Fill()) == 1:
		return 1
	case (v.Role == mqwatch.RoleDeadQ || v.Role == mqwatch.RoleBOQ) && v.Status.Depth > 0:
		return 1
	}
	return 0
}

func bothreshStyle(st *Styles, v mqwatch.QueueView) *lipgloss.Style {
	if v.Role == mqwatch.RoleInput && v.Info.BackoutThresh == 0 {
		return &st.Muted
	}
	return nil
}

// ageLevel colours the oldest message's age: an hour is worth a look, a day
// means nobody is handling the queue.
func ageLevel(d time.Duration) int {
	switch {
	case d >= 24*time.Hour:
		return 2
	case d >= time.Hour:
		return 1
	}
	return 0
}
