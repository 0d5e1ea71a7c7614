package ui

import (
	"fmt"
	"strings"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/poisonwatch/poisonwatch/actions"
	"github.com/poisonwatch/poisonwatch/mqwatch/mqfmt"
)

// auditScreen lists what this session did, one row per message, newest first;
// the full record is in the audit file named in each result.
type auditScreen struct {
	grid Grid
	rows []auditRow
	st   *Styles
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
	s := &a.audit
	var fresh []auditRow
	for _, it := range res.Items {
		fresh = append(fresh, auditRow{at: now, op: res.Plan.Request.Op, item: it, from: res.Plan.Request.Queue, user: res.Plan.Request.User})
	}
	s.rows = append(fresh, s.rows...)
	s.grid.SetRows(len(s.rows))
}

func (s *auditScreen) key(k tea.KeyMsg, km *KeyMap) {
	_ = km
}

func (s *auditScreen) cols() []Column {
	return []Column{
		{Title: "TIME", Width: 8},
		{Title: "USER", Width: 8},
		{Title: "ACTION", Width: 8},
		{Title: "MSGID", Width: 16},
		{Title: "FROM", Width: 18},
		{Title: "TO", Width: 18},
		{Title: "OUTCOME", Width: 20, Flex: true},
	}
}

func (s *auditScreen) cell(row, col int) Cell {
	r := s.rows[row]
	switch col {
	case 0:
		return Cell{Text: r.at.Local().Format("15:04:05")}
	case 1:
		return Cell{Text: mqfmt.Sanitize(r.user)}
	case 2:
		return Cell{Text: string(r.op)}
	case 3:
		return Cell{Text: shortID(r.item.Msg.MsgId)}
	case 4:
		return Cell{Text: mqfmt.Sanitize(r.from)}
	case 5:
		to := r.item.Target
		if r.item.TargetQMgr != "" {
			to += "@" + r.item.TargetQMgr
		}
		return Cell{Text: mqfmt.Sanitize(to)}
	case 6:
		st := &s.st.OK
		if r.item.Reason != 0 {
			st = &s.st.Warning
		}
		return Cell{Text: mqfmt.Sanitize(r.item.Outcome), Style: st}
	}
	return Cell{}
}

func (s *auditScreen) view(w, h int) string {
	if s.grid.Cols == nil {
		s.grid.Cols = s.cols()
		s.grid.SetSize(w, h-1)
	}
	s.grid.Cell = s.cell
	title := s.st.Title.Render(fmt.Sprintf(" Audit: %d message action(s) this session", len(s.rows)))
	if len(s.rows) == 0 {
		return title + "\n" + s.st.Muted.Render(" nothing done yet. Every action writes one JSON line per message to the audit file too.")
	}
	return title + "\n" + strings.TrimRight(s.grid.View(s.st), "\n")
}
