package ui

import (
	"fmt"
	"strings"

	"github.com/poisonwatch/poisonwatch/incident/journal"
	"github.com/poisonwatch/poisonwatch/internal/words"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	"github.com/poisonwatch/poisonwatch/actions/ops"
	"github.com/poisonwatch/poisonwatch/codec/mqfmt"
	"github.com/poisonwatch/poisonwatch/model"
)

// auditRun is one act of the journal as the audit view lists it; res is
// set for a run or an edit this session carried out, whose messages enter
// lists. The full record is in the audit file.
type auditRun struct {
	act journal.Act
	res *ops.OpResult
}

// auditScreen lists the journal's acts, newest first: runs, edits, fixes,
// inhibits, definitions, acknowledgements, with what each came to.
type auditScreen struct {
	base
	grid Grid
	runs []auditRun
	st   *Styles
	w, h int
}

func (s *auditScreen) cursorGrid() *Grid { return &s.grid }

func newAuditScreen(qm string) *auditScreen {
	return &auditScreen{base: base{loc: model.Location{Screen: model.ScreenAudit, QMgr: qm}}}
}

func (s *auditScreen) refresh(c common) tea.Cmd {
	// The audit of one queue manager: a run on another opened from here
	// would stack two queue managers' screens.
	s.st, s.runs = c.Styles(), s.runs[:0]
	sess := c.Session()
	acts := journal.Acts(sess.journal.Entries())
	for i := len(acts) - 1; i >= 0; i-- {
		a := acts[i]
		if s.loc.QMgr != "" && a.QMgr != s.loc.QMgr && a.QMgr != "" {
			continue
		}
		r := auditRun{act: a}
		if res, ok := sess.results[a.Seq]; ok {
			r.res = &res
		}
		s.runs = append(s.runs, r)
	}
	s.grid.Cell = s.cell
	s.grid.SetRows(len(s.runs))
	if s.w > 0 {
		s.resize(c, s.w, s.h) // the columns fit what they now hold
	}
	return nil
}

func (s *auditScreen) resize(_ common, w, h int) {
	s.w, s.h = w, h
	s.grid.Cols = auditCols(w, s.runs)
	s.grid.SetSize(w, h-1)
}

func (s *auditScreen) scroll(d int) { s.grid.Move(d) }

func (s *auditScreen) bindings(c common) []binding {
	return append(gridKeys(c.Keys(), &s.grid), bind(c.Keys().Enter, func() tea.Cmd {
		return c.Push(openAuditRun(s.runs[s.grid.Cursor]))
	}, short, offWhen(func() string {
		switch {
		case s.grid.Cursor >= len(s.runs):
			return "nothing done yet"
		case !s.runs[s.grid.Cursor].opens():
			return "an acknowledgement has nothing more to show"
		}
		return ""
	})))
}

// auditCols fit the act table: narrow terminals drop the files and USER
// before the result, which is what the operator looks for. The other
// columns are as wide as what they hold (up to a cap): an act named
// "acknowledge" or a queue named SYSTEM.DEAD.LETTER.QUEUE is read whole.
func auditCols(w int, runs []auditRun) []Column {
	widest := func(title string, most int, val func(a *journal.Act) string) int {
		n := len(title)
		for i := range runs {
			n = max(n, ansi.StringWidth(mqfmt.Sanitize(val(&runs[i].act))))
		}
		return min(n, most)
	}
	on := 24
	if w >= 120 {
		on = 48 // an MQ queue name's longest
	}
	cols := []Column{{Title: "TIME", Width: 8}, {Title: "QMGR", Width: widest("QMGR", 16, func(a *journal.Act) string { return a.QMgr })},
		{Title: "ACT", Width: widest("ACT", 12, func(a *journal.Act) string { return a.Op })}}
	if w >= 110 {
		cols = append(cols, Column{Title: "USER", Width: widest("USER", 12, func(a *journal.Act) string { return a.Who() })})
	}
	// RESULT takes the room: what an act came to is what the operator
	// reads ("all 22 came back (R10f) …"); the files are for later.
	cols = append(cols, Column{Title: "ON", Width: widest("ON", on, func(a *journal.Act) string { return cmpOr(a.Queue, a.QMgr) })},
		Column{Title: "RESULT", Width: 30, Flex: true})
	if w >= 140 {
		cols = append(cols, Column{Title: "FILES", Width: 24})
	}
	return cols
}

func (s *auditScreen) cell(row, col int) Cell {
	r := &s.runs[row]
	a := &r.act
	switch s.grid.Cols[col].Title {
	case "TIME":
		return Cell{Text: a.At.Local().Format("15:04:05")}
	case "QMGR":
		return Cell{Text: mqfmt.Sanitize(a.QMgr)}
	case "ACT":
		return Cell{Text: mqfmt.Sanitize(a.Op)}
	case "USER":
		return Cell{Text: mqfmt.Sanitize(a.Who())}
	case "ON":
		return Cell{Text: mqfmt.Sanitize(cmpOr(a.Queue, a.QMgr))}
	case "RESULT":
		return s.resultCell(r)
	case "FILES":
		return Cell{Text: mqfmt.Sanitize(strings.Join(a.Files, " "))}
	}
	return Cell{}
}

