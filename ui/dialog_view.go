package ui

import (
	"cmp"
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/charmbracelet/bubbles/key"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	"github.com/poisonwatch/poisonwatch/actions/ops"
	"github.com/poisonwatch/poisonwatch/codec/mqfmt"
	"github.com/poisonwatch/poisonwatch/model"
	"github.com/poisonwatch/poisonwatch/mqwatch"
)

// actionKeys declares the action keys of a screen whose messages live on
// loc's queue. Nothing destructive happens on a key press: every action opens
// a dialog on the dry run's result, its focus on Cancel. In read-only mode the
// keys are hidden from help and say so when pressed.
func actionKeys(c common, targets func() ([]mqwatch.Summary, int), loc model.Location) []binding {
	k, o := c.Keys(), c.Opts()
	act := func(op ops.Op) func() tea.Cmd {
		return func() tea.Cmd {
			msgs, hidden := targets()
			return openDialog(c, op, msgs, loc, hidden)
		}
	}
	readOnly := offUnless(o, o.ReadOnly, cmp.Or(o.ReadOnlyWhy, "read-only: actions are off"))
	exportOff := offUnless(o, o.NoExport, "exports are off in this session")
	return []binding{
		bind(k.Requeue, act(ops.OpRequeue), short, readOnly),
		bind(k.Move, act(ops.OpMove), short, readOnly),
		bind(k.Replay, act(ops.OpReplay), readOnly),
		bind(k.Discard, act(ops.OpDiscard), readOnly),
		bind(k.Export, act(ops.OpExport), exportOff), // a browse: read-only allows it
	}
}

// offUnless hides an action key from help while off holds (and says why
// when it is pressed anyway); without a connection for actions it is off too.
func offUnless(o *Options, off bool, why string) func(*binding) {
	return func(b *binding) {
		b.hide = off
		b.off = func() string {
			switch {
			case off:
				return why
			case o.Ops == nil:
				return "no connection for actions"
			}
			return ""
		}
	}
}

// dialogBindings are the dialog's keys in its phase, declared once for the
// handler and the footer; in the confirmation, keys that match none are typed
// into its input (the count, the target).
func (d *dialog) dialogBindings(c common) []binding {
	b := func(help string, keys ...string) key.Binding {
		return key.NewBinding(key.WithKeys(keys...), key.WithHelp(keys[0], help))
	}
	switch d.phase {
	case phasePlanning:
		return []binding{bind(b("cancel", "esc"), func() tea.Cmd { return d.close(c) }, short)}
	case phaseConfirm:
		return d.confirmBindings(c, b)
	case phaseRunning:
		stop := "stop after backing out the batch in flight"
		if d.checking() {
			stop = "end the check (what was moved stays moved)"
		}
		return []binding{bind(b(stop, "esc"), run(func() {
			if d.cancel != nil {
				d.cancel()
			}
		}), short)}
	}
	return []binding{bind(b("close", "esc", "enter", "q"), func() tea.Cmd { return d.close(c) }, short)}
}

// choose is enter in the confirmation: Cancel cancels; Run takes the typed
// target (then dry-runs), or runs once the count is typed.
func (d *dialog) choose(c common) tea.Cmd {
	if !d.onRun {
		return d.close(c)
	}
	if d.askTarget {
		v := strings.TrimSpace(d.typed.Value())
		if v == "" && d.req.Op != ops.OpRequeue { // requeue: empty is the original queue
			return nil
		}
		if d.req.Op == ops.OpExport {
			d.req.File = v // a path: case matters
		} else {
			d.setTarget()
		}
		// An export is a browse: after its dry run enter exports. Anything
		// else comes back to Cancel.
		d.askTarget, d.onRun = false, d.req.Op == ops.OpExport
		return d.planCmd(c)
	}
	if r := d.runOff(); r != "" {
		c.Flash("Run is off: " + r)
		return nil
	}
	return d.runCmd(c)
}

