package ui

import (
	"fmt"
	"strings"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/poisonwatch/poisonwatch/actions"
	"github.com/poisonwatch/poisonwatch/model"
	"github.com/poisonwatch/poisonwatch/mqwatch/mqfmt"
)

// auditScreen lists what this session did, one row per message, newest first;
// the full record is in the audit file named in each result.
type auditScreen struct {
	base
	grid Grid
	rows []auditRow
	st   *Styles
}

func newAuditScreen(qm string) *auditScreen {
	return &auditScreen{base: base{loc: model.Location{Screen: model.ScreenAudit, QMgr: qm}}}
}

type auditRow struct {
	at     time.Time
	op     actions.Op
	item   actions.OpItem
	from   string
	user   string
	dryRun bool
}

func (a *App) recordAudit(res actions.OpResult) {
	now := a.opt.Now()
	var fresh []auditRow
	for _, it := range res.Items {
		fresh = append(fresh, auditRow{at: now, op: res.Plan.Request.Op, item: it, from: res.Plan.Request.Queue, user: res.Plan.Request.User})
	}
	a.auditLog = append(fresh, a.auditLog...)
}

func (s *auditScreen) refresh(a *App) tea.Cmd {
	s.st, s.rows = &a.st, a.auditLog
	s.grid.Cell = s.cell
	s.grid.SetRows(len(s.rows))
	return nil
}

func (s *auditScreen) resize(a *App, w, h int) {
	s.grid.Cols = s.cols(w)
	s.grid.SetSize(w, h-1)
}

func (s *auditScreen) scroll(d int) { s.grid.Move(d) }

func (s *auditScreen) filter() *string { return nil }

func (s *auditScreen) bindings(a *App) []binding { return a.gridKeys(&s.grid) }

// cols fits the audit table: narrow terminals drop USER and FROM before the
// outcome, which is what the operator looks for.
func (s *auditScreen) cols(w int) []Column {
	cols := []Column{{Title: "TIME", Width: 8}}
	if w >= 110 {
		cols = append(cols, Column{Title: "USER", Width: 8})
	}
	cols = append(cols, Column{Title: "ACTION", Width: 8}, Column{Title: "MSGID", Width: 16})
	if w >= 100 {
		cols = append(cols, Column{Title: "FROM", Width: 18})
	}
	return append(cols, Column{Title: "TO", Width: 18}, Column{Title: "OUTCOME", Width: 12, Flex: true})
}

func (s *auditScreen) cell(row, col int) Cell {
	r := s.rows[row]
	switch s.grid.Cols[col].Title {
	case "TIME":
		return Cell{Text: r.at.Local().Format("15:04:05")}
	case "USER":
		return Cell{Text: mqfmt.Sanitize(r.user)}
	case "ACTION":
		return Cell{Text: string(r.op)}
	case "MSGID":
		return Cell{Text: shortID(r.item.Msg.MsgId)}
	case "FROM":
		return Cell{Text: mqfmt.Sanitize(r.from)}
	case "TO":
		to := r.item.Target
		if r.item.TargetQMgr != "" {
			to += "@" + r.item.TargetQMgr
		}
		return Cell{Text: mqfmt.Sanitize(to)}
	case "OUTCOME":
		st := &s.st.OK
		if r.item.Reason != 0 {
			st = &s.st.Warning
		}
		return Cell{Text: mqfmt.Sanitize(r.item.Outcome), Style: st}
	}
	return Cell{}
}

func (s *auditScreen) view(a *App, w, h int) string {
	title := s.st.Title.Render(fmt.Sprintf(" Audit: %d message action(s) this session", len(s.rows)))
	if len(s.rows) == 0 {
		return title + "\n" + s.st.Muted.Render(" nothing done yet. Every action writes one JSON line per message to the audit file too.")
	}
	return title + "\n" + strings.TrimRight(s.grid.View(s.st), "\n")
}
