package ui

import (
	"bytes"
	"errors"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/bubbles/textinput"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"

	"github.com/poisonwatch/poisonwatch/actions/dlqrules"
	"github.com/poisonwatch/poisonwatch/codec/mqfmt"
	"github.com/poisonwatch/poisonwatch/internal/words"
	"github.com/poisonwatch/poisonwatch/model"
)

// rulesDialog is W on the DEADQ triage: a rules table of the groups, one
// rule per group, each with the action the operator gives it here (IGNORE
// unless the loaded table's rule says otherwise), written to a file only
// when confirmed. Like the action dialogs it is a screen on the stack, over
// the triage it came from; esc cancels and writes nothing.
type rulesDialog struct {
	base    // ScreenDialog on the DEADQ: the breadcrumb names it
	groups  []dlqrules.Group
	total   int
	opts    dlqrules.GenerateOptions
	grid    Grid
	input   textinput.Model
	editing editField
	path    string
	problem string // why the last enter wrote nothing
	st      *Styles
	create  *createStep     // ctrl+n: a missing FWDQ being defined (rules_dialog_create.go)
	defined map[string]bool // "QMGR/QUEUE" defined here since the dialog opened
	w       int             // the width it was laid out for
}

// editField is what the dialog's input line is editing.
type editField int

const (
	editNone   editField = iota
	editTarget           // the FWD queue of the group under the cursor
	editPath             // the file
)

// rulesDialogChrome is the lines around the group list: three above, a
// blank and four below.
const rulesDialogChrome = 8

// openRulesDialog is W: the DEADQ's groups (the marked messages' groups
// when some are marked), each with the loaded table's action for it if one
// matches, else IGNORE.
func (t *triageScreen) openRulesDialog(c common) tea.Cmd {
	runs := t.markedOrAll(c)
	var gc dlqrules.GroupCounter
	for i := range runs {
		r := &runs[i]
		gc.AddN(&r.S, r.N, r.Oldest, r.Newest)
	}
	groups := gc.Groups()
	if len(groups) == 0 {
		c.Flash("none of these messages starts with an MQDLH: runmqdlq would not read them, so there is nothing to write rules for")
		return nil
	}
	if r := c.Session().rules; r != nil {
		model.ChooseRules(r.t, groups, runs)
	}
	now := c.Opts().Now()
	d := &rulesDialog{
		base:   base{loc: model.Location{Screen: model.ScreenDialog, QMgr: t.loc.QMgr, Queue: t.loc.Queue, Label: "write rules table"}},
		groups: groups,
		opts:   dlqrules.GenerateOptions{QMgr: t.q.Snap.QMgr.Name, Queue: t.loc.Queue, Now: now},
		path:   filepath.Join(c.Session().exportDir, strings.TrimPrefix(strings.TrimSuffix(exportName(t.loc.QMgr, t.loc.Queue, now), ".dmp"), "export-")+".rules"),
		input:  textinput.New(),
		st:     c.Styles(),
	}
	for _, g := range groups {
		d.total += g.Count
	}
	d.input.CharLimit = 1024
	d.grid.Cols = rulesDialogCols(t.w) // push sizes it again to the body
	d.grid.Cell = d.cell
	d.grid.SetRows(len(groups))
	return c.Push(d)
}

// rulesDialogCols: the group as the triage names it, then the action,
// which takes up to half the width (a FWD names its queue).
func rulesDialogCols(w int) []Column {
	return []Column{{Title: "COUNT", Width: 7, Right: true}, {Title: "GROUP", Width: 24, Flex: true},
		{Title: "ACTION", Width: min(max(w/2-4, 30), 72)}}
}

func (d *rulesDialog) group() *dlqrules.Group { return &d.groups[d.grid.Cursor] }

func (d *rulesDialog) cell(row, col int) Cell {
	g := &d.groups[row]
	switch col {
	case 0:
		return Cell{Text: "×" + human(int64(g.Count)), Style: &d.st.Warning}
	case 1:
		k := model.GroupKey{Reason: g.Reason, DestQ: g.DestQ, DestQMgr: g.DestQMgr}
		return Cell{Text: mqfmt.Sanitize(groupLabel(model.DimReasonDest, k))}
	}
	if g.Choice == dlqrules.Fwd && g.FwdQ == "" {
		return Cell{Text: "ACTION(FWD): which queue? (t)", Style: &d.st.Warning}
	}
	return Cell{Text: mqfmt.Sanitize(g.ActionString()), Style: &d.st.Info}
}

