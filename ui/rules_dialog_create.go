package ui

import (
	"strings"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	"github.com/poisonwatch/poisonwatch/actions/dlqrules"
	"github.com/poisonwatch/poisonwatch/codec/mqfmt"
)

// A rules table that forwards to a queue that does not exist would have
// runmqdlq fail every FWD of the group (2085): W warns, and ctrl+n defines
// the queue as a move's target input does (dialog_create.go).

// fwdMissing is the FWD queue of the group under the cursor when it is a
// queue name (not &DESTQ or &REPLYQ) on a watched queue manager that has no
// such queue; "" otherwise.
func (d *rulesDialog) fwdMissing(c common) (q, qm string) {
	g := d.group()
	if g.Choice != dlqrules.Fwd || g.FwdQ == "" || strings.HasPrefix(g.FwdQ, "&") || strings.HasPrefix(g.FwdQM, "&") {
		return "", ""
	}
	qm = cmpOr(g.FwdQM, d.loc.QMgr)
	if s := c.State().QMgrs[qm]; s == nil || s.Snap == nil || queueKnown(c.State(), qm, g.FwdQ) || d.defined[qm+"/"+g.FwdQ] {
		return "", ""
	}
	return g.FwdQ, qm
}

// fwdWarning is the line that says so, "" when the FWDQ exists.
func (d *rulesDialog) fwdWarning(c common) string {
	q, qm := d.fwdMissing(c)
	if q == "" {
		return ""
	}
	s := " FWDQ " + mqfmt.Sanitize(q) + " does not exist on " + mqfmt.Sanitize(qm) + ": runmqdlq could not forward (2085)"
	if defineOff(c.Opts()) == "" {
		s += "; ctrl+n defines it"
	}
	return s
}

// fwdCreateOff says why ctrl+n does nothing in the rules dialog.
func (d *rulesDialog) fwdCreateOff(c common) string {
	q, qm := d.fwdMissing(c)
	if q == "" {
		return "ctrl+n defines a FWD queue that does not exist; this group's does, or is not a queue name"
	}
	return newQueueOff(c, q, qm)
}

// openFwdCreate is ctrl+n on a group whose FWDQ does not exist.
func (d *rulesDialog) openFwdCreate(cx common) {
	q, qm := d.fwdMissing(cx)
	c := newCreate(cx.State(), q, qm)
	c.then = "the table forwards to it"
	c.done = func(common) tea.Cmd {
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
func (d *rulesDialog) rulesCreateView(c common, w, h int) string {
	lines := d.create.createLines(c, d.w)
	for i, l := range lines {
		lines[i] = ansi.Truncate(l, w, "…")
	}
	return fitHeight(strings.Join(lines, "\n"), h)
}
