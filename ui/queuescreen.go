package ui

import (
	"fmt"
	"strings"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/poisonwatch/poisonwatch/codec/mqfmt"
	"github.com/poisonwatch/poisonwatch/model"
	"github.com/poisonwatch/poisonwatch/mqwatch"
)

// queueScreen lists the messages of one queue (an input queue's browsed head,
// or a BOQ/DEADQ inventory, whole or one triage group).
type queueScreen struct {
	base
	filterText
	grid  Grid
	msgs  msgList
	q     *model.QMgrState
	qs    *model.QueueState
	st    *Styles
	now   time.Time
	isDLQ bool
	mf    msgFilter
	rows  groupRows
	w, h  int
}

func (s *queueScreen) cursorGrid() *Grid { return &s.grid }

// receive takes the verdicts of a filter's scan run off the Update path.
func (s *queueScreen) receive(c common, msg tea.Msg) (tea.Cmd, bool) {
	m, ok := msg.(filterDoneMsg)
	if !ok {
		return nil, false
	}
	if s.mf.done(m) {
		return c.Refresh(), true
	}
	return nil, true
}

// msgList is the rows of a message list without copying summaries: indexes
// into an inventory, or a slice of browsed summaries.
type msgList struct {
	inv  *mqwatch.Inventory
	idx  []int
	list []mqwatch.Summary
	// row and cur are the inventory row last materialised: a frame asks for
	// each visible row's summary once per column.
	row int
	cur *mqwatch.Summary
}

func (l *msgList) Len() int {
	if l.idx != nil || l.inv != nil {
		return len(l.idx)
	}
	return len(l.list)
}

// At returns row i's summary; the caller must not change it.
func (l *msgList) At(i int) *mqwatch.Summary {
	if l.inv != nil {
		if l.cur == nil || l.row != i {
			l.row, l.cur = i, l.inv.At(l.idx[i])
		}
		return l.cur
	}
	return &l.list[i]
}

// Key returns row i's identity without materialising its summary.
func (l *msgList) Key(i int) mqwatch.Key {
	if l.inv != nil {
		return l.inv.Key(l.idx[i])
	}
	return l.list[i].Key()
}

func newQueueScreen(loc model.Location) *queueScreen {
	s := &queueScreen{base: base{loc: loc}}
	s.grid.Cols = queueCols(120, false)
	return s
}

func queueCols(w int, dlq bool) []Column {
	narrow := w < 100
	cols := []Column{
		{Title: "#", Width: 6, Right: true},
		{Title: "MSGID", Width: 16},
		{Title: "AGE", Width: 7, Right: true},
		{Title: "BO", Width: 7, Right: true},
	}
	if narrow {
		cols[0].Width, cols[1].Width = 4, 12
	}
	if dlq {
		cols = append(cols, Column{Title: "REASON", Width: 26}, Column{Title: "DESTINATION", Width: 12, Flex: true})
		if narrow {
			cols[4].Width = 22
		}
	} else {
		cols = append(cols, Column{Title: "FORMAT", Width: 8}, Column{Title: "JMS DESTINATION / TYPE", Width: 12, Flex: true})
	}
	if !narrow {
		cols = append(cols, Column{Title: "SIZE", Width: 7, Right: true})
	}
	if w >= 110 {
		cols = append(cols, Column{Title: "P", Width: 1}, Column{Title: "PRI", Width: 3, Right: true}, Column{Title: "PUT TIME (UTC)", Width: 19})
	}
	return cols
}

func (s *queueScreen) refresh(c common) tea.Cmd {
	var keep *mqwatch.Key
	if m := s.selected(); m != nil {
		k := m.Key()
		keep = &k
	}
	s.st = c.Styles()
	s.grid.Cell, s.grid.Marked = s.cell, markedIn(c, s.loc.Queue, &s.msgs)
	s.grid.Level = func(r int) int { return s.backoutLevel(s.msgs.At(r)) }
	q, loc, filter := c.State().QMgr(s.loc.QMgr), &s.loc, s.text
	s.q = q
	s.qs = q.Queues[loc.Queue]
	s.msgs = msgList{}
	var cmd tea.Cmd
	if q.Snap != nil {
		s.now = q.Snap.Time
		s.isDLQ = loc.Queue == q.Snap.QMgr.DeadQ
		if inv := q.Snap.Inventories[loc.Queue]; inv != nil {
			s.msgs.inv = inv
			s.msgs.idx, cmd = s.mf.rows(inv, s.rows.of(inv, loc), filter)
		} else if f := q.Snap.Focus; f != nil && f.Queue == loc.Queue {
			s.msgs.list = filterList(f.Messages, filter)
		}
	}
	s.grid.Cols = queueCols(s.w, s.isDLQ)
	s.grid.SetSize(s.w, s.h-queueChrome)
	s.grid.SetRows(s.msgs.Len())
	s.follow(keep)
	return cmd
}

