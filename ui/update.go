package ui

import (
	"strings"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/poisonwatch/poisonwatch/model"
)

// onKey routes a key: modal layers first (palette, filter, help), then the
// screen's bindings, then the global ones (none under a dialog, which takes
// what matches none of its keys as typing). A binding that is off says why
// instead of doing nothing.
func (a *App) onKey(k tea.KeyMsg) tea.Cmd {
	if k.Type == tea.KeyRunes && len(k.Runes) > 1 && !k.Paste {
		return a.onRunes(k)
	}
	if k.Type == tea.KeyEsc && k.Alt {
		// Two escapes in one read ("\x1b\x1b") reach Bubble Tea as alt+esc,
		// which nothing binds: they are two escapes, each going back.
		esc := tea.KeyMsg{Type: tea.KeyEsc}
		return tea.Sequence(a.onKey(esc), a.onKey(esc))
	}
	if k.String() == "ctrl+c" {
		return a.quit() // the way out that never asks
	}
	// A quit asked about is answered by the next key: q again quits, any
	// other key stays (quitOrAsk).
	if asked := a.quitAsked; asked {
		defer func() { a.quitAsked = false }()
	}
	a.flash = ""
	switch {
	case a.pal.active:
		return a.pal.key(a, k)
	case a.filter.active:
		a.filter.key(k)
		if s, ok := a.top().(scroller); ok {
			s.scroll(-1 << 30) // a new filter starts at the top
		}
		return a.Refresh()
	case a.showHelp:
		if key.Matches(k, a.keys.Help, a.keys.Back, a.keys.Quit) {
			a.showHelp = false
		}
		return nil
	}
	for _, b := range a.activeBindings() {
		if !key.Matches(k, b.Binding) {
			continue
		}
		if r := b.reason(); r != "" {
			a.flash = r
			return nil
		}
		return b.do()
	}
	if m, ok := a.top().(modal); ok {
		return m.typeKey(a, k)
	}
	return nil
}

// onRunes handles keys that arrived together (typed fast, a held key, an SSH
// link that delivers several keystrokes in one read) one at a time, as if
// pressed one by one: "jjj" moves three rows, ":rules" opens the palette and
// types into it. A paste is not split: it goes whole to the input that has
// the focus.
func (a *App) onRunes(k tea.KeyMsg) tea.Cmd {
	var cmds []tea.Cmd
	for _, r := range k.Runes {
		cmds = append(cmds, a.onKey(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune{r}, Alt: k.Alt}))
	}
	return tea.Sequence(cmds...)
}

// activeBindings: the screen's keys first (they may take a global key such
// as tab), then the keys that work everywhere.
func (a *App) activeBindings() []binding {
	if _, ok := a.top().(modal); ok {
		return a.top().bindings(a)
	}
	return append(a.top().bindings(a), a.globalBindings()...)
}

func (a *App) quit() tea.Cmd {
	if d := a.actionDialog(); d != nil && d.cancel != nil {
		d.cancel()
	}
	return tea.Quit
}

// quitOrAsk is q: it quits at once unless something would be lost that
// the session cannot get back, marks or a seat in the war room; then it
// asks, and q again quits (k9s users press q to go back). ctrl+c never
// asks.
func quitOrAsk(a *App) tea.Cmd {
	var lost []string
	if n := a.sess.marks.Len(); n > 0 {
		lost = append(lost, human(int64(n))+" marked message(s)")
	}
	if a.opt.Room != nil {
		seat := "your seat in the war room"
		if m := a.room.member(a.room.st.Self); m != nil && m.Driving {
			seat += " (you have the wheel)"
		}
		lost = append(lost, seat)
	}
	if len(lost) == 0 || a.quitAsked {
		return a.quit()
	}
	a.quitAsked = true
	a.flash = "quit? " + strings.Join(lost, " and ") + " would be lost: q again quits, any other key stays (esc goes back)"
	return nil
}

// globalBindings are the keys that work on every screen.
func (a *App) globalBindings() []binding {
	k := a.keys
	return append(append(a.roomBindings(), a.playback.bindings(a)...),
		bind(k.Back, a.back, short),
		bind(k.Filter, run(func() { a.filter.open(filterOf(a.top())) }), short,
			offIf(func() bool { return filterOf(a.top()) == nil }, "this screen has no filter")),
		bind(k.Palette, run(func() { a.pal.open(a.paletteItems()) }), short),
		bind(k.DeadQ, func() tea.Cmd { return openDeadQ(a) }, named("dlq")),
		bind(k.Audit, func() tea.Cmd { return a.Push(newAuditScreen(a.here())) }, named("audit")),
		bind(k.Alerts, func() tea.Cmd { return a.Push(newAlertList()) }, named("alerts")),
		bind(k.Fleet, a.openFleet, named("fleet"), offIf(func() bool {
			s := a.top().location().Screen
			return s == model.ScreenFleet || s == screenRemoteFleet
		}, "this is the fleet view"),
			func(b *binding) { b.short = len(a.state.Order) > 1 }), // the footer says how to reach the others
		bind(k.Refresh, run(func() {
			if _, ok := a.top().(*remoteFleetScreen); ok {
				a.opt.Fleet.Refresh() // the fleet view reads Prometheus, not a queue manager
			} else {
				pollNow(&a.opt, a.qm)
			}
			a.flash = "refresh requested"
		}), named("refresh")),
		bind(k.Freeze, func() tea.Cmd {
			// Resuming folds what arrived meanwhile.
			if a.sess.frozen = !a.sess.frozen; a.sess.frozen {
				return nil
			}
			return a.unhold()
		}, short, named("freeze")),
		bind(k.Help, run(func() { a.showHelp = true }), short, named("help")),
		bind(k.Quit, func() tea.Cmd { return quitOrAsk(a) }, short, named("quit")),
	)
}

// back clears the screen's filter first, then pops the navigation stack.
func (a *App) back() tea.Cmd {
	if f := filterOf(a.top()); f != nil && *f != "" {
		*f = ""
		return refresh(a.top(), a)
	}
	return a.Pop()
}

// focusChanged tells the watcher which queue is open so it browses it.
func (a *App) focusChanged() {
	s := sourceOf(&a.opt, a.qm)
	if s == nil {
		return
	}
	loc := a.top().location()
	if kinds[loc.Screen].browses {
		s.SetFocus(loc.Queue)
		return
	}
	s.SetFocus("")
}

func (a *App) onMouse(m tea.MouseMsg) tea.Cmd {
	if a.pal.active || a.showHelp {
		return nil
	}
	s, ok := a.top().(scroller)
	switch {
	case !ok:
	case m.Button == tea.MouseButtonWheelUp:
		s.scroll(-3)
	case m.Button == tea.MouseButtonWheelDown:
		s.scroll(3)
	}
	return nil
}
