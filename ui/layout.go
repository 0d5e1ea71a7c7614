package ui

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"

	"github.com/poisonwatch/poisonwatch/model"
	"github.com/poisonwatch/poisonwatch/mqwatch"
	"github.com/poisonwatch/poisonwatch/mqwatch/mqfmt"
)

// bodyHeight is what is left for a screen after header, crumbs and footer.
func (a *App) bodyHeight() int { return max(a.height-3, 1) }

// layout sizes every grid for the current terminal.
func (a *App) layout() {
	h := a.bodyHeight()
	gridH, alertsH, _ := a.dashSplit(h)
	a.dash.grid.SetSize(a.width, gridH)
	a.dash.alerts.SetSize(a.width, alertsH)
	a.queue.grid.SetSize(a.width, h-queueChrome)
	a.triage.grid.SetSize(a.width, h-triageChrome)
	a.audit.grid.SetSize(a.width, h-1)
}

const (
	queueChrome  = 8 // attributes (2) + route panel (6)
	triageChrome = 4 // title + explanation
)

// dashSplit divides the dashboard: queues on top, then trends and alerts
// side by side when wide, stacked when narrow. The queue table takes what its
// rows need and the alerts get the rest, so trouble is never scrolled away.
func (a *App) dashSplit(h int) (grid, alerts, trends int) {
	trends = min(len(a.trendQueues())+1, 6)
	need := a.dash.grid.Rows + 1
	if a.width >= 120 {
		bottom := max(min(h/3, 14), 6, trends)
		if need < h-bottom {
			bottom = h - need
		}
		return h - bottom, bottom, bottom
	}
	// Narrow: the alerts say what is wrong, so they get room first (up to
	// half the screen); the queue table scrolls.
	trends = min(trends, 4)
	alerts = min(max(len(a.current().Alerts)+2, 4), h/2)
	grid = max(min(need, h-trends-alerts), 4)
	alerts = max(h-grid-trends, 2)
	return grid, alerts, trends
}

func (a *App) trendQueues() []*model.QueueState {
	var out []*model.QueueState
	for _, qs := range a.current().SortedQueues() {
		if qs.View.Role == mqwatch.RoleDeadQ {
			out = append([]*model.QueueState{qs}, out...)
		} else if qs.View.Role == mqwatch.RoleBOQ {
			out = append(out, qs)
		}
	}
	return out
}

func (a *App) dashView(h int) string {
	a.dash.grid.Blurred, a.dash.alerts.Blurred = a.dash.focus == 1, a.dash.focus == 0
	gridH, alertsH, trendsH := a.dashSplit(h)
	a.dash.grid.SetSize(a.width, gridH)
	a.dash.alerts.SetSize(a.width, alertsH-1-a.fixLines())
	grid := a.dash.grid.View(&a.st)
	alertTitle := fmt.Sprintf("Alerts (%d)", len(a.current().Alerts))
	if a.dash.focus == 1 {
		alertTitle += " — enter opens the queue"
	}
	alerts := a.section(alertTitle, a.width, a.dash.focus == 1) + "\n" + a.dash.alerts.View(&a.st) + a.fixLine(a.width)
	if a.dash.alerts.Rows == 0 {
		alerts = a.section(alertTitle, a.width, false) + "\n" + a.st.OK.Render(" no alerts: nothing is looping, stuck or filling up")
	}
	if a.width >= 120 {
		tw := a.width * 2 / 5
		a.dash.alerts.SetSize(a.width-tw-1, alertsH-1-a.fixLines())
		alerts = a.section(alertTitle, a.width-tw-1, a.dash.focus == 1) + "\n" + a.dash.alerts.View(&a.st) + a.fixLine(a.width-tw-1)
		if a.dash.alerts.Rows == 0 {
			alerts = a.section(alertTitle, a.width-tw-1, false) + "\n" + a.st.OK.Render(" no alerts")
		}
		trends := a.trendsView(tw, trendsH)
		bottom := lipgloss.JoinHorizontal(lipgloss.Top, fitHeight(trends, alertsH), " ", fitHeight(alerts, alertsH))
		return fitHeight(grid, gridH) + "\n" + bottom
	}
	return fitHeight(grid, gridH) + "\n" + fitHeight(a.trendsView(a.width, trendsH), trendsH) + "\n" + fitHeight(alerts, alertsH)
}

func (a *App) section(title string, w int, focused bool) string {
	st := a.st.Muted
	if focused {
		st = a.st.Title
	}
	line := "─ " + title + " "
	return st.Render(ansi.Truncate(line+strings.Repeat("─", max(w-ansi.StringWidth(line), 0)), w, ""))
}

