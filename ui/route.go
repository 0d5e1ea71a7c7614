package ui

import (
	"strconv"
	"strings"

	"github.com/charmbracelet/x/ansi"

	"github.com/poisonwatch/poisonwatch/codec/mqfmt"
	"github.com/poisonwatch/poisonwatch/mqwatch"
)

// routePanel shows the prediction for the message under the cursor, and who
// has the queue open (the operator's "whom do I call?").
func (s *queueScreen) routePanel(c common) string {
	var lines []string
	if m := s.selected(); m != nil {
		r := s.q.Route(s.loc.Queue, m)
		lines = append(lines, c.Styles().Title.Render(" What happens next"))
		for _, l := range r {
			lines = append(lines, " "+mqfmt.Sanitize(l))
		}
	}
	if f := s.q.Snap; f != nil && f.Focus != nil && f.Focus.Queue == s.loc.Queue && len(f.Focus.Handles) > 0 {
		var who []string
		for _, h := range f.Focus.Handles {
			if h.ApplTag == watcherApplTag && !h.Input && !h.Output {
				continue // our own browse handle
			}
			who = append(who, handleText(h))
		}
		if len(who) == 0 {
			who = []string{"no application (nothing is consuming this queue)"}
		}
		// Whom to call is the point: the names wrap onto the panel's rows
		// (the prediction above gives way), not cut at the edge.
		open := wrapped(c.Styles().Muted, " open by: ", strings.Join(who, "; "), s.w)
		keep := max(routeRows-len(open), min(len(lines), 2))
		if len(lines) > keep {
			lines = lines[:keep]
		}
		lines = append(lines, open...)
	}
	for i, l := range lines {
		lines[i] = ansi.Truncate(l, s.w, "…")
	}
	return strings.Join(lines, "\n")
}

// routeRows is the height of the panel under the queue's messages.
const routeRows = queueChrome - 2

// watcherApplTag is the application tag of poisonwatch's own connections.
const watcherApplTag = "poisonwatch"

func handleText(h mqwatch.Handle) string {
	var mode []string
	if h.Input {
		mode = append(mode, "input")
	}
	if h.Output {
		mode = append(mode, "output")
	}
	if h.Browse {
		mode = append(mode, "browse")
	}
	s := mqfmt.Sanitize(h.ApplTag)
	if h.User != "" {
		s += " user " + mqfmt.Sanitize(h.User)
	}
	if h.Channel != "" {
		s += " via " + mqfmt.Sanitize(h.Channel) + " " + mqfmt.Sanitize(h.ConnName)
	}
	if h.PID != 0 {
		s += " pid " + itoa(h.PID)
	}
	return s + " (" + strings.Join(mode, "/") + ")"
}

func itoa(n int) string { return strconv.Itoa(n) }
