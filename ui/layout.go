package ui

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"

	"github.com/poisonwatch/poisonwatch/codec/mqfmt"
	"github.com/poisonwatch/poisonwatch/model"
	"github.com/poisonwatch/poisonwatch/mqwatch"
)

// wide is the width from which trends and alerts sit side by side.
const wide = 120

// layout divides the dashboard: queues on top, then trends and alerts side
// by side when wide, stacked when narrow. The queue table takes what its
// rows need and the alerts get the rest, so trouble is never scrolled away.
func (d *dashboard) layout(c common) {
	h := d.h
	trends := min(len(d.trendQueues())+1, 6)
	need := d.grid.Rows + 2
	alertsW := d.w
	if d.w >= wide {
		bottom := max(min(h/3, 14), 6, trends)
		if need < h-bottom {
			bottom = h - need
		}
		d.gridH, d.bottomH, d.trendsH = h-bottom, bottom, bottom
		alertsW = d.w - d.w*2/5 - 1
	} else {
		// Narrow: the alerts say what is wrong, so they get room first (up
		// to half the screen); the queue table scrolls.
		d.trendsH = min(trends, 4)
		alerts := min(max(d.alertLines()+2, 4), h/2)
		d.gridH = max(min(need, h-d.trendsH-alerts), 4)
		d.bottomH = max(h-d.gridH-d.trendsH, 2)
	}
	d.grid.SetSize(d.w, d.gridH-1) // less the section title
	d.grid.Blurred = d.focus == 1
	d.alerts.focused = d.focus == 1
	d.alerts.resize(alertsW, d.bottomH-1-d.fixLines())
}

// alertLines is how many lines every alert needs, wrapped.
func (d *dashboard) alertLines() int {
	n := 0
	for i := range d.alerts.list {
		n += len(d.alerts.wrap(i))
	}
	return n
}

func (d *dashboard) trendQueues() []*model.QueueState {
	var out []*model.QueueState
	if d.q == nil {
		return nil
	}
	for _, qs := range d.q.SortedQueues() {
		if qs.View.Role == mqwatch.RoleDeadQ {
			out = append([]*model.QueueState{qs}, out...)
		} else if qs.View.Role == mqwatch.RoleBOQ {
			out = append(out, qs)
		}
	}
	return out
}

func (d *dashboard) view(c common, w, h int) string {
	st := c.Styles()
	title := "Queues by " + d.sortBy.String()
	gridTitle := section(c.Styles(), fmt.Sprintf("%s %s  (s sorts)", title, position(d.grid)), w, d.focus == 0)
	if n := unlistedErrs(c); n != "" {
		// The failure replaces the sort hint: it is what the operator must see.
		head := fmt.Sprintf("─ %s %s  ", title, position(d.grid))
		gridTitle = ansi.Truncate(st.Muted.Render(head)+st.Warning.Render(n+" "), w, "…")
	}
	grid := gridTitle + "\n" + d.grid.View(st)
	if d.grid.Rows == 0 && d.text != "" {
		grid = gridTitle + "\n" + st.Muted.Render(ansi.Truncate(" no queue matches /"+mqfmt.Sanitize(d.text)+" (esc clears the filter)", w, "…"))
	}
	aw := d.alerts.w
	alertTitle := fmt.Sprintf("Alerts (%s) %s", ackedCount(d.alerts.list, d.alerts.now), d.alerts.position())
	if d.alertText != "" && d.q != nil {
		alertTitle = fmt.Sprintf("Alerts (%d of %d, /%s) %s", len(d.alerts.list), len(d.q.Alerts), mqfmt.Sanitize(d.alertText), d.alerts.position())
	}
	if d.focus == 1 {
		alertTitle += " — enter: details"
	}
	alerts := section(c.Styles(), alertTitle, aw, d.focus == 1) + "\n" + d.alerts.view(st) + d.fixLine(c, aw)
	switch {
	case len(d.alerts.list) == 0 && d.alertText != "":
		alerts = section(c.Styles(), alertTitle, aw, d.focus == 1) + "\n" +
			st.Muted.Render(ansi.Truncate(" no alert matches /"+mqfmt.Sanitize(d.alertText)+" (esc clears the filter)", aw, "…"))
	case len(d.alerts.list) == 0:
		alerts = section(c.Styles(), alertTitle, aw, false) + "\n" + st.OK.Render(" no alerts: nothing is looping, stuck or filling up")
	}
	if w >= wide {
		tw := w * 2 / 5
		bottom := lipgloss.JoinHorizontal(lipgloss.Top, fitHeight(d.trendsView(c, tw, d.trendsH), d.bottomH), " ", fitHeight(alerts, d.bottomH))
		return fitHeight(grid, d.gridH) + "\n" + bottom
	}
	return fitHeight(grid, d.gridH) + "\n" + fitHeight(d.trendsView(c, w, d.trendsH), d.trendsH) + "\n" + fitHeight(alerts, d.bottomH)
}

// position says where a list's cursor is: "12/17".
func position(g Grid) string {
	if g.Rows == 0 {
		return ""
	}
	return fmt.Sprintf("%d/%d", g.Cursor+1, g.Rows)
}

