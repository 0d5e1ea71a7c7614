package ui

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	tea "github.com/charmbracelet/bubbletea"
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
}

// groupRules caches the match of every group: it is worked out again only
// when the table, the DEADQ's inventory or the grouping changes, not on each
// key. seen keeps each message's match between polls: an inventory's
// summaries never move or change, so only new arrivals are matched.
type groupRules struct {
	tab   *dlqrules.Table
	inv   *mqwatch.Inventory
	dim   model.Dim
	byKey map[model.GroupKey]*groupRule
	seen  map[*mqwatch.Summary]dlqrules.Match
}

// matchGroups matches the DEADQ's messages against the loaded table, each
// where it lies in the inventory (nothing is copied), group by group.
func (a *App) matchGroups(t *triageScreen) map[model.GroupKey]*groupRule {
	if a.rules == nil || !t.isDLQ || t.q == nil || t.q.Snap == nil {
		return nil
	}
	c := &t.ruleCache
	inv := t.q.Snap.Inventories[t.loc.Queue]
	if c.tab == a.rules.t && c.inv == inv && c.dim == t.dim && c.byKey != nil {
		return c.byKey
	}
	if c.tab != a.rules.t {
		c.seen = nil
	}
	tab, qm := a.rules.t, t.q.Snap.QMgr.Name
	out := map[model.GroupKey]*groupRule{}
	first := map[model.GroupKey]map[int]*mqwatch.Summary{} // a message per rule, to resolve & names
	seen := make(map[*mqwatch.Summary]dlqrules.Match, inv.Len())
	for i := 0; inv != nil && i < inv.Len(); i++ {
		m := inv.At(i)
		k := model.KeyOf(t.dim, m)
		g := out[k]
		if g == nil {
			g = &groupRule{match: dlqrules.NewGroupMatch()}
			out[k], first[k] = g, map[int]*mqwatch.Summary{}
		}
		mt, ok := c.seen[m]
		if !ok {
			mt = tab.MatchSummary(m)
			mt.Why = "" // not shown per message; keeps the cache small
		}
		seen[m] = mt
		g.match.Add(mt)
		g.count++
		if first[k][mt.Rule] == nil {
			first[k][mt.Rule] = m
		}
	}
	for k, g := range out {
		g.describe(tab, first[k][g.match.Rule], qm)
	}
	*c = groupRules{tab: tab, inv: inv, dim: t.dim, byKey: out, seen: seen}
	return out
}

// describe fills the label and explanation from the rule most messages meet
// and one message that meets it.
func (g *groupRule) describe(tab *dlqrules.Table, m *mqwatch.Summary, qm string) {
	gm := &g.match
	others := len(gm.Counts) - 1
	f := dlqrules.FactsOfSummary(m)
	share := fmt.Sprintf(" · %s of %s messages", human(int64(gm.Counts[gm.Rule])), human(int64(g.count)))
	if others > 0 {
		share += fmt.Sprintf(", the rest by %d other rule(s) or none", others)
	}
	if gm.Uncertain > 0 {
		share += fmt.Sprintf("; %s depend on fields the list lacks (open a message to be sure)", human(int64(gm.Uncertain)))
	}
	if gm.Rule < 0 {
		g.label = "no rule"
		g.explain = "rules: no rule matches: the messages stay on the DEADQ" + share
	} else {
		r := &tab.Rules[gm.Rule]
		x := r.Resolve(&f, qm)
		g.label = "#" + itoa(r.Number)
		if gm.Uncertain > 0 {
			g.label += "?"
		}
		g.label += " " + string(r.Action)
		switch {
		case x.Skip != "":
			g.label += " (skipped)"
		case x.Target != "" && x.TargetQMgr != "":
			g.label += " → " + x.Target + " (" + x.TargetQMgr + ")"
		case x.Target != "":
			g.label += " → " + x.Target
		}
		g.explain = "rules: " + tab.Explain(dlqrules.Match{Rule: gm.Rule, Certain: true}, &f, qm) + share
	}
	if others > 0 {
		g.label += fmt.Sprintf(" +%d", others)
	}
}

