package ui

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/charmbracelet/x/ansi"

	"github.com/poisonwatch/poisonwatch/actions/dlqrules"
	"github.com/poisonwatch/poisonwatch/model"
	"github.com/poisonwatch/poisonwatch/mqwatch"
	"github.com/poisonwatch/poisonwatch/mqwatch/mqfmt"
)

// groupRule is what the loaded rules table does to one triage group.
type groupRule struct {
	match dlqrules.GroupMatch
	// label is the RULE column: "#3 FWD → ORDERS.IN", "no rule"; a '?'
	// after the number says some messages' rule depends on fields the list
	// lacks, "+n" that n other rules (or none) take part of the group.
	label string
	// explain is the line under the list for the group under the cursor.
	explain string
	count   int
	// outcomes count the messages per predicted verdict (an index in the
	// prediction's distinct verdicts); unpredicted those that have none
	// yet (new arrivals).
	outcomes    map[int32]int
	unpredicted int
	// first is a message of each rule, to resolve the & names with: the
	// first in queue order (at firstAt).
	first   map[int]*mqwatch.Summary
	firstAt map[int]int
	// fails is set when the main verdict is a failure or a loop back.
	fails bool
}

// groupRules caches the match of every group: it is worked out again only
// when the table, the DEADQ's inventory, the grouping or the prediction
// changes, not on each key. A summary's rule depends only on its class (the
// facts a rule can see in a summary are all class facts), so a table is
// matched once per class, however many messages the class has; a
// predicted verdict is the message's own.
type groupRules struct {
	tab   *dlqrules.Table
	inv   *mqwatch.Inventory
	dim   model.Dim
	gen   int // the prediction's
	byKey map[model.GroupKey]*groupRule
}

// matchGroups matches the DEADQ's messages against the loaded table, class
// by class (nothing is copied), adds each class's messages to its group, and
// counts each group's predicted outcomes.
func (a *App) matchGroups(t *triageScreen) map[model.GroupKey]*groupRule {
	if a.rules == nil || !t.isDLQ || t.q == nil || t.q.Snap == nil {
		return nil
	}
	c := &t.ruleCache
	inv := t.q.Snap.Inventories[t.loc.Queue]
	p := a.predictionOf(t.loc.QMgr, t.loc.Queue)
	gen := 0
	if p != nil {
		gen = p.gen
	}
	if c.tab == a.rules.t && c.inv == inv && c.dim == t.dim && c.gen == gen && c.byKey != nil {
		return c.byKey
	}
	tab := a.rules.t
	classes := model.TallyClasses(inv)
	keys := model.ClassKeys(inv, t.dim)
	matches := make([]dlqrules.Match, len(classes))
	out := map[model.GroupKey]*groupRule{}
	for id, ct := range classes {
		if ct.Count == 0 {
			continue
		}
		m := inv.At(ct.First)
		matches[id] = tab.MatchSummary(m)
		matches[id].Why = "" // not shown per message
		g := out[keys[id]]
		if g == nil {
			g = &groupRule{match: dlqrules.NewGroupMatch(), outcomes: map[int32]int{}, first: map[int]*mqwatch.Summary{},
				firstAt: map[int]int{}}
			out[keys[id]] = g
		}
		if at, ok := g.firstAt[matches[id].Rule]; !ok || ct.First < at {
			g.first[matches[id].Rule], g.firstAt[matches[id].Rule] = m, ct.First
		}
		if p == nil || matches[id].Rule < 0 {
			g.add(matches[id], -1, ct.Count)
		}
	}
	if p != nil {
		countVerdicts(inv, p, matches, keys, out)
	}
	for _, g := range out {
		g.describe(tab, t.q.Snap.QMgr.Name, a.pendingOutcome(nil, p), p)
	}
	*c = groupRules{tab: tab, inv: inv, dim: t.dim, gen: gen, byKey: out}
	return out
}

// countVerdicts adds the messages that meet a rule to their groups with
// their predicted verdicts: per message, since a verdict is the message's.
func countVerdicts(inv *mqwatch.Inventory, p *prediction, matches []dlqrules.Match, keys []model.GroupKey, out map[model.GroupKey]*groupRule) {
	type classVerdict struct {
		id int
		v  int32
	}
	n := map[classVerdict]int{}
	for i := 0; i < inv.Len(); i++ {
		id := inv.ClassID(i)
		if rule := matches[id].Rule; rule >= 0 {
			n[classVerdict{id, p.index(inv.Key(i), rule)}]++
		}
	}
	for cv, k := range n {
		out[keys[cv.id]].add(matches[cv.id], cv.v, k)
	}
}

// add counts n messages with one match and predicted verdict (-1: none).
func (g *groupRule) add(m dlqrules.Match, verdict int32, n int) {
	g.match.AddN(m, n)
	g.count += n
	switch {
	case m.Rule < 0:
	case verdict < 0:
		g.unpredicted += n
	default:
		g.outcomes[verdict] += n
	}
}

// index is the message's verdict in the prediction when it is for rule,
// -1 when there is none (no prediction yet, a new message).
func (p *prediction) index(k mqwatch.Key, rule int) int32 {
	if p == nil {
		return -1
	}
	if j, ok := p.verdicts[k]; ok && p.distinct[j].Rule == rule {
		return j
	}
	return -1
}

