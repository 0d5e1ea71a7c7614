package ui

import (
	"fmt"
	"strings"
	"time"

	"github.com/charmbracelet/bubbles/progress"
	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"

	"github.com/poisonwatch/poisonwatch/actions/ops"
	"github.com/poisonwatch/poisonwatch/codec/mqfmt"
)

// The running and finished phases of the action dialog: the progress of
// the moves, the check for messages coming back (R10f), the result.

func (d *dialog) progressLines(c common) []string {
	p := d.last
	pct := 0.0
	if p.Total > 0 {
		pct = float64(p.Done+p.Skipped+p.Failed) / float64(p.Total)
	}
	bar := d.prog // a copy: View changes nothing
	bar.Width = max(d.w-4, 10)
	if d.checking() {
		return d.checkLines(c, bar)
	}
	return []string{
		" " + bar.ViewAs(pct),
		fmt.Sprintf(" %s / %s done · %s skipped · %s failed · %s · ETA %s",
			human(int64(p.Done)), human(int64(p.Total)), human(int64(p.Skipped)), human(int64(p.Failed)), fmtRate(p.Rate), age(p.ETA)),
		"",
		c.Styles().Muted.Render(" esc stops: the batch in flight is backed out, nothing is lost"),
	}
}

// checkLines are the check's progress: every message is moved, and the
// bar is the time the check has looked of its window. The dashboard is
// live meanwhile (dialog.holds).
func (d *dialog) checkLines(c common, bar progress.Model) []string {
	p, st := d.last, c.Styles()
	waited := time.Duration(0)
	if !d.checkFrom.IsZero() {
		waited = min(max(c.Opts().Now().Sub(d.checkFrom), 0), d.req.Verify).Truncate(time.Second)
	}
	out := []string{" " + bar.ViewAs(float64(waited)/float64(d.req.Verify))}
	out = append(out, wrapped(lipgloss.NewStyle(), " ", fmt.Sprintf("%s / %s moved · checking whether they come back (R10f): %.0f s of %.0f s",
		human(int64(p.Done)), human(int64(p.Total)), waited.Seconds(), d.req.Verify.Seconds()), d.w)...)
	if qs := c.State().QMgr(d.req.QMgr).Queues[d.req.Queue]; qs != nil {
		// Live, as the header is: what comes back lands here.
		out = append(out, st.Info.Render(fmt.Sprintf(" %s holds %s message(s) now", mqfmt.Sanitize(d.req.Queue), human(int64(qs.View.Status.Depth)))))
	}
	return append(append(out, ""), wrapped(st.Muted, " ", "live updates go on meanwhile; esc ends the check: what was moved stays moved", d.w)...)
}

// pathLines says where a file is in full: a path wider than the terminal
// wraps at its slashes instead of being cut, since the operator needs all of
// it to find the file.
func pathLines(w int, style lipgloss.Style, label, path, note string) []string {
	text := ansi.Wrap(label+mqfmt.Sanitize(path)+note, max(w-4, 20), "/ ")
	lines := strings.Split(text, "\n")
	for i, l := range lines {
		if i > 0 {
			l = "  " + l
		}
		lines[i] = style.Render(" " + l)
	}
	return lines
}

func (d *dialog) doneLines(c common) []string {
	r := d.result
	st := c.Styles()
	out := []string{fmt.Sprintf(" done: %s · skipped %s · failed %s", human(int64(r.Done)), human(int64(r.Skipped)), human(int64(r.Failed)))}
	if r.Skipped+r.Failed > 0 {
		// Why each message was skipped or failed, counted, not only in the
		// audit file.
		out = append(out, outcomeLines(d.w, ops.OpPlan{Request: r.Plan.Request, Items: r.Items})...)
	}
	if r.Stopped != "" {
		out = append(out, st.Warning.Render(" stopped: "+mqfmt.Sanitize(r.Stopped)))
	}
	if v := r.Verify; v != nil {
		style := st.OK
		if v.CameBack > 0 {
			style = st.Danger
		}
		for _, l := range strings.Split(ansi.Wrap("check: "+mqfmt.Sanitize(v.Sentence()), max(d.w-4, 20), " "), "\n") {
			out = append(out, style.Render(" "+l))
		}
		if v.CameBack > 0 {
			out = append(out, st.Warning.Render(" a requeue loop alert (R10f) names this run until its cause is fixed"))
		}
	}
	if d.err != nil {
		out = append(out, st.Danger.Render(" "+mqfmt.Sanitize(d.err.Error())))
	}
	if d.req.Op == ops.OpExport && d.err == nil {
		out = append(out, pathLines(d.w, st.OK, "exported to ", d.req.File, "")...)
	}
	if r.AuditFile != "" {
		out = append(out, pathLines(d.w, st.Muted, "audit: ", r.AuditFile, "")...)
	}
	if r.ArchiveFile != "" {
		out = append(out, pathLines(d.w, st.Muted, "archive: ", r.ArchiveFile, " (poisonwatch import restores it)")...)
	}
	return append(out, "", st.Muted.Render(" enter or esc closes"))
}
