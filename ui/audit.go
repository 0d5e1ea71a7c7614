package ui

import (
	"fmt"
	"strings"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/poisonwatch/poisonwatch/actions/ops"
	"github.com/poisonwatch/poisonwatch/codec/mqfmt"
	"github.com/poisonwatch/poisonwatch/model"
)

// auditRun is one action run of this session: what, by whom, when, where,
// its counts and files; its messages open on enter. The full record is in
// the audit file.
type auditRun struct {
	at  time.Time
	res ops.OpResult
	// fix is set for a fix, an inhibit or a define (R10h) instead of res
	// (audit_fix.go).
	fix *ops.FixResult
}

func (r *auditRun) req() ops.OpRequest { return r.res.Plan.Request }

// auditScreen lists the runs of this session, newest first.
type auditScreen struct {
	base
	grid Grid
	runs []auditRun
	st   *Styles
}

func (s *auditScreen) cursorGrid() *Grid { return &s.grid }

func newAuditScreen(qm string) *auditScreen {
	return &auditScreen{base: base{loc: model.Location{Screen: model.ScreenAudit, QMgr: qm}}}
}

func (s *auditScreen) refresh(c common) tea.Cmd {
	// The audit of one queue manager: a run on another opened from here
	// would stack two queue managers' screens.
	s.st, s.runs = c.Styles(), s.runs[:0]
	for _, r := range c.Session().journal {
		if s.loc.QMgr == "" || r.qmgr() == s.loc.QMgr {
			s.runs = append(s.runs, r)
		}
	}
	s.grid.Cell = s.cell
	s.grid.SetRows(len(s.runs))
	return nil
}

func (s *auditScreen) resize(_ common, w, h int) {
	s.grid.Cols = auditCols(w)
	s.grid.SetSize(w, h-1)
}

func (s *auditScreen) scroll(d int) { s.grid.Move(d) }

func (s *auditScreen) bindings(c common) []binding {
	return append(gridKeys(c.Keys(), &s.grid), bind(c.Keys().Enter, func() tea.Cmd {
		return c.Push(openAuditRun(s.runs[s.grid.Cursor]))
	}, short, offIf(func() bool { return s.grid.Cursor >= len(s.runs) }, "nothing done yet")))
}

// auditCols fit the run table: narrow terminals drop USER and the files
// before the counts, which is what the operator looks for.
func auditCols(w int) []Column {
	cols := []Column{{Title: "TIME", Width: 8}, {Title: "QMGR", Width: 8}, {Title: "ACTION", Width: 8}}
	if w >= 110 {
		cols = append(cols, Column{Title: "USER", Width: 8})
	}
	cols = append(cols, Column{Title: "FROM", Width: 18}, Column{Title: "RESULT", Width: 30})
	if w >= 100 {
		cols = append(cols, Column{Title: "FILES", Width: 12, Flex: true})
	}
	return cols
}

func (s *auditScreen) cell(row, col int) Cell {
	r := &s.runs[row]
	switch s.grid.Cols[col].Title {
	case "TIME":
		return Cell{Text: r.at.Local().Format("15:04:05")}
	case "QMGR":
		return Cell{Text: mqfmt.Sanitize(r.qmgr())}
	case "ACTION":
		return Cell{Text: string(r.op())}
	case "USER":
		return Cell{Text: mqfmt.Sanitize(r.user())}
	case "FROM":
		return Cell{Text: mqfmt.Sanitize(r.from())}
	case "RESULT":
		if r.fix != nil {
			return s.fixResultCell(r)
		}
		st := &s.st.OK
		if r.res.Failed > 0 || r.res.Skipped > 0 {
			st = &s.st.Warning
		}
		return Cell{Text: fmt.Sprintf("%s done · %d skipped · %d failed", human(int64(r.res.Done)), r.res.Skipped, r.res.Failed), Style: st}
	case "FILES":
		files := []string{r.res.AuditFile, r.res.ArchiveFile, r.req().File}
		var out []string
		for _, f := range files {
			if f != "" {
				out = append(out, f)
			}
		}
		return Cell{Text: mqfmt.Sanitize(strings.Join(out, " "))}
	}
	return Cell{}
}

func (s *auditScreen) view(c common, w, h int) string {
	title := s.st.Title.Render(fmt.Sprintf(" Audit: %d action run(s) %s %s  %s", len(s.runs), auditScope(c.Opts()), position(s.grid), s.enterHint()))
	if len(s.runs) == 0 {
		return title + "\n" + s.st.Muted.Render(wrapWords("nothing done yet. Every action writes one JSON line per message to the audit file too (--audit; by default audit.jsonl in the state directory).", w-2, " "))
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
	label := fmt.Sprintf("%s %s", r.req().Op, r.at.Local().Format("15:04:05"))
	return &auditRunScreen{base: base{loc: model.Location{Screen: model.ScreenAudit, QMgr: r.req().QMgr, Queue: r.req().Queue, Label: label}}, run: r}
}

func (s *auditRunScreen) refresh(c common) tea.Cmd {
	s.st = c.Styles()
	s.grid.Cell = s.cell
	s.grid.SetRows(len(s.run.res.Items))
	return nil
}

func (s *auditRunScreen) resize(_ common, w, h int) {
	s.grid.Cols = []Column{{Title: "MSGID", Width: 48}, {Title: "TO", Width: 18}, {Title: "OUTCOME", Width: 12, Flex: true}}
	if w < 100 {
		s.grid.Cols[0].Width = 16
	}
	s.grid.SetSize(w, h-1)
}

func (s *auditRunScreen) scroll(d int) { s.grid.Move(d) }

func (s *auditRunScreen) bindings(c common) []binding { return gridKeys(c.Keys(), &s.grid) }

func (s *auditRunScreen) cell(row, col int) Cell {
	it := s.run.res.Items[row]
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
		if it.Reason != 0 {
			st = &s.st.Warning
		}
		return Cell{Text: mqfmt.Sanitize(it.Text(s.run.res.Plan.Request.Op)), Style: st}
	}
	return Cell{}
}

func (s *auditRunScreen) view(_ common, w, h int) string {
	r := &s.run
	title := s.st.Title.Render(fmt.Sprintf(" %s by %s from %s on %s: %d message(s) %s", r.req().Op, mqfmt.Sanitize(r.req().User),
		mqfmt.Sanitize(r.req().Queue), mqfmt.Sanitize(r.req().QMgr), len(r.res.Items), position(s.grid)))
	return title + "\n" + strings.TrimRight(s.grid.View(s.st), "\n")
}

// auditAt rebuilds the audit list for a follower; a run (its label names
// it) is this session's own, not rebuilt.
func auditAt(l model.Location) screen {
	if l.Label != "" {
		return nil
	}
	return newAuditScreen(l.QMgr)
}