// runOff says why Run does nothing now, "" when it runs.
func (d *dialog) runOff() string {
	switch {
	case d.askTarget:
		if strings.TrimSpace(d.typed.Value()) == "" && d.req.Op != ops.OpRequeue {
			return "type the target first"
		}
		return ""
	case d.emptied != "":
		return "nothing left to act on"
	case d.err != nil:
		return "the dry run failed"
	case d.actCount() == 0:
		return "the dry run found nothing that would be acted on"
	case d.confirmed():
		return ""
	}
	if d.actCount() == 1 {
		return "press y to confirm"
	}
	n := human(int64(d.actCount())) // typed with or without the commas
	if v := strings.TrimSpace(d.typed.Value()); v != "" {
		return "you typed " + mqfmt.Sanitize(v) + ", " + n + " message(s) would be acted on: type " + n
	}
	return "type " + n + " to confirm"
}

// confirmed: bulk and discard need the count typed, so a stray enter cannot
// destroy or move thousands of messages.
func (d *dialog) confirmed() bool {
	switch {
	case !d.needType:
		return true
	case d.actCount() == 1:
		return d.confirmedY // one message: y, not a typed 1
	}
	// Counts read 1,244 everywhere in the dialog: the commas may be typed too.
	return strings.ReplaceAll(strings.TrimSpace(d.typed.Value()), ",", "") == strconv.Itoa(d.actCount())
}

// actCount is the number of messages the dry run says would be acted on:
// the count an operator types, never the selection's size (messages that
// would fail or be skipped are not confirmed by typing their number).
func (d *dialog) actCount() int {
	b := d.plan.Breakdown()
	if d.sampled() && b.Act > 0 { // the sample cannot say which of the rest would fail
		return d.total
	}
	return b.Act
}

func (d *dialog) dialogView(c common, w, h int) string {
	st := c.Styles()
	title := fmt.Sprintf(" %s — %s message(s) from %s", strings.ToUpper(string(d.req.Op)), human(int64(d.count())), mqfmt.Sanitize(d.req.Queue))
	lines := []string{st.Title.Render(title), ""}
	switch d.phase {
	case phasePlanning:
		lines = append(lines, st.Muted.Render(" dry run: working out exactly what would happen…"))
	case phaseConfirm:
		lines = append(lines, d.confirmLines(c)...)
	case phaseRunning:
		lines = append(lines, d.progressLines(c)...)
	case phaseDone:
		lines = append(lines, d.doneLines(c)...)
	}
	for i, l := range lines {
		lines[i] = ansi.Truncate(l, w, "…")
	}
	return fitHeight(strings.Join(lines, "\n"), h)
}

func (d *dialog) confirmLines(c common) []string {
	if d.create != nil {
		return d.create.createLines(c, d.w)
	}
	st := c.Styles()
	var out []string
	if d.askTarget {
		out = d.targetInputLines(c)
	} else {
		if d.stale != "" && d.emptied == "" {
			out = append(out, wrapped(st.Warning, " ⚠ ", d.stale, d.w)...)
		}
		switch {
		case d.emptied != "":
			// No buttons: there is nothing to run, only the dialog to close.
			return wrapped(st.Warning, " ", d.emptied, d.w)
		case d.err != nil:
			out = append(out, st.Danger.Render(" dry run failed: "+mqfmt.Sanitize(d.err.Error())), "")
		default:
			for _, l := range strings.Split(ansi.Wrap(mqfmt.Sanitize(d.plan.Summary), max(d.w-2, 20), " "), "\n") {
				out = append(out, " "+l)
			}
			out = append(out, "")
			out = append(out, targetLines(d.plan)...)
			out = append(out, outcomeLines(d.w, d.plan)...)
			out = append(out, skipLines(c.Styles(), d.plan)...)
			for _, w := range d.plan.Warnings {
				// What the engine warns of (room, security, messages that
				// would come back) is read before Run, wrapped, not cut.
				for i, l := range strings.Split(ansi.Wrap("⚠ "+mqfmt.Sanitize(w), max(d.w-4, 20), " "), "\n") {
					if i > 0 {
						l = "  " + strings.TrimLeft(l, " ")
					}
					out = append(out, st.Warning.Render(" "+l))
				}
			}
			out = append(out, d.planHintLines(c)...)
			out = append(out, d.parkLines(c)...)
			out = append(out, d.sampleLines(c)...)
		}
		for _, l := range d.from {
			out = append(out, wrapped(st.Warning, " ", l, d.w)...)
		}
		if d.hidden > 0 {
			out = append(out, st.Warning.Render(fmt.Sprintf(" %s of the marked messages are hidden by the current filter and are included", human(int64(d.hidden)))))
		}
		out = append(out, d.confirmInput(c)...)
		out = append(out, d.focusLines(c)...)
	}
	// The focused button is bracketed, so focus reads without colour too.
	cancel, run := st.TabOn.Render("[ Cancel ]"), st.Tab.Render("  Run  ")
	if d.onRun {
		cancel, run = st.Tab.Render("  Cancel  "), st.DangerBg.Render("[ Run ]")
	}
	sw := "tab"
	if d.askQueue() {
		sw = "shift+tab"
	}
	out = append(out, "", " "+cancel+"  "+run+st.Muted.Render("   ("+sw+" switches, enter chooses)"))
	if r := d.runOff(); r != "" && !d.askTarget {
		out = append(out, st.Warning.Render(" Run is off: "+r))
	}
	return out
}

