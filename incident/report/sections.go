package report

import (
	"cmp"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode"

	"github.com/poisonwatch/poisonwatch/internal/words"
	"github.com/poisonwatch/poisonwatch/model"
)

// section is one part of the report. HTML and Markdown both walk
// Report.sections, so the two formats say the same things in the same
// order; a new part (a timeline first) is one more entry there, a
// template of its id in report.html.tmpl and a Markdown function.
type section struct {
	id    string // its anchor, and the name of its HTML template
	title string
	holds string // what it holds, as `poisonwatch report` says on writing it
	md    func(r *Report, p printer)
}

// printer writes Markdown.
type printer func(format string, a ...any)

// sections are the report's parts in the order they are read: what
// fired, how the queues moved, what was done and by whom, what is left,
// what to change, and what the rules cited mean.
func (r *Report) sections() []section {
	firing := 0
	for _, a := range r.Alerts {
		if a.Cleared.IsZero() {
			firing++
		}
	}
	secs := []section{
		{"timeline", "Timeline", words.Count(len(r.Timeline), "moment"), (*Report).mdTimeline},
		{"alerts", "Alerts: started, acknowledged, cleared",
			fmt.Sprintf("%s, %d still firing at the end", words.Count(len(r.Alerts), "alert"), firing), (*Report).mdAlerts},
		{"queues", "The queues over the incident", r.chartsHold(), (*Report).mdQueues},
		{"actions", "Operator actions", words.Count(len(r.Actions), "act"), (*Report).mdActions},
		{"room", "Who was in the war room", peopleCount(len(r.People)), (*Report).mdRoom},
		{"remaining", "Dead letters still on the DEADQ at " + r.To.Format("15:04:05"), r.remainingHold(), (*Report).mdRemaining},
		{"findings", "Configuration findings and their MQSC fixes", words.Count(len(r.Findings), "finding"), (*Report).mdFindings},
		{"rules", "What the rules cited say", words.Count(len(r.rulesCited()), "rule"), (*Report).mdRules},
	}
	return slices.DeleteFunc(secs, func(s section) bool {
		return (s.id == "room" && len(r.People) == 0) || (s.id == "rules" && len(r.rulesCited()) == 0)
	})
}

// Outline is each section's title and what it holds, for the line
// `poisonwatch report` prints after writing the file.
func (r *Report) Outline() []string {
	var out []string
	for _, s := range r.sections() {
		out = append(out, s.title+": "+s.holds)
	}
	return out
}

// peopleCount is a count of people as a sentence says it.
func peopleCount(n int) string {
	if n == 1 {
		return "1 person"
	}
	return words.Commas(int64(n)) + " people"
}

func (r *Report) chartsHold() string {
	n := 0
	for _, c := range r.chartSpecs() {
		if len(c.lines) > 0 {
			n++
		}
	}
	s := words.Count(n, "chart")
	if len(r.Gaps) > 0 {
		s += ", " + words.Count(len(r.Gaps), "gap") + " with no figures"
	}
	return s
}

func (r *Report) remainingHold() string {
	n := 0
	for _, g := range r.Remaining {
		n += g.Count
	}
	return words.Count(n, "message") + " in " + words.Count(len(r.Remaining), "group")
}

// RuleLine is a rule the report cites and its one-line text, so the page
// stands on its own, without the repository's docs beside it.
type RuleLine struct{ Rule, Text string }

// rulesCited are the rules the alerts and findings cite that have a text,
// in the rules' order (R2 before R10).
func (r *Report) rulesCited() []RuleLine {
	seen := map[string]bool{}
	var out []RuleLine
	add := func(rule string) {
		if t := model.RuleText(rule); t != "" && !seen[rule] {
			seen[rule] = true
			out = append(out, RuleLine{rule, t})
		}
	}
	for _, a := range r.Alerts {
		add(a.Rule)
	}
	for _, f := range r.Findings {
		add(f.Rule)
	}
	slices.SortFunc(out, func(a, b RuleLine) int { return compareRules(a.Rule, b.Rule) })
	return out
}

// compareRules orders "R2c" before "R10a": by number, then letter.
func compareRules(a, b string) int {
	num := func(s string) (int, string) {
		s = strings.TrimPrefix(s, "R")
		i := strings.IndexFunc(s, func(c rune) bool { return !unicode.IsDigit(c) })
		if i < 0 {
			i = len(s)
		}
		n, _ := strconv.Atoi(s[:i])
		return n, s[i:]
	}
	an, as := num(a)
	bn, bs := num(b)
	return cmp.Or(cmp.Compare(an, bn), cmp.Compare(as, bs))
}
