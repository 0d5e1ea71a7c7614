package ui

import (
	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/poisonwatch/poisonwatch/model"
)

// screen is one entry of the navigation stack. It owns its state (cursor,
// filter, the message it shows), declares its keys next to what they do, and
// renders without changing anything. Every screen reads the queue manager,
// queue and message named by its own location, so what the breadcrumb says
// and what the screen shows and acts on cannot differ. What a screen may
// also do is an interface of its own below (refresher, resizer, scroller,
// filterer, gridded, receiver, modal): a screen implements only those it
// needs.
type screen interface {
	location() *model.Location
	// bindings are the screen's keys, each with the condition that turns it
	// off; help and the footer are built from them.
	bindings(c common) []binding
	view(c common, w, h int) string
}

// refresher is a screen that takes the queue manager's new state (keeping
// its cursor) and returns the command it starts, if any.
type refresher interface {
	refresh(c common) tea.Cmd
}

// resizer is a screen that fits itself into the body's w×h.
type resizer interface {
	resize(c common, w, h int)
}

// scroller is a screen the mouse wheel moves, by d rows.
type scroller interface {
	scroll(d int)
}

// filterer is a screen with a filter (/): the text it filters by.
type filterer interface {
	filter() *string
}

// gridded is a screen whose cursor moves on a grid: the row a war-room
// follower mirrors and points at.
type gridded interface {
	cursorGrid() *Grid
}

// receiver is a screen (or a screen's form) that takes the results of the
// commands it started (a dry run, a run's progress, a filter's scan), as a
// Bubble Tea child model's Update does; took says the message was its
// (it carries the screen's identity: its seq, or the screen itself).
// App.receive offers each result to the screens on the stack, top first,
// then to those still watching an outcome; a result nobody takes is
// dropped.
type receiver interface {
	receive(c common, msg tea.Msg) (cmd tea.Cmd, took bool)
}

// awaiter is what may still await an outcome after its screen left the
// stack: a fix dialog checking for its alert to clear, a define or a
// prediction sent. Kept in the session's watching list (session.watch),
// it is offered results and polls (polledMsg) until it awaits nothing.
type awaiter interface {
	receiver
	awaiting() bool
}

// refresh gives s the new state when it takes it.
func refresh(s screen, c common) tea.Cmd {
	if r, ok := s.(refresher); ok {
		return r.refresh(c)
	}
	return nil
}

// filterOf is s's filter text, nil when it has none.
func filterOf(s screen) *string {
	if f, ok := s.(filterer); ok {
		return f.filter()
	}
	return nil
}

// gridOf is the grid s's cursor moves on, nil when it has none.
func gridOf(s screen) *Grid {
	if g, ok := s.(gridded); ok {
		return g.cursorGrid()
	}
	return nil
}

// base is where a screen is; every screen embeds it.
type base struct {
	loc model.Location
}

func (b *base) location() *model.Location { return &b.loc }

// filterText is the filter of a screen that has one: embedded, it makes
// the screen a filterer.
type filterText struct {
	text string
}

func (f *filterText) filter() *string { return &f.text }

// binding is one key with what it does and when it does nothing. Declaring
// both in one place keeps help, the footer and the handler in step: a key
// cannot be handled without being listed, nor listed without working.
type binding struct {
	key.Binding
	// off says why the key does nothing now ("" when it works); pressing it
	// then flashes the reason instead of silently doing nothing.
	off func() string
	do  func() tea.Cmd
	// short puts the key in the footer.
	short bool
	// hide keeps a disabled key out of help (actions in read-only mode).
	hide bool
	// cmd is the binding's word in the command palette (":audit"), ""
	// when it has none: the palette runs the same declaration as the key.
	cmd string
}

func (b binding) reason() string {
	if b.off == nil {
		return ""
	}
	return b.off()
}

// hideIf keeps a key out of help while cond holds (v where nothing is
// masked); pressed anyway, it still says why it does nothing.
func hideIf(cond bool) func(*binding) { return func(b *binding) { b.hide = cond } }

// bind declares a binding; options set off/short/hide.
func bind(k key.Binding, do func() tea.Cmd, opts ...func(*binding)) binding {
	b := binding{Binding: k, do: do}
	for _, o := range opts {
		o(&b)
	}
	return b
}

