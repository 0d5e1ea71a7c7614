package ui

import (
	"strconv"
	"strings"

	"github.com/charmbracelet/bubbles/key"

	"github.com/poisonwatch/poisonwatch/model"
)

// bodyKey names every input of a dashboard's body as the App draws it:
// the picture and queue manager, the look, the size, the dashboard's own
// state, and what the alerts pane says of the clock.
type bodyKey struct {
	pic   *model.State
	qm    string
	look  int
	w, h  int
	dash  dashKey
	clock string
}

// footerKey names every input of the footer: the look, the width, a flash
// and the keys the footer may list.
type footerKey struct {
	look  int
	width int
	flash string
	keys  string
}

// frameKey names every input of a whole frame: the body's, and the other
// parts as they are drawn for the session (the header carries its clock,
// badges and presence line; the crumbs its filter, marks and flash).
type frameKey struct {
	body                   bodyKey
	height                 int
	header, crumbs, footer string
}

// dashFrom is what a dashboard's rows and alerts were made of.
type dashFrom struct {
	q               *model.QMgrState
	by              queueSort
	text, alertText string
}

// dashKey is everything of a dashboard its view reads.
type dashKey struct {
	loc             string
	from            dashFrom
	sortBy          queueSort
	focus           int
	text, alertText string
	colsFor         int
	w, h            int
	gridH, bottomH  int
	trendsH         int
	grid            gridKey
	alerts          paneKey
}

// gridKey is what a grid's View reads besides its cells.
type gridKey struct {
	rows, cursor, offset, width, height, cols int
	blurred, marked, level                    bool
	mark                                      string
}

// paneKey is what an alerts pane's view reads besides its alerts and the
// clock.
type paneKey struct {
	n, cursor, top, w, h, queueW int
	focused, showQM              bool
}

// key is the dashboard's state as its view reads it (the cells come from
// from's queue manager, the rows from its order and filter).
func (d *dashboard) key() dashKey {
	g, p := &d.grid, &d.alerts
	return dashKey{loc: d.loc.QMgr, from: d.from, sortBy: d.sortBy, focus: d.focus, text: d.text, alertText: d.alertText,
		colsFor: d.colsFor, w: d.w, h: d.h, gridH: d.gridH, bottomH: d.bottomH, trendsH: d.trendsH,
		grid: gridKey{rows: g.Rows, cursor: g.Cursor, offset: g.Offset, width: g.Width, height: g.Height, cols: len(g.Cols),
			blurred: g.Blurred, marked: g.Marked != nil, level: g.Level != nil, mark: g.CursorMark},
		alerts: paneKey{n: len(p.list), cursor: p.cursor, top: p.top, w: p.w, h: p.h, queueW: p.queueW,
			focused: p.focused, showQM: p.showQM}}
}

// clockSays is what the pane shows of its clock: each alert's life ("since
// 20:41 (12m)") and whether it is acknowledged now. Two panes whose clocks
// say the same draw the same.
func (p *alertPane) clockSays() string {
	var b strings.Builder
	for _, al := range p.list {
		b.WriteString(alertLife(al, p.now))
		b.WriteString(strconv.FormatBool(al.Acked(p.now)))
		b.WriteByte(0)
	}
	return b.String()
}

// footerKeys' inputs: each key as the footer measures and shows it.
func keysSay(ks []key.Binding, last ...key.Binding) string {
	var b strings.Builder
	for _, k := range append(ks, last...) {
		b.WriteString(strings.Join(k.Keys(), " "))
		b.WriteByte(1)
		b.WriteString(k.Help().Key)
		b.WriteByte(1)
		b.WriteString(k.Help().Desc)
		b.WriteString(strconv.FormatBool(k.Enabled()))
		b.WriteByte(0)
	}
	return b.String()
}
