package ui

import (
	"strings"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	"github.com/poisonwatch/poisonwatch/actions/dlqrules"
	"github.com/poisonwatch/poisonwatch/mqwatch/mqfmt"
)

// A rules table that forwards to a queue that does not exist would have
// runmqdlq fail every FWD of the group (2085): W warns, and ctrl+n defines
// the queue as a move's target input does (dialog_create.go).

// fwdMissing is the FWD queue of the group under the cursor when it is a
// queue name (not &DESTQ or &REPLYQ) on a watched queue manager that has no
// such queue; "" otherwise.
func (a *App) fwdMissing(d *rulesDialog) (q, qm string) {
	g := d.group()
	if g.Choice != dlqrules.Fwd || g.FwdQ == "" || strings.HasPrefix(g.FwdQ, "&") || strings.HasPrefix(g.FwdQM, "&") {
		return "", ""
	}
	qm = cmpOr(g.FwdQM, d.loc.QMgr)
	if s := a.state.QMgrs[qm]; s == nil || s.Snap == nil || queueKnown(a.state, qm, g.FwdQ) || d.defined[qm+"/"+g.FwdQ] {
		return "", ""
	}
	return g.FwdQ, qm
}

// fwdWarning is the line that says so, "" when the FWDQ exists.
func (a *App) fwdWarning(d *rulesDialog) string {
	q, qm := a.fwdMissing(d)
	if q == "" {
		return ""
	}
	s := " FWDQ " + mqfmt.Sanitize(q) + " does not exist on " + mqfmt.Sanitize(qm) + ": runmqdlq could not forward (2085)"
	if defineOff(&a.opt) == "" {
		s += "; ctrl+n defines it"
	}
	return s
}

// fwdCreateOff says why ctrl+n does nothing in the rules dialog.
func (a *App) fwdCreateOff(d *rulesDialog) string {
	q, qm := a.fwdMissing(d)
	if q == "" {
		return "ctrl+n defines a FWD queue that does not exist; this group's does, or is not a queue name"
	}
	return newQueueOff(a, q, qm)
}

// openFwdCreate is ctrl+n on a group whose FWDQ does not exist.
func (a *App) openFwdCreate(d *rulesDialog) {
	q, qm := a.fwdMissing(d)
	c := newCreate(a.state, q, qm)
	c.then = "the table forwards to it"
	c.done = func(*App) tea.Cmd {
		if d.defined == nil {
			d.defined = map[string]bool{}
		}
		d.defined[qm+"/"+q] = true
		if d.create == c {
			d.create = nil
		}
		return nil
	}
	d.create = c
}

// rulesCreateView is the define form in place of the group list.
func (a *App) rulesCreateView(d *rulesDialog, w, h int) string {
	lines := d.create.createLines(a, a.width)
	for i, l := range lines {
		lines[i] = ansi.Truncate(l, w, "…")
	}
	return fitHeight(strings.Join(lines, "\n"), h)
}