func short(b *binding) { b.short = true }

// named lists the binding in the command palette as word.
func named(word string) func(*binding) { return func(b *binding) { b.cmd = word } }

// offWhen turns a binding off with a reason.
func offWhen(reason func() string) func(*binding) {
	return func(b *binding) { b.off = reason }
}

// offIf turns a binding off with reason while cond holds.
func offIf(cond func() bool, reason string) func(*binding) {
	return offWhen(func() string {
		if cond() {
			return reason
		}
		return ""
	})
}

// run wraps a func without a command.
func run(f func()) func() tea.Cmd { return func() tea.Cmd { f(); return nil } }

// top is the screen on view.
func (a *App) top() screen { return a.stack[len(a.stack)-1] }

// Push opens a screen on top of the stack. A screen already on view is not
// stacked on itself (a second a or A): esc would only show it again.
func (a *App) Push(s screen) tea.Cmd {
	if sameLocation(*a.top().location(), *s.location()) {
		return refresh(a.top(), a)
	}
	a.stack = append(a.stack, s)
	return a.entered()
}

// here is the queue manager of the screen on view: the one its keys act on.
// An alert opened from the all-alerts view belongs to its own queue manager,
// whichever the header has selected.
func (a *App) here() string {
	if q := a.top().location().QMgr; q != "" {
		return q
	}
	return a.qm
}

// Jump replaces everything above the dashboard with s: for keys that go
// somewhere (the DEADQ, a queue from the palette) rather than deeper. From
// the fleet view, the current queue manager's dashboard comes in between.
func (a *App) Jump(s screen) tea.Cmd {
	base := len(a.fleetRoot())
	if len(a.stack) <= base {
		a.stack = append(a.stack[:base], newDashboard(a.qm))
	}
	a.stack = a.stack[:base+1]
	if s == nil {
		return a.entered()
	}
	return a.Push(s)
}

// fleetRoot is what sits under the dashboard: the fleet view when it is the
// first screen (more than fleetFirstAbove queue managers, or the fleet
// read from Prometheus), else nothing.
func (a *App) fleetRoot() []screen {
	switch a.stack[0].(type) {
	case *fleetScreen, *remoteFleetScreen:
		if a.fleetFirst {
			return []screen{a.stack[0]}
		}
	}
	return nil
}

// openFleet goes to the fleet view: back down to it when it is the first
// screen, else on top of the screen on view (esc returns there).
func (a *App) openFleet() tea.Cmd {
	if root := a.fleetRoot(); root != nil {
		a.stack = root
		return a.entered()
	}
	return a.Push(newFleetScreen())
}

// Pop goes back to what was on view before the last push. Closing the
// action dialog folds the polls held while it was open.
func (a *App) Pop() tea.Cmd {
	if len(a.stack) == 1 {
		return nil
	}
	gone := a.top()
	a.stack[len(a.stack)-1] = nil
	a.stack = a.stack[:len(a.stack)-1]
	cmd := a.entered()
	if _, ok := gone.(*dialog); ok {
		return tea.Batch(cmd, a.unhold())
	}
	return cmd
}

// SwitchQMgr shows another queue manager's dashboard, its table at the
// top; with the fleet view first, above it, so esc goes back to the fleet.
func (a *App) SwitchQMgr(qm string) tea.Cmd {
	if s := sourceOf(&a.opt, a.qm); s != nil {
		s.SetFocus("") // stop browsing what the operator left
	}
	a.qm = qm
	a.sess.marks.Clear()
	a.stack = append(a.fleetRoot(), newDashboard(qm))
	return a.entered()
}

// entered brings the new top screen up to date.
func (a *App) entered() tea.Cmd {
	if a.top().location().Queue != a.sess.markQueue {
		a.sess.marks.Clear()
	}
	a.focusChanged()
	s := a.top()
	if r, ok := s.(resizer); ok {
		r.resize(a, a.width, a.bodyHeight())
	}
	return refresh(s, a)
}

// crumbs lists the titles of the stack, bottom first.
func (a *App) crumbs() []string {
	out := make([]string, len(a.stack))
	for i, s := range a.stack {
		out[i] = s.location().Title()
	}
	return out
}
