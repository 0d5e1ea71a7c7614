package ui

import (
	"strings"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	"github.com/poisonwatch/poisonwatch/actions/ops"
)

// modal is a screen that takes every key: no global key works under it, and
// a key that matches none of its bindings is typed into it (a dialog's count
// or target queue).
type modal interface {
	screen
	typeKey(c common, k tea.KeyMsg) tea.Cmd
}

// A dialog is a screen on the navigation stack, above the screen whose
// messages it acts on: the breadcrumb names its source queue, esc pops it
// back to exactly that screen, and its keys are declared like any screen's.

// It takes no refresh: live updates are held while it is open, so the
// picture the operator confirms does not move under them.

func (d *dialog) bindings(c common) []binding { return d.dialogBindings(c) }

// resize gives the typed input the width left beside its prompt, so a long
// path or queue name scrolls inside it instead of being cut.
func (d *dialog) resize(_ common, w, _ int) {
	d.w = w
	d.typed.Width = max(w-ansi.StringWidth(d.typed.Prompt)-6, 10)
}

func (d *dialog) view(c common, w, h int) string { return d.dialogView(c, w, h) }

func (d *dialog) typeKey(c common, k tea.KeyMsg) tea.Cmd {
	if d.create != nil {
		d.create.typeKey(k)
		return nil
	}
	if d.phase != phaseConfirm || !(d.needType || d.askTarget) || (!d.askTarget && (d.err != nil || d.actCount() <= 1)) {
		return nil // nothing would be acted on, or one message (y): there is no count to type
	}
	if !d.askTarget && !countOnly(k) {
		c.Flash("the count is typed in digits: " + human(int64(d.actCount())))
		return nil
	}
	// The input's blink command is dropped: the cursor stays solid, and a
	// frame is drawn only when something changes.
	d.typed, _ = d.typed.Update(k)
	switch {
	case d.askTarget:
		// A target typed: the next enter takes it and shows the dry run
		// (nothing runs yet), as a person who typed a name expects.
		d.onRun = strings.TrimSpace(d.typed.Value()) != "" || d.req.Op == ops.OpRequeue
	case d.confirmed():
		// The count is typed: the next enter runs, unless messages would
		// come back (R10f): then Cancel keeps the focus, and Run takes a tab.
		d.onRun = d.plan.Breakdown().Back() == 0
	}
	return nil
}

// close stops what the dialog runs and pops it; the polls held while it
// was open are folded then (App.Pop).
func (d *dialog) close(c common) tea.Cmd {
	if d.cancel != nil {
		d.cancel()
	}
	if d.phase == phasePlanning || d.phase == phaseConfirm {
		c.Flash(d.cancelWhy()) // every cancel says so: a closed dialog is not a silent one
	}
	return c.Pop()
}

// endRetarget is esc in a target input reopened over a dry run's result: back
// to that result, its target unchanged.
func (d *dialog) endRetarget(c common) {
	d.askTarget, d.retarget, d.onRun = false, false, false
	d.typed.Prompt = "count: "
	d.typed.SetValue("")
}