// describe fills the label and the line under the list from the rule most
// messages meet and its most common predicted verdict, in the preview's
// words; pending says why there is no verdict yet.
func (g *groupRule) describe(tab *dlqrules.Table, qm, pending string, p *prediction) {
	gm := &g.match
	others := len(gm.Counts) - 1
	share := fmt.Sprintf(" · %s of %s", human(int64(gm.Counts[gm.Rule])), countOf(g.count, "message"))
	if others > 0 {
		share += fmt.Sprintf(", the rest by %s or none", countOf(others, "other rule"))
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
	v, n, rest := g.mainVerdict(p)
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
	if g.unpredicted > 0 {
		g.explain += fmt.Sprintf("; %s new, not predicted yet", human(int64(g.unpredicted)))
	}
}

// ruleLabel is the RULE column of the group's main rule, resolved for one
// of its messages: "#1 FWD → INVOICE.IN", "#2? RETRY → AUDIT.IN (QM2) +1";
// "✗" after the action when its predicted outcome is a failure.
func (g *groupRule) ruleLabel(tab *dlqrules.Table, qm string, fails bool) string {
	gm := &g.match
	r := &tab.Rules[gm.Rule]
	f := dlqrules.FactsOfSummary(g.first[gm.Rule])
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

// mainVerdict is the most common verdict of the messages meeting the
// group's main rule, how many share it and how many have another.
func (g *groupRule) mainVerdict(p *prediction) (best *dlqrules.Verdict, n, rest int) {
	total := 0
	for j, c := range g.outcomes {
		v := &p.distinct[j]
		if v.Rule != g.match.Rule {
			continue
		}
		total += c
		if c > n || c == n && v.String() < best.String() {
			best, n = v, c
		}
	}
	return best, n, total - n
}

// countOf is "1 message", "3 messages", the number shortened as the lists
// shorten it.
func countOf(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return human(int64(n)) + " " + word + "s"
}

// ruleOf is the loaded table's verdict on a group, nil without a table.
func (t *triageScreen) ruleOf(g *model.Group) *groupRule {
	if t.rules == nil {
		return nil
	}
	return t.rules[g.Key]
}

// msgRun is n messages whose rule facts are s's, dead-lettered between
// oldest and newest; the first of them is at position first.
type msgRun struct {
	s              mqwatch.Summary
	n, first       int
	oldest, newest time.Time
}

// markedOrAll is the marked messages of the queue one by one, else all of
// its messages class by class (their rule facts are class facts), in the
// order of each class's first message.
func (a *App) markedOrAll(t *triageScreen) []msgRun {
	if a.sel.Len() > 0 && a.selQueue == t.loc.Queue {
		items := a.sel.Items()
		out := make([]msgRun, len(items))
		for i := range items {
			q := items[i].QueuedAt()
			out[i] = msgRun{s: items[i], n: 1, first: i, oldest: q, newest: q}
		}
		return out
	}
	inv := t.q.Snap.Inventories[t.loc.Queue]
	var out []msgRun
	for _, c := range model.TallyClasses(inv) {
		if c.Count > 0 {
			out = append(out, msgRun{s: *inv.At(c.First), n: c.Count, first: c.First, oldest: c.Oldest, newest: c.Newest})
		}
	}
	slices.SortFunc(out, func(x, y msgRun) int { return cmp.Compare(x.first, y.first) })
	return out
}

// choose gives each group the action of the loaded table's rule that most
// of its messages meet; a group no rule matches keeps IGNORE.
func (r *rulesTable) choose(groups []dlqrules.Group, runs []msgRun) {
	type key struct {
		reason     int32
		dest, dqmg string
	}
	byGroup := map[key]*dlqrules.GroupMatch{}
	for i := range runs {
		s := &runs[i].s
		k := key{s.DLHReason, s.DLHDestQ, s.DLHDestQMgr}
		if byGroup[k] == nil {
			gm := dlqrules.NewGroupMatch()
			byGroup[k] = &gm
		}
		byGroup[k].AddN(r.t.MatchSummary(s), runs[i].n)
	}
	for i := range groups {
		g := &groups[i]
		gm := byGroup[key{g.Reason, g.DestQ, g.DestQMgr}]
		if gm == nil || gm.Rule < 0 {
			continue
		}
		rule := &r.t.Rules[gm.Rule]
		g.Choice, g.FwdQ, g.FwdQM, g.HeaderNo, g.Retry = rule.Action, rule.FwdQ, rule.FwdQM, !rule.Header, rule.Retry
	}
}

// chrome is the lines around the list: two more for the rule line, which
// wraps once so that the outcome fits at 80 columns.
func (t *triageScreen) chrome() int {
	n := triageChrome
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
	case r == nil || r.match.Rule < 0:
		return Cell{Text: "no rule", Style: &t.st.Muted}
	case r.match.Uncertain > 0:
		return Cell{Text: mqfmt.Sanitize(r.label), Style: &t.st.Warning}
	}
	return Cell{Text: mqfmt.Sanitize(r.label), Style: &t.st.Info}
}

// ruleLine is the rule of the group under the cursor and what it would do,
// over two lines (the second cut to fit), in amber when the engine
// predicts that it would fail.
func (t *triageScreen) ruleLine(a *App, w int) string {
	if t.rules == nil {
		return ""
	}
	g := t.selected()
	if g == nil || t.ruleOf(g) == nil {
		return "\n" + fitHeight(a.st.Muted.Render(ansi.Truncate(" rules: "+mqfmt.Sanitize(a.rules.path), w, "…")), ruleLines)
	}
	r := t.ruleOf(g)
	style := a.st.Info
	if r.fails {
		style = a.st.Warning
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
