package ui

import (
	"fmt"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	"github.com/poisonwatch/poisonwatch/codec/mqfmt"
	"github.com/poisonwatch/poisonwatch/model"
	"github.com/poisonwatch/poisonwatch/mqwatch"
)

// triageScreen groups a DEADQ or BOQ so that 30,000 dead letters read as two
// lines: what went wrong, where they were going, how many, since when.
type triageScreen struct {
	base
	filterText
	grid   Grid
	groups []*model.Group
	dim    model.Dim
	isDLQ  bool
	st     *Styles
	now    time.Time
	q      *model.QMgrState
	// marks are the groups whose messages space marked.
	marks map[model.GroupKey]bool
	// why caches each group's reason text until the next poll.
	why  map[model.GroupKey]string
	w, h int
	// laidOut is the chrome the grid was sized for.
	laidOut int
	// rules is the loaded rules table's verdict per group (nil without one).
	rules     map[model.GroupKey]*groupRule
	ruleCache model.GroupRules
	noFiles   string // why W may write no file
	// moved: the operator has moved the cursor; until then it stays on the
	// first row while the first polls re-sort the groups (as the
	// dashboard's does, dashboard_cursor.go), after it follows their group.
	moved bool
}

func (s *triageScreen) cursorGrid() *Grid { return &s.grid }

func newTriageScreen(qm, queue string) *triageScreen {
	t := &triageScreen{base: base{loc: model.Location{Screen: model.ScreenTriage, QMgr: qm, Queue: queue}}, marks: map[model.GroupKey]bool{}}
	t.grid.Cols = triageCols(120, false)
	return t
}

func triageCols(w int, rules bool) []Column {
	cols := []Column{
		{Title: "COUNT", Width: 8, Right: true},
		{Title: "GROUP", Width: 30, Flex: true},
		{Title: "AGE RANGE", Width: 15},
	}
	if w >= 100 {
		cols = append(cols, Column{Title: arrivalsTitle, Width: model.SparkBuckets + 8})
	}
	if rules {
		cols = append(cols, Column{Title: "RULE", Width: min(28, max(w/4, 16))})
	}
	return cols
}

func (t *triageScreen) refresh(c common) tea.Cmd {
	t.st = c.Styles()
	t.grid.Cell = t.cell
	t.grid.Marked = func(r int) bool { return t.groupMarked(c, t.groups[r]) }
	q, loc, filter := c.State().QMgr(t.loc.QMgr), &t.loc, t.text
	t.q = q
	t.update(q, loc, filter)
	t.rules, t.noFiles = c.Session().rules.matchGroups(c.Opts(), t), c.Session().noFiles()
	hasRule := t.rules != nil
	if hasRule != (t.grid.Cols[len(t.grid.Cols)-1].Title == "RULE") || t.chrome() != t.laidOut {
		t.resize(c, t.w, t.h)
	}
	if t.rules != nil {
		return c.Session().rules.predict(c, t.loc.QMgr, t.loc.Queue, q.Snap.Inventories[t.loc.Queue])
	}
	return nil
}

func (t *triageScreen) resize(_ common, w, h int) {
	t.w, t.h = w, h
	t.grid.Cols = triageCols(w, t.rules != nil)
	t.laidOut = t.chrome()
	t.grid.SetSize(w, h-t.laidOut)
}

// scan is how far the watcher has read this queue while it is still reading
// it (the first poll of a large DEADQ), nil once read.
func (t *triageScreen) scan() *mqwatch.ScanProgress {
	if t.q == nil || t.q.Snap == nil || t.q.Snap.Scan == nil || t.q.Snap.Scan.Queue != t.loc.Queue {
		return nil
	}
	return t.q.Snap.Scan
}

// scanLine says how far the read has got: the groups above are of what was
// read, and grow until it ends.
func (t *triageScreen) scanLine(c common, w int) string {
	sc := t.scan()
	if sc == nil {
		return ""
	}
	txt := fmt.Sprintf(" scanned %s", human(int64(sc.Scanned)))
	if sc.Depth > 0 {
		txt += fmt.Sprintf(" of %s (%d%%)", human(int64(sc.Depth)), min(100, sc.Scanned*100/sc.Depth))
	}
	txt += " · groups and counts grow until the read ends"
	return ansi.Truncate(c.Styles().Warning.Render(txt), w, "…") + "\n"
}

func (t *triageScreen) scroll(d int) { t.moved = true; t.grid.Move(d) }

func (t *triageScreen) update(q *model.QMgrState, loc *model.Location, filter string) {
	var keep *model.GroupKey
	if t.moved && t.grid.Cursor < len(t.groups) {
		k := t.groups[t.grid.Cursor].Key
		keep = &k
	}
	defer t.follow(keep)
	t.why = nil
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
	case arrivalsTitle:
		return Cell{Text: sparkRate(g.Arrivals(t.now), t.grid.Cols[col].Width), Style: &t.st.Info}
	case "RULE":
		return t.ruleCell(g)
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
		return t.noDLHExplain(k)
	}
	if t.q == nil {
		return mqfmt.Reason(k.Reason).Describe()
	}
	// Whose queue was full, when the consumer dead-lettered it: the group's
	// dead-lettering application, read once per group and poll.
	if why, ok := t.why[k]; ok {
		return why
	}
	appl := k.Appl
	if inv := t.q.Snap.Inventories[t.loc.Queue]; appl == "" && inv != nil {
		if i := model.FirstInGroup(inv, t.dim, k); i >= 0 {
			appl = inv.At(i).DLHPutAppl
		}
	}
	if t.why == nil {
		t.why = map[model.GroupKey]string{}
	}
	t.why[k] = t.q.DLHReasonText(k.Reason, k.DestQ, k.DestQMgr, appl)
	return t.why[k]
}

