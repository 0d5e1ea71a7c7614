package ui

import (
	"fmt"

	"github.com/charmbracelet/x/ansi"

	"github.com/poisonwatch/poisonwatch/codec/mqfmt"
	"github.com/poisonwatch/poisonwatch/model"
	"github.com/poisonwatch/poisonwatch/mqwatch"
)

const (
	queueChrome  = 8 // attributes (2) + route panel (6)
	triageChrome = 4 // title + explanation
)

func (s *queueScreen) view(c common, w, h int) string {
	grid := s.grid.View(c.Styles())
	var focus *mqwatch.FocusView
	if snap := s.q.Snap; snap != nil && snap.Focus != nil && snap.Focus.Queue == s.loc.Queue {
		focus = snap.Focus
	}
	switch {
	case focus != nil && focus.Err != nil && s.msgs.Len() == 0:
		grid = fitHeight(grid, 2) + "\n" + c.Styles().Danger.Render(" cannot browse this queue: "+mqfmt.Sanitize(focus.Err.Error()))
	case s.msgs.Len() == 0:
		grid = fitHeight(grid, 2) + "\n" + c.Styles().Muted.Render(" no messages (browsing the first messages of the queue; ctrl+r refreshes)")
	}
	extra := ""
	if focus != nil && focus.More && s.qs != nil {
		extra = fmt.Sprintf("  (showing the first %s of %s)", human(int64(len(focus.Messages))), human(int64(s.qs.View.Status.Depth)))
	}
	if p := position(s.grid); p != "" {
		extra = "  " + p + extra
	}
	attrs := queueAttrs(c, s.qs, w, extra)
	return fitHeight(attrs, 2) + "\n" + fitHeight(grid, h-queueChrome) + "\n" + fitHeight(s.routePanel(c), queueChrome-2)
}

// queueAttrs: the attributes and status an operator checks first.
// where (the list position, what was browsed) follows the queue's name, so
// a narrow screen cuts attributes rather than the position.
func queueAttrs(c common, qs *model.QueueState, w int, where string) string {
	if qs == nil {
		return c.Styles().Muted.Render(" queue not (yet) seen by the watcher")
	}
	v := qs.View
	i := v.Info
	boq := i.BackoutQName
	if boq == "" {
		boq = "-"
	}
	l1 := fmt.Sprintf(" %s%s  %s  depth %s/%s  BOTHRESH %d  BOQNAME %s  PUT %s  GET %s",
		c.Styles().Title.Render(mqfmt.Sanitize(i.Name)), c.Styles().Warning.Render(where), i.Type, human(int64(v.Status.Depth)), human(int64(i.MaxDepth)),
		i.BackoutThresh, mqfmt.Sanitize(boq), enabled(!i.InhibitPut), enabled(!i.InhibitGet))
	l2 := fmt.Sprintf(" IPPROCS %d  OPPROCS %d  UNCOM %d  MAXMSGL %s", v.Status.OpenInput, v.Status.OpenOutput, v.Status.Uncommitted, human(int64(i.MaxMsgLen)))
	if v.Status.Monitored {
		l2 += "  oldest " + age(v.Status.OldestAge)
	} else {
		l2 += "  MONQ off: age/last get unknown"
	}
	if i.BackoutThresh == 0 && v.Role == mqwatch.RoleInput {
		l2 += c.Styles().Warning.Render("  BOTHRESH 0: poison handling disabled")
	}
	l2 = inhibitNote(c, qs.View.Info, c.QMgrName()) + l2
	if v.InquireErr != nil {
		// Only this queue failed the poll's inquiry; the others are current.
		// The status line leads with why, as the header has two lines.
		return ansi.Truncate(l1, w, "…") + "\n" + ansi.Truncate(c.Styles().Warning.Render(" stale: "+mqfmt.Sanitize(inquireWhy(v.InquireErr))+"; last good poll:")+c.Styles().Muted.Render(l2), w, "…")
	}
	return ansi.Truncate(l1, w, "…") + "\n" + ansi.Truncate(c.Styles().Muted.Render(l2), w, "…")
}

func enabled(b bool) string {
	if b {
		return "ENABLED"
	}
	return "DISABLED"
}

// inquireWhy names a failed inquiry's reason code and explains it.
func inquireWhy(err error) string {
	if rc := mqwatch.ReasonOf(err); rc != 0 {
		return rc.Describe()
	}
	return err.Error()
}
