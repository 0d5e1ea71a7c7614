package report

import (
	_ "embed"
	"fmt"
	"html/template"
	"io"
	"strings"
	"time"

	"github.com/poisonwatch/poisonwatch/codec/mqfmt"
	"github.com/poisonwatch/poisonwatch/incident/record"
	"github.com/poisonwatch/poisonwatch/model"
)

//go:embed report.html.tmpl
var htmlTemplate string

var funcs = template.FuncMap{
	"clock": func(t time.Time) string {
		if t.IsZero() {
			return ""
		}
		return t.Format("15:04:05")
	},
	"day":      func(t time.Time) string { return t.Format("Mon 2 Jan 2006") },
	"span":     span,
	"lasted":   lasted,
	"safe":     mqfmt.Sanitize,
	"action":   record.ActionSentence,
	"fix":      safeLines,
	"presence": record.PresenceSentence,
}

// safeLines sanitises each line of a multi-line text (an MQSC fix) and
// keeps the line breaks.
func safeLines(text string) string {
	lines := strings.Split(text, "\n")
	for i, l := range lines {
		lines[i] = mqfmt.Sanitize(l)
	}
	return strings.Join(lines, "\n")
}

var page = template.Must(template.New("report").Funcs(funcs).Parse(htmlTemplate))

// span is how long from a to b, "-" when b is zero.
func span(a, b time.Time) string {
	if b.IsZero() {
		return "still firing"
	}
	return model.Span(b.Sub(a))
}

// lasted is how long an alert fired: to its clear, or "12m so far" at
// the report's end.
func lasted(start, cleared, end time.Time) string {
	if cleared.IsZero() {
		return model.Span(end.Sub(start)) + " so far"
	}
	return model.Span(cleared.Sub(start))
}

// HTML writes the report as one self-contained page.
func (r *Report) HTML(w io.Writer) error {
	return page.Execute(w, struct {
		*Report
		Charts []Chart
	}{r, r.Charts()})
}

// Markdown writes the report as Markdown (no charts: their figures are in
// the HTML report).
func (r *Report) Markdown(w io.Writer) error {
	s := md // everything copied from the recording
	p := func(format string, a ...any) { fmt.Fprintf(w, format, a...) }
	p("# Incident report: %s\n\n", s(strings.Join(r.QMgrs, ", ")))
	p("%s, %s to %s (recorded by %s).\n\n", r.From.Format("Mon 2 Jan 2006"), r.From.Format("15:04:05"), r.To.Format("15:04:05"), s(r.Source))
	p("## Alerts\n\n")
	if len(r.Alerts) == 0 {
		p("No alert fired.\n\n")
	} else {
		p("| Started | Queue manager | Rule | Queue | Severity | Acknowledged | Cleared | Lasted | What |\n|---|---|---|---|---|---|---|---|---|\n")
		for _, a := range r.Alerts {
			p("| %s | %s | %s | %s | %s | %s | %s | %s | %s |\n", a.Start.Format("15:04:05"), s(a.QMgr), s(a.Rule), s(a.Queue), s(a.Severity),
				md(a.Ack.Line()), funcs["clock"].(func(time.Time) string)(a.Cleared), lasted(a.Start, a.Cleared, r.To), md(a.Text))
		}
		p("\n")
	}
	p("## Operator actions\n\n")
	if len(r.Actions) == 0 {
		p("No action was run.\n\n")
	}
	for _, a := range r.Actions {
		p("- %s  \n  audit: %s\n", md(record.ActionSentence(a)), mdCode(a.AuditID))
	}
	if len(r.Presence) > 0 {
		p("\n## Who was in the war room\n\n")
		for _, pr := range r.Presence {
			p("- %s\n", md(record.PresenceSentence(pr)))
		}
	}
	p("\n## Dead letters still on the DEADQ at %s\n\n", r.To.Format("15:04:05"))
	if len(r.Remaining) == 0 {
		p("None.\n\n")
	} else {
		p("| Queue manager | Messages | Reason | Destination | Oldest |\n|---|---|---|---|---|\n")
		for _, g := range r.Remaining {
			p("| %s | %d | %s: %s | %s | %s |\n", s(g.QMgr), g.Count, s(g.Reason), md(g.Explain), md(g.Dest), g.Oldest.Format("15:04:05"))
		}
		p("\n")
	}
	p("## Configuration findings\n\n")
	if len(r.Findings) == 0 {
		p("None.\n")
	}
	for _, f := range r.Findings {
		p("- **%s %s %s** (%s): %s\n", s(f.QMgr), s(f.Rule), s(f.Queue), s(f.Severity), md(f.Text))
		if f.Fix != "" {
			fix := safeLines(f.Fix)
			p("\n  %s\n  %s\n  %s\n", mdFence(fix), strings.ReplaceAll(fix, "\n", "\n  "), mdFence(fix))
		}
	}
	return nil
}