func (d *rulesDialog) resize(_ common, w, h int) {
	d.w = w
	d.grid.Cols = rulesDialogCols(w)
	d.grid.SetSize(w, h-rulesDialogChrome)
}

func (d *rulesDialog) scroll(n int) { d.grid.Move(n) }

// filter: the dialog lists the groups it was opened with; it has none.

// typeKey types into the input line while a field is edited.
func (d *rulesDialog) typeKey(_ common, k tea.KeyMsg) tea.Cmd {
	if d.create != nil {
		d.create.typeKey(k)
		return nil
	}
	if d.editing != editNone {
		d.input, _ = d.input.Update(k)
	}
	return nil
}

func (d *rulesDialog) bindings(c common) []binding {
	b := func(help string, keys ...string) key.Binding {
		return key.NewBinding(key.WithKeys(keys...), key.WithHelp(keys[0], help))
	}
	if d.create != nil {
		return d.create.createBindings(c, func() { d.create = nil }, b)
	}
	if d.editing != editNone {
		out := []binding{
			bind(b("take what is typed", "enter"), run(func() { d.endEdit(true) }), short),
			bind(b("back, unchanged", "esc"), run(func() { d.endEdit(false) }), short),
		}
		if d.editing == editTarget {
			out = append(out, bind(b("complete the queue name", "tab"), run(func() { d.completeRulesTarget(c) }), short))
		}
		return out
	}
	notFwd := offIf(func() bool { return d.group().Choice != dlqrules.Fwd }, "only ACTION(FWD) has a queue and a HEADER")
	arrow := func(help, glyph string, keys ...string) key.Binding {
		return key.NewBinding(key.WithKeys(keys...), key.WithHelp(glyph, help))
	}
	return append([]binding{ // in the footer's order: what a narrow one keeps first
		bind(b("write the table", "enter"), func() tea.Cmd { return d.writeRulesTable(c) }, short),
		bind(b("cancel: write nothing", "esc"), c.Pop, short),
		bind(arrow("next action for the group", "→", "right", "l"), run(func() { d.cycle(1) }), short),
		bind(arrow("previous action for the group", "←", "left", "h"), run(func() { d.cycle(-1) })),
		bind(b("FWD: the queue to forward to", "t"), run(func() { d.edit(editTarget) }), short, notFwd),
		bind(b("FWD: keep or remove the MQDLH (HEADER)", "x"), run(func() { d.group().HeaderNo = !d.group().HeaderNo }), notFwd),
		bind(b("FWD: define the FWDQ that does not exist", "ctrl+n"), run(func() { d.openFwdCreate(c) }), offWhen(func() string { return d.fwdCreateOff(c) })),
		bind(b("the file to write", "f"), run(func() { d.edit(editPath) }), short),
		bind(c.Keys().Help, func() tea.Cmd { return showHelp }),
	}, gridKeys(c.Keys(), &d.grid)...)
}

// cycle changes the action of the group under the cursor; FWD without a
// queue asks for one at once.
func (d *rulesDialog) cycle(step int) {
	g := d.group()
	g.Cycle(step)
	d.problem = ""
	if g.Choice == dlqrules.Fwd && g.FwdQ == "" {
		d.edit(editTarget)
	}
}

// edit opens the input line on a field, filled with what it holds.
func (d *rulesDialog) edit(f editField) {
	d.editing, d.problem = f, ""
	switch f {
	case editTarget:
		g := d.group()
		v := g.FwdQ
		if g.FwdQM != "" {
			v += "@" + g.FwdQM
		}
		d.input.Prompt = "FWDQ (QUEUE, QUEUE@QMGR, &DESTQ@&DESTQM, &REPLYQ): "
		d.input.SetValue(v)
	case editPath:
		d.input.Prompt = "file: "
		d.input.SetValue(d.path)
	}
	d.input.CursorEnd()
	d.input.Focus()
}

// endEdit takes the typed value (keep) or drops it.
func (d *rulesDialog) endEdit(keep bool) {
	f := d.editing
	d.editing = editNone
	d.input.Blur()
	if !keep {
		return
	}
	v := strings.TrimSpace(d.input.Value())
	switch f {
	case editTarget:
		g := d.group()
		g.FwdQ, g.FwdQM = splitTarget(v) // QUEUE@QMGR, &DESTQ@&DESTQM
	case editPath:
		if v != "" {
			d.path = v
		}
	}
}

