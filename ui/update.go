package ui

import (
	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/poisonwatch/poisonwatch/model"
)

// onKey routes a key: modal layers first (dialog, palette, filter, help),
// then global keys, then the screen's own.
func (a *App) onKey(k tea.KeyMsg) tea.Cmd {
	if k.String() == "ctrl+c" {
		return a.quit()
	}
	a.flash = ""
	switch {
	case a.dialog != nil:
		return a.dialogKey(k)
	case a.pal.active:
		return a.paletteKey(k)
	case a.filter.active:
		a.filterKey(k)
		return nil
	case a.showHelp:
		if key.Matches(k, a.keys.Help, a.keys.Back, a.keys.Quit) {
			a.showHelp = false
		}
		return nil
	}
	if cmd, ok := a.globalKey(k); ok {
		return cmd
	}
	return a.screenKey(k)
}

func (a *App) quit() tea.Cmd {
	if a.dialog != nil && a.dialog.cancel != nil {
		a.dialog.cancel()
	}
	return tea.Quit
}

func (a *App) globalKey(k tea.KeyMsg) (tea.Cmd, bool) {
	switch {
	case key.Matches(k, a.keys.Quit):
		return a.quit(), true
	case key.Matches(k, a.keys.Help):
		a.showHelp = true
	case key.Matches(k, a.keys.Palette):
		a.pal.open(a.paletteItems())
	case key.Matches(k, a.keys.Filter):
		a.filter.open(a.nav.Top().Screen)
	case key.Matches(k, a.keys.Freeze):
		a.setFrozen(!a.frozen)
	case key.Matches(k, a.keys.Refresh):
		if s := a.source(a.qm); s != nil {
			s.Refresh()
		}
		a.flash = "refresh requested"
	case key.Matches(k, a.keys.Back):
		a.back()
	case key.Matches(k, a.keys.Audit):
		a.nav.Push(model.Location{Screen: model.ScreenAudit, QMgr: a.qm})
	case key.Matches(k, a.keys.DeadQ):
		a.openDeadQ()
	default:
		return nil, false
	}
	return nil, true
}

// back clears an active filter first, then pops the navigation stack.
func (a *App) back() {
	scr := a.nav.Top().Screen
	if a.filter.value(scr) != "" {
		a.filter.clear(scr)
		a.refreshScreens()
		return
	}
	if a.nav.Pop() {
		if a.nav.Top().Queue != a.selQueue {
			a.sel.Clear()
		}
		a.focusChanged()
		a.refreshScreens()
	}
}

// focusChanged tells the watcher which queue is open so it browses it.
func (a *App) focusChanged() {
	s := a.source(a.qm)
	if s == nil {
		return
	}
	top := a.nav.Top()
	switch top.Screen {
	case model.ScreenQueue, model.ScreenTriage, model.ScreenGroup, model.ScreenMessage:
		s.SetFocus(top.Queue)
	default:
		s.SetFocus("")
	}
}

func (a *App) openQueue(name string) {
	q := a.current()
	qs := q.Queues[name]
	if qs == nil {
		a.flash = "no such queue: " + name
		return
	}
	scr := model.ScreenQueue
	if q.Groups[name] != nil {
		scr = model.ScreenTriage
	}
	a.nav.Push(model.Location{Screen: scr, QMgr: a.qm, Queue: name})
	if name != a.selQueue {
		a.sel.Clear()
	}
	a.focusChanged()
	a.refreshScreens()
}

func (a *App) openDeadQ() {
	q := a.current()
	if q.Snap == nil || q.Snap.QMgr.DeadQ == "" {
		a.flash = "this queue manager has no dead-letter queue (ALTER QMGR DEADQ)"
		return
	}
	a.openQueue(q.Snap.QMgr.DeadQ)
}

func (a *App) screenKey(k tea.KeyMsg) tea.Cmd {
	top := a.nav.Top()
	switch top.Screen {
	case model.ScreenDashboard:
		return a.dashKey(k)
	case model.ScreenQueue, model.ScreenGroup:
		return a.queueKey(k, top)
	case model.ScreenTriage:
		return a.triageKey(k, top)
	case model.ScreenMessage:
		return a.detailKey(k)
	case model.ScreenAudit:
		a.moveGrid(&a.audit.grid, k)
	}
	return nil
}

// moveGrid applies the navigation keys every list shares.
func (a *App) moveGrid(g *Grid, k tea.KeyMsg) bool {
	switch {
	case key.Matches(k, a.keys.Up):
		g.Move(-1)
	case key.Matches(k, a.keys.Down):
		g.Move(1)
	case key.Matches(k, a.keys.PgUp):
		g.Page(-1)
	case key.Matches(k, a.keys.PgDown):
		g.Page(1)
	case key.Matches(k, a.keys.Home):
		g.Home()
	case key.Matches(k, a.keys.End):
		g.End()
	default:
		return false
	}
	return true
}

func (a *App) onMouse(m tea.MouseMsg) tea.Cmd {
	var d int
	switch m.Button {
	case tea.MouseButtonWheelUp:
		d = -3
	case tea.MouseButtonWheelDown:
		d = 3
	default:
		return nil
	}
	if g := a.activeGrid(); g != nil {
		g.Move(d)
	}
	return nil
}

func (a *App) activeGrid() *Grid {
	switch a.nav.Top().Screen {
	case model.ScreenDashboard:
		return &a.dash.grid
	case model.ScreenQueue, model.ScreenGroup:
		return &a.queue.grid
	case model.ScreenTriage:
		return &a.triage.grid
	case model.ScreenAudit:
		return &a.audit.grid
	}
	return nil
}