// resultCell is an act's outcome as the journal tells it, coloured by how
// it ended: what came back (R10f) is as loud as a failure.
func (s *auditScreen) resultCell(r *auditRun) Cell {
	a := &r.act
	if len(a.Steps) > 0 {
		c := s.fixResultCell(a)
		if a.Status == journal.OK {
			c.Text += " · " + mqfmt.Sanitize(a.Outcome) // "applied", and the alert it cleared
		}
		return c
	}
	st := &s.st.OK
	switch a.Status {
	case journal.Partial, journal.Failed, journal.Refused:
		st = &s.st.Warning
	case journal.Returned:
		st = &s.st.Danger
	case "":
		st = &s.st.Muted
	}
	text := a.Outcome
	if a.Kind == journal.Ack || a.Kind == journal.Snooze {
		text = a.Sentence()
	}
	return Cell{Text: mqfmt.Sanitize(text), Style: st}
}

func (s *auditScreen) view(c common, w, h int) string {
	title := s.st.Title.Render(fmt.Sprintf(" Audit: %s %s %s  %s", words.Count(len(s.runs), "act"), auditScope(c.Opts()), position(s.grid), s.enterHint()))
	if len(s.runs) == 0 {
		return title + "\n" + s.st.Muted.Render(wrapWords("nothing done yet. Every action writes one JSON line per message, and one for the act, to the audit file too (--audit; by default audit.jsonl in the state directory).", w-2, " "))
	}
	return title + "\n" + strings.TrimRight(s.grid.View(s.st), "\n")
}

// auditRunScreen lists one run's messages and what happened to each.
type auditRunScreen struct {
	base
	run  auditRun
	grid Grid
	st   *Styles
}

func newAuditRunScreen(r auditRun) *auditRunScreen {
	label := fmt.Sprintf("%s %s", r.act.Op, r.act.At.Local().Format("15:04:05"))
	return &auditRunScreen{base: base{loc: model.Location{Screen: model.ScreenAudit, QMgr: r.act.QMgr, Queue: r.act.Queue, Label: label}}, run: r}
}

// items are the run's messages, when this session ran it.
func (s *auditRunScreen) items() []ops.OpItem {
	if s.run.res == nil {
		return nil
	}
	return s.run.res.Items
}

func (s *auditRunScreen) refresh(c common) tea.Cmd {
	s.st = c.Styles()
	s.grid.Cell = s.cell
	s.grid.SetRows(len(s.items()))
	return nil
}

func (s *auditRunScreen) resize(_ common, w, h int) {
	s.grid.Cols = []Column{{Title: "MSGID", Width: 48}, {Title: "TO", Width: 18}, {Title: "OUTCOME", Width: 12, Flex: true}}
	if w < 100 {
		s.grid.Cols[0].Width = 16
	}
	s.grid.SetSize(w, h-2)
}

func (s *auditRunScreen) scroll(d int) { s.grid.Move(d) }

func (s *auditRunScreen) bindings(c common) []binding { return gridKeys(c.Keys(), &s.grid) }

func (s *auditRunScreen) cell(row, col int) Cell {
	it := s.items()[row]
	switch s.grid.Cols[col].Title {
	case "MSGID":
		return Cell{Text: fitID(it.Msg.MsgId, s.grid.Cols[col].Width)}
	case "TO":
		to := it.Target
		if it.TargetQMgr != "" {
			to += "@" + it.TargetQMgr
		}
		return Cell{Text: mqfmt.Sanitize(to)}
	case "OUTCOME":
		st := &s.st.OK
		text := it.Text(s.run.res.Plan.Request.Op)
		if it.Reason != 0 {
			st = &s.st.Warning
		}
		if it.CameBack {
			st, text = &s.st.Danger, text+", came back (R10f)"
		}
		return Cell{Text: mqfmt.Sanitize(text), Style: st}
	}
	return Cell{}
}

func (s *auditRunScreen) view(_ common, w, h int) string {
	a := &s.run.act
	title := s.st.Title.Render(fmt.Sprintf(" %s by %s from %s on %s: %s %s", a.Op, mqfmt.Sanitize(a.Who()),
		mqfmt.Sanitize(a.Queue), mqfmt.Sanitize(a.QMgr), words.Count(max(a.Counts.Requested, len(s.items())), "message"), position(s.grid)))
	outcome := s.st.Muted.Render(" " + mqfmt.Sanitize(a.Outcome))
	if s.run.res == nil {
		return title + "\n" + outcome + "\n" + s.st.Muted.Render(wrapWords("Another session ran it: its per-message lines are in "+
			mqfmt.Sanitize(cmpOr(strings.Join(a.Files, " "), "the audit log"))+".", w-2, " "))
	}
	return title + "\n" + outcome + "\n" + strings.TrimRight(s.grid.View(s.st), "\n")
}

// auditAt rebuilds the audit list for a follower; a run (its label names
// it) is this session's own, not rebuilt.
func auditAt(l model.Location) screen {
	if l.Label != "" {
		return nil
	}
	return newAuditScreen(l.QMgr)
}