func (t *triageScreen) selected() *model.Group {
	if t.grid.Cursor < len(t.groups) {
		return t.groups[t.grid.Cursor]
	}
	return nil
}

func (t *triageScreen) bindings(c common) []binding {
	k := *c.Keys()
	none := offIf(func() bool { return t.selected() == nil }, "no group here")
	out := append(movesSet(&t.moved, gridKeys(c.Keys(), &t.grid)),
		bind(k.Enter, func() tea.Cmd {
			gk := t.selected().Key
			return c.Push(newQueueScreen(model.Location{Screen: model.ScreenGroup, QMgr: t.loc.QMgr, Queue: t.loc.Queue, Group: &gk, Dim: t.dim, Label: groupLabel(t.dim, gk)}))
		}, short, none),
		bind(k.Group, run(func() { t.cycleDim(); t.refresh(c) }), short),
		bind(k.Tab, func() tea.Cmd {
			return c.Push(newQueueScreen(model.Location{Screen: model.ScreenGroup, QMgr: t.loc.QMgr, Queue: t.loc.Queue}))
		}),
		bind(k.Mark, run(func() {
			t.markGroups(c, !t.groupMarked(c, t.selected()), t.selected())
			t.moved = true
			t.grid.Move(1)
		}), short, none),
		bind(k.MarkAll, run(func() { t.markGroups(c, true, t.groups...) }), none),
		unmarkKey(c),
		bind(k.WriteRules, func() tea.Cmd { return t.openRulesDialog(c) }, offWhen(func() string { return t.writeRulesOff() })),
	)
	return append(out, actionKeys(c, func() ([]mqwatch.Summary, int) { return t.groupTargets(c) }, t.loc)...)
}

func (t *triageScreen) cycleDim() {
	dims := model.BOQDims
	if t.isDLQ {
		dims = model.DLQDims
	}
	for i, d := range dims {
		if d == t.dim {
			t.loc.Dim = dims[(i+1)%len(dims)]
			break
		}
	}
	t.marks = map[model.GroupKey]bool{} // marks were made in the old grouping
	t.moved = false                     // a new grouping starts at its top
	t.grid.Home()
}

// groupMarked reports whether space marked g (and the marks still stand).
func (t *triageScreen) groupMarked(c common, g *model.Group) bool {
	return c.Session().marksOn(t.loc.Queue) != nil && t.marks[g.Key]
}

// markGroups marks (on) or unmarks every message of the given groups.
func (t *triageScreen) markGroups(c common, on bool, gs ...*model.Group) {
	if c.Session().marksOn(t.loc.Queue) == nil {
		t.marks = map[model.GroupKey]bool{}
	}
	c.Session().markOn(t.loc.Queue)
	want := map[model.GroupKey]bool{}
	for _, g := range gs {
		want[g.Key] = true
		t.marks[g.Key] = on
	}
	inv := t.q.Snap.Inventories[t.loc.Queue]
	keys := model.ClassKeys(inv, t.dim)
	n := 0
	for i := 0; i < inv.Len(); i++ {
		if want[keys[inv.ClassID(i)]] {
			if on {
				c.Session().marks.MarkAt(inv, i)
			} else {
				c.Session().marks.Unmark(inv.Key(i))
			}
			n++
		}
	}
	verb := "marked"
	if !on {
		verb = "unmarked"
	}
	c.Flash(fmt.Sprintf("%s %s messages in %d group(s)", verb, human(int64(n)), len(gs)))
}

// groupTargets: the marked messages (nil: the dialog pulls them from the
// marks), else every message of the group under the cursor.
func (t *triageScreen) groupTargets(c common) ([]mqwatch.Summary, int) {
	if c.Session().marksOn(t.loc.Queue) != nil {
		return nil, 0
	}
	g := t.selected()
	if g == nil || t.q.Snap == nil {
		return nil, 0
	}
	inv := t.q.Snap.Inventories[t.loc.Queue]
	rows := model.GroupRows(inv, t.dim, &g.Key)
	out := make([]mqwatch.Summary, len(rows))
	for j, i := range rows {
		inv.Load(i, &out[j])
	}
	return out, 0
}

func (t *triageScreen) view(c common, w, h int) string {
	title := t.title(c, w)
	grid := t.grid.View(c.Styles())
	if t.grid.Rows == 0 {
		grid = fitHeight(grid, 2) + "\n" + c.Styles().OK.Render(" empty: nothing to triage")
	}
	explain := t.explainLines(c, w)
	// The near names of a 2085 group take the line above the explanation,
	// which is otherwise blank, so neither is cut at 80 columns.
	sep := "\n\n"
	if ev := t.eventLine(c, w); ev != "" {
		sep = "\n" + ev + "\n"
	}
	if g := t.selected(); g != nil && g.Key.Reason == mqrcUnknownObjectName {
		if s := nearQueue(c.State(), g.Key.DestQ, g.Key.DestQMgr, t.loc.QMgr); s != "" {
			sep = "\n" + ansi.Truncate(c.Styles().Warning.Render(" "+s), w, "…") + "\n" // already sanitised
		}
	}
	out := ansi.Truncate(title, w, "…") + "\n" + t.scanLine(c, w) + t.agesLine(c, w) + fitHeight(grid, h-t.chrome()) + sep + explain
	return out + t.ruleLine(c, w)
}
