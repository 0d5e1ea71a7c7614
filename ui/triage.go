package ui

import (
	"fmt"
	"time"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/poisonwatch/poisonwatch/model"
	"github.com/poisonwatch/poisonwatch/mqwatch/mqfmt"
)

// triageScreen groups a DEADQ or BOQ so that 30,000 dead letters read as two
// lines: what went wrong, where they were going, how many, since when.
type triageScreen struct {
	grid   Grid
	groups []*model.Group
	dim    model.Dim
	isDLQ  bool
	st     *Styles
	now    time.Time
}

func newTriageScreen() triageScreen {
	t := triageScreen{}
	t.grid.Cols = triageCols(120)
	return t
}

func triageCols(w int) []Column {
	cols := []Column{
		{Title: "COUNT", Width: 8, Right: true},
		{Title: "GROUP", Width: 30, Flex: true},
		{Title: "AGE RANGE", Width: 15},
	}
	if w >= 100 {
		cols = append(cols, Column{Title: "ARRIVALS", Width: 16})
	}
	return cols
}

func (t *triageScreen) update(q *model.QMgrState, loc *model.Location, filter string) {
	var keep *model.GroupKey
	if t.grid.Cursor < len(t.groups) {
		k := t.groups[t.grid.Cursor].Key
		keep = &k
	}
	defer t.follow(keep)
	gs := q.Groups[loc.Queue]
	t.groups = nil
	if gs == nil || q.Snap == nil {
		t.grid.SetRows(0)
		return
	}
	t.now = q.Snap.Time
	t.isDLQ = gs.IsDLQ
	dims := model.BOQDims
	if t.isDLQ {
		dims = model.DLQDims
	}
	if !containsDim(dims, loc.Dim) {
		loc.Dim = dims[0]
	}
	t.dim = loc.Dim
	all := gs.Groups(t.dim)
	ms := model.Filter(filter, len(all), func(i int) string { return groupLabel(t.dim, all[i].Key) })
	for _, m := range ms {
		t.groups = append(t.groups, all[m.Index])
	}
	t.grid.SetRows(len(t.groups))
}

// follow keeps the cursor on its group when counts re-sort the list.
func (t *triageScreen) follow(k *model.GroupKey) {
	if k == nil {
		return
	}
	for i, g := range t.groups {
		if g.Key == *k {
			t.grid.Cursor = i
			t.grid.clamp()
			return
		}
	}
}

func containsDim(ds []model.Dim, d model.Dim) bool {
	for _, x := range ds {
		if x == d {
			return true
		}
	}
	return false
}

// groupLabel reads like the incident: "2085 UNKNOWN_OBJECT_NAME → INVOICE.IN (QM2)".
func groupLabel(d model.Dim, k model.GroupKey) string {
	reason := func() string {
		if k.Reason == 0 {
			return "no MQDLH"
		}
		return fmt.Sprintf("%d %s", k.Reason, trimRC(mqfmt.Reason(k.Reason).String()))
	}
	dest := func() string {
		if k.DestQ == "" {
			return "?"
		}
		if k.DestQMgr != "" {
			return k.DestQ + " (" + k.DestQMgr + ")"
		}
		return k.DestQ
	}
	orUnknown := func(s string) string {
		if s == "" {
			return "(unknown)"
		}
		return s
	}
	switch d {
	case model.DimReasonDest:
		return reason() + " → " + dest()
	case model.DimReason:
		return reason()
	case model.DimDest:
		return dest()
	case model.DimAppl:
		return orUnknown(k.Appl)
	case model.DimSource:
		return orUnknown(k.Source)
	case model.DimType:
		return orUnknown(k.Type)
	}
	return ""
}

func (t *triageScreen) cell(row, col int) Cell {
	g := t.groups[row]
	switch t.grid.Cols[col].Title {
	case "COUNT":
		return Cell{Text: "×" + human(int64(g.Count)), Style: &t.st.Warning}
	case "GROUP":
		return Cell{Text: mqfmt.Sanitize(groupLabel(t.dim, g.Key))}
	case "AGE RANGE":
		if g.Oldest.IsZero() {
			return Cell{Text: "?", Style: &t.st.Muted}
		}
		return Cell{Text: age(t.now.Sub(g.Newest)) + " – " + age(t.now.Sub(g.Oldest))}
	case "ARRIVALS":
		return Cell{Text: sparkline(g.Spark.Values(), 16), Style: &t.st.Info}
	}
	return Cell{}
}

// explain returns the reason's explanation for the group under the cursor.
func (t *triageScreen) explain() string {
	if t.grid.Cursor >= len(t.groups) {
		return ""
	}
	k := t.groups[t.grid.Cursor].Key
	if k.Reason == 0 {
		return ""
	}
	return mqfmt.Reason(k.Reason).Describe()
}

func (a *App) triageKey(k tea.KeyMsg, top *model.Location) tea.Cmd {
	t := &a.triage
	switch {
	case a.moveGrid(&t.grid, k):
	case key.Matches(k, a.keys.Group):
		dims := model.BOQDims
		if t.isDLQ {
			dims = model.DLQDims
		}
		for i, d := range dims {
			if d == t.dim {
				top.Dim = dims[(i+1)%len(dims)]
				break
			}
		}
		t.grid.Home()
		a.refreshScreens()
	case key.Matches(k, a.keys.Enter):
		if t.grid.Cursor < len(t.groups) {
			gk := t.groups[t.grid.Cursor].Key
			a.nav.Push(model.Location{Screen: model.ScreenGroup, QMgr: a.qm, Queue: top.Queue, Group: &gk, Dim: t.dim, Label: groupLabel(t.dim, gk)})
			a.refreshScreens()
		}
	case key.Matches(k, a.keys.Tab):
		a.nav.Push(model.Location{Screen: model.ScreenGroup, QMgr: a.qm, Queue: top.Queue})
		a.refreshScreens()
	case key.Matches(k, a.keys.Mark), key.Matches(k, a.keys.MarkAll):
		a.markGroup(top)
	default:
		return a.actionKey(k, top)
	}
	top.Cursor = t.grid.Cursor
	return nil
}

// markGroup marks every message of the group under the cursor, for acting on
// a whole group.
func (a *App) markGroup(top *model.Location) {
	t := &a.triage
	if t.grid.Cursor >= len(t.groups) {
		return
	}
	inv := a.current().Snap.Inventories[top.Queue]
	gk := t.groups[t.grid.Cursor].Key
	a.markOn(top.Queue)
	n := 0
	for i := 0; i < inv.Len(); i++ {
		if m := inv.At(i); model.KeyOf(t.dim, m) == gk {
			a.sel.Mark(*m)
			n++
		}
	}
	a.flash = fmt.Sprintf("marked %s messages of %s", human(int64(n)), groupLabel(t.dim, gk))
}
