package report

import (
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/poisonwatch/poisonwatch/internal/words"
)

// Markdown writes the report as Markdown: the same sections as the HTML,
// with each chart's lines as figures (first, peak, last) in place of the
// drawing.
func (r *Report) Markdown(w io.Writer) error {
	var err error
	p := printer(func(format string, a ...any) {
		if err == nil {
			_, err = fmt.Fprintf(w, format, a...)
		}
	})
	p("# Incident report: %s\n\n", md(strings.Join(r.QMgrs, ", ")))
	p("%s, %s to %s (recorded by poisonwatch %s).\n\n", r.From.Format("Mon 2 Jan 2006"), r.From.Format("15:04:05"), r.To.Format("15:04:05"), md(r.Source))
	p("%s · %s · %s left · %s\n", words.Count(len(r.Alerts), "alert"), words.Count(len(r.Actions), "operator action"),
		words.Count(len(r.Remaining), "dead-letter group"), words.Count(len(r.Findings), "configuration finding"))
	for _, s := range r.sections() {
		p("\n## %s\n\n", s.title)
		s.md(r, p)
	}
	return err
}

func (r *Report) mdAlerts(p printer) {
	if len(r.Alerts) == 0 {
		p("No alert fired.\n")
		return
	}
	p("| Started | Queue manager | Rule | Queue | Severity | Acknowledged | Cleared | Lasted | What |\n|---|---|---|---|---|---|---|---|---|\n")
	for _, a := range r.Alerts {
		cleared := "still firing"
		if !a.Cleared.IsZero() {
			cleared = a.Cleared.Format("15:04:05")
		}
		what := md(a.Text)
		if a.Flaps > 0 {
			what += fmt.Sprintf(" (flapped %d×)", a.Flaps)
		}
		p("| %s | %s | %s | %s | %s | %s | %s | %s | %s |\n", a.Start.Format("15:04:05"), md(a.QMgr), md(a.Rule), md(a.Queue), md(a.Severity),
			md(a.Ack.Line()), cleared, lasted(a.Start, a.Cleared, r.To), what)
	}
}

func (r *Report) mdQueues(p printer) {
	for _, c := range r.chartSpecs() {
		p("### %s\n\n", c.title)
		if len(c.lines) == 0 {
			p("%s\n\n", c.empty)
			continue
		}
		p("| Queue manager | %s | First | Peak | Last |\n|---|---|---|---|---|\n", c.lineName)
		for _, k := range sortedKeys(c.lines, r.QMgrs) {
			pts := c.lines[k]
			peak := pts[0]
			for _, pt := range pts {
				if pt.V > peak.V {
					peak = pt
				}
			}
			last := pts[len(pts)-1]
			p("| %s | %s | %s at %s | %s at %s | %s at %s |\n", md(k.QMgr), md(c.label(k)), figure(pts[0].V, c.unit), pts[0].T.Format("15:04:05"),
				figure(peak.V, c.unit), peak.T.Format("15:04:05"), figure(last.V, c.unit), last.T.Format("15:04:05"))
		}
		p("\n")
		if c.note != "" {
			p("%s\n\n", c.note)
		}
	}
	for _, g := range r.gapLines() {
		p("- %s\n", md(g))
	}
	if len(r.Gaps) > 0 {
		p("\n")
	}
	p("The charts of these figures are in the HTML report (`--format html`).\n")
}

func (r *Report) mdActions(p printer) {
	if len(r.Actions) == 0 {
		p("No action was run.\n")
		return
	}
	for _, a := range r.Actions {
		v := actionView(a)
		p("- **%s** %s: %s  \n  %s", v.When, md(v.Who), md(v.What), md(v.Outcome))
		for _, c := range v.Changes {
			p("  \n  %s", mdCode(c))
		}
		if v.Audit != "" {
			p("  \n  audit: %s", mdCode(v.Audit))
		}
		p("\n")
	}
}

func (r *Report) mdTimeline(p printer) {
	if len(r.Timeline) == 0 {
		p("Nothing fired and nothing was done in this span.\n")
		return
	}
	for _, m := range r.Timeline {
		p("- **%s** %s", m.At.Format("15:04:05"), md(m.What))
		for _, d := range m.Detail {
			p("  \n  %s", mdCode(d))
		}
		p("\n")
	}
}

func (r *Report) mdRoom(p printer) {
	p("| Who | Role | Joined | Left |\n|---|---|---|---|\n")
	for _, pr := range r.People {
		joined, left := pr.joinedLeft(", ")
		p("| %s | %s | %s | %s |\n", md(pr.User), md(pr.Role()), joined, left)
	}
}

func (r *Report) mdRemaining(p printer) {
	if len(r.Remaining) == 0 {
		p("None: the DEADQ was empty.\n")
		return
	}
	p("| Queue manager | Messages | Reason | Destination | Oldest |\n|---|---|---|---|---|\n")
	for _, g := range r.Remaining {
		p("| %s | %d | %s: %s | %s | %s |\n", md(g.QMgr), g.Count, md(g.Reason), md(g.Explain), md(g.Dest), g.Oldest.Format("15:04:05"))
	}
}

func (r *Report) mdFindings(p printer) {
	if len(r.Findings) == 0 {
		p("None.\n")
		return
	}
	for _, f := range r.Findings {
		p("- **%s** (%s): %s\n", md(strings.Join(slices.DeleteFunc([]string{f.QMgr, f.Rule, f.Queue}, func(s string) bool { return s == "" }), " ")),
			md(f.Severity), md(f.Text))
		if f.Fix != "" {
			fix := safeLines(f.Fix)
			p("\n  %s\n  %s\n  %s\n", mdFence(fix), strings.ReplaceAll(fix, "\n", "\n  "), mdFence(fix))
		} else {
			p("\n  %s\n", noFix)
		}
	}
}

func (r *Report) mdRules(p printer) {
	for _, rl := range r.rulesCited() {
		p("- **%s**: %s\n", md(rl.Rule), md(rl.Text))
	}
}

// noFix is said of a finding no MQSC command fixes on its own.
const noFix = "No MQSC command fixes this on its own: what the rule asks is under “What the rules cited say”."

// figure is a chart's value as the table says it.
func figure(v float64, unit string) string {
	if unit == "%" {
		return fmt.Sprintf("%.0f%%", v)
	}
	return fmt.Sprintf("%.0f", v)
}