// completeRulesTarget is tab in the FWD queue: the known queues' common
// beginning, as the action dialogs complete a target.
func (d *rulesDialog) completeRulesTarget(cx common) {
	q, qm := splitTarget(d.input.Value())
	on := qm
	if on == "" {
		on = d.loc.QMgr
	}
	m := model.CompleteNames(q, knownQueues(cx.State(), on))
	if len(m) == 0 {
		cx.Flash("no queue on " + on + " begins with that")
		return
	}
	c := model.CommonPrefix(m)
	if qm != "" {
		c += "@" + qm
	}
	d.input.SetValue(c)
	d.input.CursorEnd()
}

// writeRulesTable writes the table, refusing one that our parser (like
// runmqdlq) would refuse and a file that exists: nothing is overwritten.
func (d *rulesDialog) writeRulesTable(c common) tea.Cmd {
	var b bytes.Buffer
	_ = dlqrules.Generate(&b, d.groups, d.opts)
	if _, err := dlqrules.Parse(bytes.NewReader(b.Bytes())); err != nil {
		var es dlqrules.Errors
		if errors.As(err, &es) && len(es) > 0 {
			err = es[0]
		}
		d.problem = "not written: the table would be refused (" + err.Error() + ")"
		return nil
	}
	path := d.path
	if err := c.Session().writeNew(path, b.Bytes()); err != nil {
		d.problem = "not written: " + err.Error()
		return nil
	}
	flash := fmt.Sprintf("rules table of %s written to %s (poisonwatch rules check/preview/run it)", words.Count(len(d.groups), "group"), path)
	if ws := d.fwdWarnings(c); len(ws) > 0 {
		flash += "; ⚠ " + strings.Join(ws, "; ")
	}
	c.Flash(flash)
	return c.Pop()
}

func (d *rulesDialog) view(c common, w, h int) string {
	if d.create != nil {
		return d.rulesCreateView(c, w, h)
	}
	st := c.Styles()
	head := []string{
		st.Title.Render(fmt.Sprintf(" Write a runmqdlq rules table: %s of %s on %s", words.Count(len(d.groups), "group"), words.Count(d.total, "message"), mqfmt.Sanitize(d.loc.Queue))),
		st.Muted.Render(" one rule per group, in this order; IGNORE leaves the messages on the queue"),
		"",
	}
	for i, l := range head {
		head[i] = ansi.Truncate(l, w, "…")
	}
	// The lines under the list wrap into the rows a short list leaves empty:
	// the rule and the file are read whole before they are written.
	var foot []string
	if d.editing != editNone {
		foot = append(foot, ansi.Truncate(" "+d.input.View(), w, "…")) // the input scrolls
		if c := d.fwdCandidates(c); c != "" && d.editing == editTarget {
			foot = append(foot, ansi.Truncate(st.Muted.Render(c), w, "…"))
		}
	} else {
		foot = append(foot, pathLines(d.w, lipgloss.NewStyle(), "file: ", d.path, "")...)
	}
	switch {
	case d.problem != "":
		foot = append(foot, wrapped(st.Danger, " ", mqfmt.Sanitize(d.problem), w)...)
	case d.editing == editNone && d.fwdWarning(c) != "":
		foot = append(foot, wrapped(st.Warning, "", d.fwdWarning(c), w)...)
	case d.editing == editNone:
		foot = append(foot, wrapped(st.Muted, " rule "+itoa(d.grid.Cursor+1)+": ", mqfmt.Sanitize(d.group().RuleString()), w)...)
	default:
		foot = append(foot, "")
	}
	if d.editing == editNone {
		for _, l := range d.fwdWarnings(c) {
			foot = append(foot, wrapped(st.Warning, " ⚠ ", l, w)...)
		}
	}
	foot = append(foot, "")
	foot = append(foot, wrapped(st.Muted, " ", "nothing is acted on: rules preview and rules run take the file from there", w)...)
	grid := fitHeight(d.grid.View(st), h-len(head)-len(foot)-1)
	return fitHeight(strings.Join(head, "\n")+"\n"+grid+"\n\n"+strings.Join(foot, "\n"), h)
}