// follow keeps the cursor on the message it was on when rows shift (a
// consumer took messages from the head), so keys act on what the operator
// is looking at.
func (s *queueScreen) follow(k *mqwatch.Key) {
	if k == nil {
		return
	}
	if c := s.grid.Cursor; c < s.msgs.Len() && s.msgs.Key(c) == *k {
		return
	}
	for i := 0; i < s.msgs.Len(); i++ {
		if s.msgs.Key(i) == *k {
			s.grid.Offset += i - s.grid.Cursor
			s.grid.Cursor = i
			s.grid.clamp()
			return
		}
	}
}

// summaryText is what the filter matches a message against: its MsgId and
// its class's text.
func summaryText(m *mqwatch.Summary) string {
	c := m.Class()
	return shortID(m.MsgId) + " " + classText(&c)
}

func classText(c *mqwatch.Class) string {
	return strings.Join([]string{mqfmt.Reason(c.DLHReason).String(), c.DLHDestQ, c.JMSDst, c.JMSType, c.PutApplName, c.DLHPutAppl}, " ")
}

// groupRows lists the inventory positions of a location's group (all when
// the location has none), worked out again only for a new inventory: a
// keystroke in the filter of a million-message list must not redo it.
type groupRows struct {
	inv  *mqwatch.Inventory
	rows []int
}

func (g *groupRows) of(inv *mqwatch.Inventory, loc *model.Location) []int {
	if g.inv != inv || g.rows == nil {
		g.inv, g.rows = inv, model.GroupRows(inv, loc.Dim, loc.Group)
	}
	return g.rows
}

func filterList(list []mqwatch.Summary, filter string) []mqwatch.Summary {
	if filter == "" {
		return list
	}
	ms := model.Filter(filter, len(list), func(i int) string { return summaryText(&list[i]) })
	out := make([]mqwatch.Summary, len(ms))
	for i, m := range ms {
		out[i] = list[m.Index]
	}
	return out
}

func (s *queueScreen) selected() *mqwatch.Summary {
	if s.grid.Cursor < s.msgs.Len() {
		return s.msgs.At(s.grid.Cursor)
	}
	return nil
}

func (s *queueScreen) cell(row, col int) Cell {
	m := s.msgs.At(row)
	st := s.st
	switch s.grid.Cols[col].Title {
	case "#":
		return Cell{Text: fmt.Sprint(row + 1), Style: &st.Muted}
	case "MSGID":
		return Cell{Text: fitID(m.MsgId, s.grid.Cols[col].Width)}
	case "AGE": // time on this queue: since it was dead-lettered, on a DEADQ
		if m.QueuedAt().IsZero() {
			return Cell{Text: "?", Style: &st.Muted}
		}
		return Cell{Text: age(s.now.Sub(m.QueuedAt()))}
	case "BO":
		return s.backoutCell(m)
	case "REASON":
		if !m.HasDLH {
			return Cell{Text: "(no MQDLH)", Style: &st.Muted}
		}
		return Cell{Text: fmt.Sprintf("%d %s", m.DLHReason, trimRC(mqfmt.Reason(m.DLHReason).String())), Style: &st.Warning}
	case "DESTINATION":
		return Cell{Text: mqfmt.Sanitize(destText(m))}
	case "FORMAT":
		return Cell{Text: mqfmt.Sanitize(m.Format)}
	case "JMS DESTINATION / TYPE":
		return Cell{Text: mqfmt.Sanitize(jmsText(m))}
	case "SIZE":
		return Cell{Text: compact(float64(m.Length))}
	case "P":
		if m.Persistent {
			return Cell{Text: "P"}
		}
		return Cell{Text: "-", Style: &st.Muted}
	case "PRI":
		return Cell{Text: fmt.Sprint(m.Priority)}
	case "PUT TIME (UTC)":
		if m.PutTime.IsZero() {
			return Cell{Text: "not set", Style: &st.Muted}
		}
		return Cell{Text: m.PutTime.Format("2006-01-02 15:04:05")}
	}
	return Cell{}
}

