package ui

import (
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
		return a.quit()
	}
	a.flash = ""
	switch {
	case a.pal.active:
		return a.paletteKey(k)
	case a.filter.active:
		return a.filterKey(k)
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
	if d := a.activeDialog(); d != nil && d.cancel != nil {
		d.cancel()
	}
	return tea.Quit
}

// globalBindings are the keys that work on every screen.
func (a *App) globalBindings() []binding {
	k := a.keys
	return append(append(a.roomBindings(), a.replayBindings()...),
		bind(k.Back, a.back, short),
		bind(k.Filter, run(func() { a.filter.open(a.top().filter()) }), short,
			offIf(func() bool { return a.top().filter() == nil }, "this screen has no filter")),
		bind(k.Palette, run(func() { a.pal.open(a.paletteItems()) }), short),
		bind(k.DeadQ, a.openDeadQ, named("dlq")),
		bind(k.Audit, func() tea.Cmd { return a.push(newAuditScreen(a.here())) }, named("audit")),
		bind(k.Alerts, func() tea.Cmd { return a.push(newAlertList()) }, named("alerts")),
		bind(k.Fleet, a.openFleet, named("fleet"), offIf(func() bool { return a.top().location().Screen == model.ScreenFleet }, "this is the fleet view")),
		bind(k.Refresh, run(func() {
			if s := a.source(a.qm); s != nil {
				s.Refresh()
			}
			a.flash = "refresh requested"
		}), named("refresh")),
		bind(k.Freeze, func() tea.Cmd { return a.setFrozen(!a.frozen) }, short, named("freeze")),
		bind(k.Help, run(func() { a.showHelp = true }), short, named("help")),
		bind(k.Quit, a.quit, short, named("quit")),
	)
}

// back clears the screen's filter first, then pops the navigation stack.
func (a *App) back() tea.Cmd {
	if f := a.top().filter(); f != nil && *f != "" {
		*f = ""
		return a.top().refresh(a)
	}
	return a.pop()
}

// focusChanged tells the watcher which queue is open so it browses it.
func (a *App) focusChanged() {
	s := a.source(a.qm)
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

// queueScreenFor builds the screen a queue opens on: triage for a DEADQ or
// BOQ, the message list otherwise; nil when the queue is unknown.
func (a *App) queueScreenFor(name string) screen {
	q := a.current()
	if q.Queues[name] == nil {
		a.flash = "no such queue: " + name
		return nil
	}
	if q.Groups[name] != nil {
		return newTriageScreen(a.qm, name)
	}
	return newQueueScreen(model.Location{Screen: model.ScreenQueue, QMgr: a.qm, Queue: name})
}

func (a *App) openQueue(name string) tea.Cmd {
	if s := a.queueScreenFor(name); s != nil {
		return a.push(s)
	}
	return nil
}

// openDeadQ jumps to the DEADQ: Dashboard › DEADQ, whatever was open.
func (a *App) openDeadQ() tea.Cmd {
	q := a.current()
	if q.Snap == nil || q.Snap.QMgr.DeadQ == "" {
		a.flash = "this queue manager has no dead-letter queue (ALTER QMGR DEADQ)"
		return nil
	}
	if s := a.queueScreenFor(q.Snap.QMgr.DeadQ); s != nil {
		return a.jump(s)
	}
	return nil
}

func (a *App) onMouse(m tea.MouseMsg) tea.Cmd {
	if a.pal.active || a.showHelp {
		return nil
	}
	switch m.Button {
	case tea.MouseButtonWheelUp:
		a.top().scroll(-3)
	case tea.MouseButtonWheelDown:
		a.top().scroll(3)
	}
	return nil
}
