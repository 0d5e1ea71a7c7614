package ui

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/x/ansi"

	"github.com/poisonwatch/poisonwatch/actions/dlqrules"
	"github.com/poisonwatch/poisonwatch/codec/mqfmt"
	"github.com/poisonwatch/poisonwatch/internal/words"
	"github.com/poisonwatch/poisonwatch/model"
)

// groupRule is what the loaded rules table does to one triage group
// (model.GroupRule), with the words the list shows for it.
type groupRule struct {
	*model.GroupRule
	// label is the RULE column: "#3 FWD → ORDERS.IN", "no rule"; a '?'
	// after the number says some messages' rule depends on fields the list
	// lacks, "+n" that n other rules (or none) take part of the group.
	label string
	// explain is the line under the list for the group under the cursor.
	explain string
	// fails is set when the main verdict is a failure or a loop back.
	fails bool
}

// matchGroups is the loaded table's match of the DEADQ's groups
// (model.GroupRules), described again only when it changed.
func (r *rulesTable) matchGroups(opt *Options, t *triageScreen) map[model.GroupKey]*groupRule {
	if r == nil || !t.isDLQ || t.q == nil || t.q.Snap == nil {
		return nil
	}
	inv := t.q.Snap.Inventories[t.loc.Queue]
	p := r.predictionOf(t.loc.QMgr, t.loc.Queue)
	byKey, changed := t.ruleCache.Match(r.t, inv, t.dim, p)
	if !changed && t.rules != nil {
		return t.rules
	}
	out := make(map[model.GroupKey]*groupRule, len(byKey))
	for k, gr := range byKey {
		g := &groupRule{GroupRule: gr}
		g.describe(r.t, t.q.Snap.QMgr.Name, pendingOutcome(opt, nil, p), p)
		out[k] = g
	}
	return out
}

// describe fills the label and the line under the list from the rule most
// messages meet and its most common predicted verdict, in the preview's
// words; pending says why there is no verdict yet.
func (g *groupRule) describe(tab *dlqrules.Table, qm, pending string, p *model.Prediction) {
	gm := &g.Match
	others := len(gm.Counts) - 1
	share := fmt.Sprintf(" · %s of %s", human(int64(gm.Counts[gm.Rule])), words.Count(g.Count, "message"))
	if others > 0 {
		share += fmt.Sprintf(", the rest by %s or none", words.Count(others, "other rule"))
	}
	if gm.Uncertain > 0 {
		verb := "depend"
		if gm.Uncertain == 1 {
			verb = "depends"
		}
		share += fmt.Sprintf("; %s %s on fields the list lacks (open a message to be sure)", human(int64(gm.Uncertain)), verb)
	}
	if gm.Rule < 0 {
		g.label = "no rule"
		g.explain = "rules: no rule matches: the messages stay on the DEADQ" + share
		return
	}
	v, n, rest := g.MainVerdict(p)
	g.fails = n > 0 && v.Fails()
	g.label = g.ruleLabel(tab, qm, g.fails)
	if n == 0 {
		g.explain = "rules: " + tab.Rules[gm.Rule].Name() + ": " + pending + share
		return
	}
	g.explain = "rules: " + tab.ExplainVerdict(v) + share
	if rest > 0 {
		g.explain += fmt.Sprintf("; %s of them with other outcomes", human(int64(rest)))
	}
	if g.Unpredicted > 0 {
		g.explain += fmt.Sprintf("; %s new, not predicted yet", human(int64(g.Unpredicted)))
	}
}

// ruleLabel is the RULE column of the group's main rule, resolved for one
// of its messages: "#1 FWD → INVOICE.IN", "#2? RETRY → AUDIT.IN (QM2) +1";
// "✗" after the action when its predicted outcome is a failure.
func (g *groupRule) ruleLabel(tab *dlqrules.Table, qm string, fails bool) string {
	gm := &g.Match
	r := &tab.Rules[gm.Rule]
	f := dlqrules.FactsOfSummary(g.First[gm.Rule])
	x := r.Resolve(&f, qm)
	label := "#" + itoa(r.Number)
	if gm.Uncertain > 0 {
		label += "?"
	}
	label += " " + string(r.Action)
	if fails {
		label += " ✗"
	}
	switch {
	case x.Skip != "":
		label += " (skipped)"
	case x.Target != "" && x.TargetQMgr != "":
		label += " → " + x.Target + " (" + x.TargetQMgr + ")"
	case x.Target != "":
		label += " → " + x.Target
	}
	if others := len(gm.Counts) - 1; others > 0 {
		label += fmt.Sprintf(" +%d", others)
	}
	return label
}

// ruleOf is the loaded table's verdict on a group, nil without a table.
func (t *triageScreen) ruleOf(g *model.Group) *groupRule {
	if t.rules == nil {
		return nil
	}
	return t.rules[g.Key]
}

// markedOrAll is the marked messages of the queue, else all of
// its messages, class by class.
func (t *triageScreen) markedOrAll(c common) []model.MsgRun {
	if sel := c.Session().marksOn(t.loc.Queue); sel != nil {
		return model.MarkedRuns(sel)
	}
	return model.ClassRuns(t.q.Snap.Inventories[t.loc.Queue])
}

// chrome is the lines around the list: two more for the rule line, which
// wraps once so that the outcome fits at 80 columns.
func (t *triageScreen) chrome() int {
	n := triageChrome + explainHeight(t.w) - 1 + t.agesLines()
	if t.rules != nil {
		n += ruleLines
	}
	if t.scan() != nil {
		n++
	}
	return n
}

// ruleLines is the height of the rule line under the list.
const ruleLines = 2

func (t *triageScreen) ruleCell(g *model.Group) Cell {
	r := t.ruleOf(g)
	switch {
	case r == nil || r.Match.Rule < 0:
		return Cell{Text: "no rule", Style: &t.st.Muted}
	case r.Match.Uncertain > 0:
		return Cell{Text: mqfmt.Sanitize(r.label), Style: &t.st.Warning}
	}
	return Cell{Text: mqfmt.Sanitize(r.label), Style: &t.st.Info}
}

// ruleLine is the rule of the group under the cursor and what it would do,
// over two lines (the second cut to fit), in amber when the engine
// predicts that it would fail.
func (t *triageScreen) ruleLine(c common, w int) string {
	tab := c.Session().rules
	if t.rules == nil || tab == nil {
		return ""
	}
	st := c.Styles()
	g := t.selected()
	if g == nil || t.ruleOf(g) == nil {
		return "\n" + fitHeight(st.Muted.Render(ansi.Truncate(" rules: "+mqfmt.Sanitize(tab.path), w, "…")), ruleLines)
	}
	r := t.ruleOf(g)
	style := st.Info
	if r.fails {
		style = st.Warning
	}
	lines := strings.Split(ansi.Wrap(mqfmt.Sanitize(r.explain), max(w-2, 10), " "), "\n")
	if len(lines) > ruleLines {
		lines[ruleLines-1] = ansi.Truncate(strings.Join(lines[ruleLines-1:], " "), max(w-2, 10), "…")
		lines = lines[:ruleLines]
	}
	for i, l := range lines {
		lines[i] = style.Render(" " + l)
	}
	return "\n" + fitHeight(strings.Join(lines, "\n"), ruleLines)
}

// writeRulesOff says why W does nothing here.
func (t *triageScreen) writeRulesOff() string {
	switch {
	case t.noFiles != "":
		return t.noFiles
	case !t.isDLQ:
		return "rules tables are for the dead-letter queue (runmqdlq reads only MQDLH messages)"
	case len(t.groups) == 0:
		return "no groups to write rules for"
	}
	return ""
}