// outcomeLines break the dry run down by what would happen to each message.
func outcomeLines(w int, p ops.OpPlan) []string {
	counts := map[string]int{}
	var order []string
	for _, it := range p.Items {
		if it.Kind == ops.WouldComeBack {
			continue // the plan's warnings count them by cause, with the fix
		}
		o := it.Text(p.Request.Op)
		if counts[o] == 0 {
			order = append(order, o)
		}
		counts[o]++
	}
	var out []string
	for _, o := range order {
		o, n := mqfmt.Sanitize(o), "×"+human(int64(counts[o]))
		if ansi.StringWidth(o) <= 40 {
			out = append(out, fmt.Sprintf("   · %-40s %s", o, n))
			continue
		}
		// A long reason (why messages are skipped) is wrapped, its count first.
		for i, l := range strings.Split(ansi.Wrap(n+" "+o, max(w-7, 20), " "), "\n") {
			lead := "   · "
			if i > 0 {
				lead, l = "       ", strings.TrimLeft(l, " ")
			}
			out = append(out, lead+l)
		}
	}
	return out
}

func targetLines(p ops.OpPlan) []string {
	keys := make([]string, 0, len(p.Targets))
	for t := range p.Targets {
		keys = append(keys, t)
	}
	sort.Strings(keys)
	var out []string
	for _, t := range keys {
		out = append(out, fmt.Sprintf("   → %-40s ×%s", mqfmt.Sanitize(t), human(int64(p.Targets[t]))))
	}
	return out
}

func skipLines(st *Styles, p ops.OpPlan) []string {
	var out []string
	for _, it := range p.Items {
		if it.Reason != 0 && len(out) < 5 && it.Kind != ops.WouldComeBack { // counted above
			out = append(out, st.Warning.Render(fmt.Sprintf("   %s: %s", fitID(it.Msg.MsgId, 17), mqfmt.Sanitize(it.Text(p.Request.Op)))))
		}
	}
	return out
}

// targetInputLines are the target input (a queue, or an export's file), the
// names it completes to and what enter and esc do there.
func (d *dialog) targetInputLines(c common) []string {
	st := c.Styles()
	var out []string
	what := "the queue"
	if d.req.Op == ops.OpExport {
		what = "the file"
	}
	hint := " type " + what + ", then enter: a dry run shows what would happen first; " + d.escSays(c)
	if d.askQueue() {
		hint = " type the queue (tab completes; QUEUE@QMGR for another queue manager), then enter: a dry run shows what would happen first; " + d.escSays(c)
		if d.retarget {
			hint = " empty: each message's original queue;" + hint
		}
	}
	out = append(out, " "+d.typed.View())
	if d.req.Op == ops.OpExport && ansi.StringWidth(d.typed.Prompt+d.typed.Value()) > d.w-4 {
		out = append(out, pathLines(d.w, st.Muted, "in full: ", d.typed.Value(), "")...)
	}
	out = append(out, d.targetHintLines(c)...)
	out = append(out, "")
	for _, l := range strings.Split(ansi.Wrap(hint, max(d.w-2, 20), " "), "\n") {
		out = append(out, st.Muted.Render(" "+strings.TrimPrefix(l, " ")))
	}
	return out
}