// backoutCell shows BackoutCount/BOTHRESH, red at or over the threshold.
func (s *queueScreen) backoutCell(m *mqwatch.Summary) Cell {
	txt := fmt.Sprintf("%d/%d", m.BackoutCount, s.bothresh())
	switch s.backoutLevel(m) {
	case 2:
		return Cell{Text: txt, Style: &s.st.Danger}
	case 1:
		return Cell{Text: txt, Style: &s.st.Warning}
	}
	return Cell{Text: txt, Style: &s.st.Muted}
}

func (s *queueScreen) bothresh() int32 {
	if s.qs != nil {
		return s.qs.View.Info.BackoutThresh
	}
	return 0
}

// backoutLevel: 2 poison (at or over BOTHRESH, or looping with BOTHRESH 0),
// 1 rolled back at least once.
func (s *queueScreen) backoutLevel(m *mqwatch.Summary) int {
	bt := s.bothresh()
	switch {
	case bt > 0 && m.BackoutCount >= bt, bt == 0 && m.BackoutCount > 0 && !s.isDLQ:
		return 2
	case m.BackoutCount > 0:
		return 1
	}
	return 0
}

func trimRC(name string) string {
	if len(name) > 5 && (name[:5] == "MQRC_" || name[:5] == "MQFB_") {
		return name[5:]
	}
	return name
}

func destText(m *mqwatch.Summary) string {
	if m.DLHDestQMgr == "" {
		return m.DLHDestQ
	}
	return m.DLHDestQ + " (" + m.DLHDestQMgr + ")"
}

func jmsText(m *mqwatch.Summary) string {
	switch {
	case m.JMSDst != "" && m.JMSType != "":
		return m.JMSDst + " " + m.JMSType
	case m.JMSDst != "":
		return m.JMSDst
	}
	return m.JMSType
}

func (s *queueScreen) resize(_ common, w, h int) {
	s.w, s.h = w, h
	s.grid.Cols = queueCols(w, s.isDLQ)
	s.grid.SetSize(w, h-queueChrome)
}

func (s *queueScreen) scroll(d int) { s.grid.Move(d) }

// marked: the grid's mark column, from the App's selection.
func markedIn(c common, queue string, l *msgList) func(int) bool {
	return func(r int) bool { return c.Session().markQueue == queue && c.Session().marks.Marked(l.Key(r)) }
}

func (s *queueScreen) bindings(c common) []binding {
	k := *c.Keys()
	none := offIf(func() bool { return s.selected() == nil }, "no message here")
	out := append(gridKeys(c.Keys(), &s.grid),
		bind(k.Enter, func() tea.Cmd { return openMessage(c, s.loc, *s.selected()) }, short, none),
		bind(k.Mark, run(func() {
			c.Session().markOn(s.loc.Queue)
			c.Session().marks.Toggle(*s.selected())
			s.grid.Move(1)
		}), short, none),
		bind(k.MarkAll, run(func() {
			c.Session().markOn(s.loc.Queue)
			for i := 0; i < s.msgs.Len(); i++ {
				s.msgs.markRow(c.Session().marks, i)
			}
		}), none),
		unmarkKey(c),
		bind(k.Copy, func() tea.Cmd { return copyMsgID(c, s.selected().MsgId) }, none),
		inhibitKey(c, s.loc.QMgr, func() *model.QueueState { return c.State().QMgr(s.loc.QMgr).Queues[s.loc.Queue] }),
	)
	out = append(out, s.searchBinding(c))
	return append(out, actionKeys(c, func() ([]mqwatch.Summary, int) { return s.listTargets(c) }, s.loc)...)
}

// listTargets: the marked messages of this queue (nil: the dialog pulls
// them from the marks), else the one under the cursor.
func (s *queueScreen) listTargets(c common) ([]mqwatch.Summary, int) {
	if c.Session().marksOn(s.loc.Queue) != nil {
		return nil, s.hiddenMarks(c)
	}
	if m := s.selected(); m != nil {
		return []mqwatch.Summary{*m}, 0
	}
	return nil, 0
}

// unmarkKey clears every mark.
func unmarkKey(c common) binding {
	sel := c.Session().marks
	return bind(c.Keys().Unmark, run(sel.Clear), offIf(func() bool { return sel.Len() == 0 }, "nothing is marked"))
}