// trendsView: one line per DEADQ/BOQ: sparkline, depth, arrival rate, forecast.
func (a *App) trendsView(w, h int) string {
	lines := []string{a.section("DEADQ and backout queues", w, false)}
	for _, qs := range a.trendQueues() {
		if len(lines) >= h {
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
		if ok && r >= 0.5 {
			in = "in " + compact(r) + "/m" // arrivals, not net depth change
		}
		// Fixed-width figures keep the sparklines aligned.
		const tailW = 28
		tail := fmt.Sprintf(" %6s %8s %-11s", compact(float64(v.Status.Depth)), in, forecast)
		nameW := min(24, max(w/4, 10))
		spW := max(w-nameW-tailW-1, 4)
		name := fit(mqfmt.Sanitize(v.Info.Name), nameW, false)
		line := name + " " + a.st.Info.Render(sparkline(qs.Depth.Values(), spW)) + a.st.Level(fillLevel(qs.Fill())).Render(tail)
		lines = append(lines, ansi.Truncate(line, w, "…"))
	}
	if len(lines) == 1 {
		lines = append(lines, a.st.Muted.Render(" no DEADQ or BOQ defined"))
	}
	return strings.Join(lines, "\n")
}

func (a *App) alertCell(row, col int) Cell {
	al := a.current().Alerts
	if row >= len(al) {
		return Cell{}
	}
	x := al[row]
	switch col {
	case 0:
		return Cell{Text: strings.ToUpper(x.Severity.String()), Style: levelStyle(&a.st, int(x.Severity))}
	case 1:
		return Cell{Text: x.Rule, Style: &a.st.Muted}
	case 2:
		return Cell{Text: mqfmt.Sanitize(x.Queue)}
	case 3:
		return Cell{Text: mqfmt.Sanitize(x.Text)}
	}
	return Cell{}
}

func (a *App) queueView(h int) string {
	s := &a.queue
	attrs := a.queueAttrs(s.qs)
	grid := s.grid.View(&a.st)
	var focus *mqwatch.FocusView
	if snap := a.current().Snap; snap != nil && snap.Focus != nil && snap.Focus.Queue == a.nav.Top().Queue {
		focus = snap.Focus
	}
	switch {
	case focus != nil && focus.Err != nil && s.msgs.Len() == 0:
		grid = fitHeight(grid, 2) + "\n" + a.st.Danger.Render(" cannot browse this queue: "+mqfmt.Sanitize(focus.Err.Error()))
	case s.msgs.Len() == 0:
		grid = fitHeight(grid, 2) + "\n" + a.st.Muted.Render(" no messages (browsing the first messages of the queue; ctrl+r refreshes)")
	}
	if focus != nil && focus.More && s.qs != nil {
		attrs = strings.Replace(attrs, "\n", a.st.Warning.Render(fmt.Sprintf("  (showing the first %s of %s)", human(int64(len(focus.Messages))), human(int64(s.qs.View.Status.Depth))))+"\n", 1)
	}
	return fitHeight(attrs, 2) + "\n" + fitHeight(grid, h-queueChrome) + "\n" + fitHeight(a.routePanel(), queueChrome-2)
}

// queueAttrs: the attributes and status an operator checks first.
func (a *App) queueAttrs(qs *model.QueueState) string {
	if qs == nil {
		return a.st.Muted.Render(" queue not (yet) seen by the watcher")
	}
	v := qs.View
	i := v.Info
	boq := i.BackoutQName
	if boq == "" {
		boq = "-"
	}
	l1 := fmt.Sprintf(" %s  %s  depth %s/%s  BOTHRESH %d  BOQNAME %s  PUT %s  GET %s",
		a.st.Title.Render(mqfmt.Sanitize(i.Name)), i.Type, human(int64(v.Status.Depth)), human(int64(i.MaxDepth)),
		i.BackoutThresh, mqfmt.Sanitize(boq), enabled(!i.InhibitPut), enabled(!i.InhibitGet))
	l2 := fmt.Sprintf(" IPPROCS %d  OPPROCS %d  UNCOM %d  MAXMSGL %s", v.Status.OpenInput, v.Status.OpenOutput, v.Status.Uncommitted, human(int64(i.MaxMsgLen)))
	if v.Status.Monitored {
		l2 += "  oldest " + age(v.Status.OldestAge)
	} else {
		l2 += "  MONQ off: age/last get unknown"
	}
	if i.BackoutThresh == 0 && v.Role == mqwatch.RoleInput {
		l2 += a.st.Warning.Render("  BOTHRESH 0: poison handling disabled")
	}
	return ansi.Truncate(l1, a.width, "…") + "\n" + ansi.Truncate(a.st.Muted.Render(l2), a.width, "…")
}

func enabled(b bool) string {
	if b {
		return "ENABLED"
	}
	return "DISABLED"
}

func (a *App) triageView(h int) string {
	t := &a.triage
	title := fmt.Sprintf(" %s grouped by %s  (o: change grouping · enter: messages · space: mark group · tab: all messages)",
		a.st.Title.Render(mqfmt.Sanitize(a.nav.Top().Queue)), t.dim)
	grid := t.grid.View(&a.st)
	if t.grid.Rows == 0 {
		grid = fitHeight(grid, 2) + "\n" + a.st.OK.Render(" empty: nothing to triage")
	}
	explain := a.st.Info.Render(" " + mqfmt.Sanitize(t.explain()))
	return ansi.Truncate(title, a.width, "…") + "\n" + fitHeight(grid, h-triageChrome) + "\n\n" + ansi.Truncate(explain, a.width, "…")
}

// fixLines is 1 when the alerts pane has focus and its alert has a fix.
func (a *App) fixLines() int {
	if a.dash.focus == 1 && a.selectedFix() != "" {
		return 1
	}
	return 0
}

// fixLine shows the MQSC that prevents the selected alert from recurring.
func (a *App) fixLine(w int) string {
	if a.fixLines() == 0 {
		return ""
	}
	return "\n" + ansi.Truncate(a.st.Accent.Render(" fix: "+mqfmt.Sanitize(a.selectedFix())), w, "…")
}

// selectedFix is the MQSC that would prevent the alert under the cursor.
func (a *App) selectedFix() string {
	al := a.current().Alerts
	if c := a.dash.alerts.Cursor; c < len(al) {
		return al[c].Fix
	}
	return ""
}