// section is a pane's title line across the width w.
func section(s *Styles, title string, w int, focused bool) string {
	st := s.Muted
	if focused {
		st = s.Title
	}
	line := "─ " + title + " "
	return st.Render(ansi.Truncate(line+strings.Repeat("─", max(w-ansi.StringWidth(line), 0)), w, ""))
}

// trendsView: one line per DEADQ/BOQ: sparkline, depth, arrival rate, forecast.
func (d *dashboard) trendsView(c common, w, h int) string {
	queues := d.trendQueues()
	lines := []string{section(c.Styles(), fmt.Sprintf("DEADQ and BOQs (%d), depth of MAXDEPTH", len(queues)), w, false)}
	// Fixed-width figures keep the sparklines aligned; the forecast matters
	// more than a full name, so a narrow pane cuts names first.
	const tailW = 28
	longest := 10
	for _, qs := range queues {
		longest = max(longest, ansi.StringWidth(qs.View.Info.Name))
	}
	nameW := max(10, min(longest, 48, w-tailW-1-4))
	room := h - 1
	if len(queues) > room {
		room = max(h-2, 0) // the last line says what does not fit
	}
	for i, qs := range queues {
		if i >= room {
			var names []string
			for _, q := range queues[i:] {
				names = append(names, mqfmt.Sanitize(q.View.Info.Name))
			}
			more := fmt.Sprintf(" +%d more: %s (:q NAME opens one)", len(queues)-i, strings.Join(names, ", "))
			lines = append(lines, c.Styles().Muted.Render(ansi.Truncate(more, w, "…")))
			break
		}
		v := qs.View
		r, ok := qs.ArrivalsPerMinute()
		forecast := ""
		if ttf, ok := qs.TimeToFull(); ok {
			forecast = "full " + age(ttf)
		} else if qs.Fill() >= 1 {
			forecast = "FULL"
		}
		in := "·"
		switch {
		case ok && r >= 0.5:
			in = "in " + compact(r) + "/m" // arrivals, not net depth change
		case ok && r > 0:
			in = "in <1/m" // a trickle still fills the queue: the forecast beside it says when
		}
		tail := fmt.Sprintf(" %6s %8s %-11s", compact(float64(v.Status.Depth)), in, forecast)
		spW := max(w-nameW-tailW-1, 4)
		name := fit(mqfmt.Sanitize(v.Info.Name), nameW, false)
		line := name + " " + c.Styles().Info.Render(sparkFill(qs.Depth.Values(), float64(v.Info.MaxDepth), spW)) + c.Styles().Level(fillLevel(qs.Fill())).Render(tail)
		lines = append(lines, ansi.Truncate(line, w, "…"))
	}
	if len(lines) == 1 {
		lines = append(lines, c.Styles().Muted.Render(" no DEADQ or BOQ defined"))
	}
	return strings.Join(lines, "\n")
}

// fixLines is 1 when the alerts pane has focus and its alert has a fix.
func (d *dashboard) fixLines() int {
	if al := d.alerts.selected(); d.focus == 1 && al != nil && al.Fix != "" {
		return 1
	}
	return 0
}

// fixLine shows the MQSC that prevents the selected alert from recurring
// (its first command; the alert's detail shows them all).
func (d *dashboard) fixLine(c common, w int) string {
	if d.fixLines() == 0 {
		return ""
	}
	al := d.alerts.selected()
	first, _, more := strings.Cut(al.Fix, "\n")
	label := " fix: "
	switch {
	case al.Advice():
		label = " advice: "
	case al.FixFirst > 0:
		// The fix proper, and that another queue is fixed first (R8e).
		cmds := strings.Split(al.Fix, "\n")
		label, first = " fix, after "+strings.Join(firstWords(al.After), ", ")+": ", cmds[len(cmds)-1]
	case more:
		first += "  (+ more: enter)"
	}
	return "\n" + ansi.Truncate(c.Styles().Accent.Render(mqfmt.Sanitize(label+first)), w, "…")
}

// firstWords is each finding's "RULE QUEUE", without its why.
func firstWords(after []string) []string {
	out := make([]string, len(after))
	for i, a := range after {
		out[i], _, _ = strings.Cut(a, ":")
	}
	return out
}

// unlistedErrs names the objects this poll could not inquire that have no
// row to carry the failure (a queue never seen before): "" when none.
func unlistedErrs(c common) string {
	q := c.State().QMgr(c.QMgrName())
	if q.Snap == nil || len(q.Snap.ObjectErrs) == 0 {
		return ""
	}
	var out []string
	for _, e := range q.Snap.ObjectErrs {
		if q.Queues[e.Object] == nil {
			out = append(out, mqfmt.Sanitize(e.Object)+" "+inquireWhy(e.Err))
		}
	}
	switch len(out) {
	case 0:
		return ""
	case 1:
		return "⚠ not inquired: " + out[0]
	}
	return fmt.Sprintf("⚠ %d objects not inquired: %s", len(out), strings.Join(out, "; "))
}
