package report

import (
	"bytes"
	_ "embed"
	"html/template"
	"io"
	"strings"
	"time"

	"github.com/poisonwatch/poisonwatch/codec/mqfmt"
	"github.com/poisonwatch/poisonwatch/internal/words"
	"github.com/poisonwatch/poisonwatch/model"
)

//go:embed report.html.tmpl
var htmlTemplate string

// fontStack is the page's font, and its charts': the charts' text is set
// in it too, so a figure's labels read as the page around them.
const fontStack = `system-ui, -apple-system, "Segoe UI", Roboto, "Liberation Sans", sans-serif`

var funcs = template.FuncMap{
	"clock": func(t time.Time) string {
		if t.IsZero() {
			return ""
		}
		return t.Format("15:04:05")
	},
	"day":      func(t time.Time) string { return t.Format("Mon 2 Jan 2006") },
	"lasted":   lasted,
	"safe":     mqfmt.Sanitize,
	"action":   actionView,
	"fix":      safeLines,
	"ruleText": model.RuleText,
	"noun":     words.Noun,
	"sev": func(s string) string {
		if s == "crit" || s == "warn" {
			return s
		}
		return "muted"
	},
}

var page = template.Must(template.New("report").Funcs(funcs).Parse(htmlTemplate))

// safeLines sanitises each line of a multi-line text (an MQSC fix) and
// keeps the line breaks.
func safeLines(text string) string {
	lines := strings.Split(text, "\n")
	for i, l := range lines {
		lines[i] = mqfmt.Sanitize(l)
	}
	return strings.Join(lines, "\n")
}

// lasted is how long an alert fired: to its clear, or "12m so far" at
// the report's end.
func lasted(start, cleared, end time.Time) string {
	if cleared.IsZero() {
		return model.Span(end.Sub(start)) + " so far"
	}
	return model.Span(cleared.Sub(start))
}

// pageData is what the page's templates read.
type pageData struct {
	*Report
	Charts   []Chart
	Rules    []RuleLine
	NoFix    string
	GapLines []string
	Font     template.CSS // fontStack, a constant
	Sections []htmlSection
}

// htmlSection is one section rendered by its own template.
type htmlSection struct {
	ID, Title string
	Body      template.HTML // the output of the section's template
}

// HTML writes the report as one self-contained page: its sections, each
// rendered by the template of its id.
func (r *Report) HTML(w io.Writer) error {
	d := pageData{Report: r, Charts: r.Charts(), Rules: r.rulesCited(), NoFix: noFix, GapLines: r.gapLines(), Font: template.CSS(fontStack)}
	for _, s := range r.sections() {
		var b bytes.Buffer
		if err := page.ExecuteTemplate(&b, s.id, d); err != nil {
			return err
		}
		d.Sections = append(d.Sections, htmlSection{ID: s.id, Title: s.title, Body: template.HTML(b.String())})
	}
	return page.Execute(w, d)
}

// joinedLeft are a person's joins and leaves, each list joined by sep.
func (p Person) joinedLeft(sep string) (joined, left string) {
	var js, ls []string
	for _, s := range p.Stints {
		js = append(js, s.Joined.Format("15:04:05"))
		if s.Left.IsZero() {
			ls = append(ls, "still there")
		} else {
			ls = append(ls, s.Left.Format("15:04:05"))
		}
	}
	return strings.Join(js, sep), strings.Join(ls, sep)
}

// gapLines say when a queue manager's figures are missing, and why.
func (r *Report) gapLines() []string {
	var out []string
	for _, g := range r.Gaps {
		why := "no poll was recorded"
		if g.NotConnect {
			why = "the queue manager was not connected"
		}
		out = append(out, g.QMgr+": no figures from "+g.From.Format("15:04:05")+" to "+g.To.Format("15:04:05")+
			" ("+model.Span(g.To.Sub(g.From))+": "+why+"); the lines break there.")
	}
	return out
}