// ruleOf is the loaded table's verdict on a group, nil without a table.
func (t *triageScreen) ruleOf(g *model.Group) *groupRule {
	if t.rules == nil {
		return nil
	}
	return t.rules[g.Key]
}

// writeRules writes a rules table made from the DEADQ's groups (the marked
// messages' groups when some are marked) to the export directory. Each
// group's action is the loaded table's rule for it, if one matches; else
// IGNORE, which runmqdlq and poisonwatch both leave alone until edited.
func (a *App) writeRules(t *triageScreen) tea.Cmd {
	sums, _ := a.markedOrAll(t)
	groups := dlqrules.GroupsOf(sums)
	if a.rules != nil {
		a.rules.choose(groups, sums)
	}
	var b bytes.Buffer
	now := a.opt.Now()
	_ = dlqrules.Generate(&b, groups, dlqrules.GenerateOptions{QMgr: t.q.Snap.QMgr.Name, Queue: t.loc.Queue, Now: now})
	dir := a.exportDir()
	path := filepath.Join(dir, strings.TrimSuffix(exportName(t.loc.Queue, now), ".dmp")+".rules")
	err := os.MkdirAll(dir, 0o700)
	if err == nil {
		err = os.WriteFile(path, b.Bytes(), 0o600)
	}
	if err != nil {
		a.flash = "cannot write the rules table: " + err.Error()
		return nil
	}
	a.flash = fmt.Sprintf("rules table of %d groups written to %s (poisonwatch rules check/preview it)", len(groups), path)
	return nil
}

// markedOrAll is the marked messages of the queue, else all of its messages.
func (a *App) markedOrAll(t *triageScreen) ([]mqwatch.Summary, bool) {
	if a.sel.Len() > 0 && a.selQueue == t.loc.Queue {
		return a.sel.Items(), true
	}
	var out []mqwatch.Summary
	inv := t.q.Snap.Inventories[t.loc.Queue]
	for i := 0; inv != nil && i < inv.Len(); i++ {
		out = append(out, *inv.At(i))
	}
	return out, false
}

// choose gives each group the action of the loaded table's rule that most
// of its messages meet; a group no rule matches keeps IGNORE.
func (r *rulesTable) choose(groups []dlqrules.Group, sums []mqwatch.Summary) {
	type key struct {
		reason     int32
		dest, dqmg string
	}
	byGroup := map[key]*dlqrules.GroupMatch{}
	for i := range sums {
		s := &sums[i]
		k := key{s.DLHReason, s.DLHDestQ, s.DLHDestQMgr}
		if byGroup[k] == nil {
			gm := dlqrules.NewGroupMatch()
			byGroup[k] = &gm
		}
		byGroup[k].Add(r.t.MatchSummary(s))
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

// chrome is the lines around the list: one more for the rule line.
func (t *triageScreen) chrome() int {
	if t.rules != nil {
		return triageChrome + 1
	}
	return triageChrome
}

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

// ruleLine is the rule of the group under the cursor, in full.
func (t *triageScreen) ruleLine(a *App, w int) string {
	if t.rules == nil {
		return ""
	}
	g := t.selected()
	if g == nil || t.ruleOf(g) == nil {
		return "\n" + a.st.Muted.Render(" rules: "+mqfmt.Sanitize(a.rules.path))
	}
	return "\n" + ansi.Truncate(a.st.Info.Render(" "+mqfmt.Sanitize(t.ruleOf(g).explain)), w, "…")
}

// writeRulesOff says why W does nothing here.
func (t *triageScreen) writeRulesOff() string {
	switch {
	case t.warRoom:
		return warRoomNoFiles
	case !t.isDLQ:
		return "rules tables are for the dead-letter queue (runmqdlq reads only MQDLH messages)"
	case len(t.groups) == 0:
		return "no groups to write rules for"
	}
	return ""
}
