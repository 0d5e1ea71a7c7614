package ui

import (
	"strings"

	"github.com/charmbracelet/bubbles/key"

	"github.com/poisonwatch/poisonwatch/model"
)

// screenKeys returns the bindings that work on the current screen, with the
// actions disabled when read-only or when no operations backend exists, so
// help never lists a key that does nothing.
func (a *App) screenKeys() []key.Binding {
	k := a.keys
	nav := []key.Binding{k.Up, k.Down, k.PgUp, k.PgDown, k.Home, k.End}
	acts := []key.Binding{k.Requeue, k.Move, k.Replay, k.Discard, k.Export}
	canAct := !a.opt.ReadOnly && a.opt.Ops != nil
	for i := range acts {
		// Export only browses: read-only mode allows it.
		acts[i].SetEnabled(canAct || (i == len(acts)-1 && a.opt.Ops != nil))
	}
	switch a.nav.Top().Screen {
	case model.ScreenDashboard:
		return append(nav, k.Enter, k.Tab, k.DeadQ)
	case model.ScreenTriage:
		return append(append(nav, k.Enter, k.Group, k.Tab, k.Mark), acts...)
	case model.ScreenQueue, model.ScreenGroup:
		return append(append(nav, k.Enter, k.Mark, k.MarkAll, k.Copy), acts...)
	case model.ScreenMessage:
		r := k.Reveal
		r.SetEnabled(a.opt.WarRoom)
		return append([]key.Binding{k.NextTab, k.PrevTab, k.Up, k.Down, k.PgUp, k.PgDown, k.Copy, r}, acts...)
	case model.ScreenAudit:
		return nav
	}
	return nil
}

func (a *App) globalKeys() []key.Binding {
	k := a.keys
	return []key.Binding{k.Back, k.Filter, k.Palette, k.DeadQ, k.Audit, k.Refresh, k.Freeze, k.Help, k.Quit}
}

// shortHelp is the footer: the few keys that matter most here.
func (a *App) shortHelp() []key.Binding {
	k := a.keys
	switch {
	case a.dialog != nil:
		return a.dialog.keys()
	case a.filter.active:
		return []key.Binding{key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "keep filter")), key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "clear"))}
	case a.showHelp:
		return []key.Binding{k.Help, k.Back}
	}
	out := []key.Binding{k.Enter}
	switch a.nav.Top().Screen {
	case model.ScreenDashboard:
		out = append(out, k.Tab, k.DeadQ)
	case model.ScreenTriage:
		out = append(out, k.Group, k.Mark, k.Requeue)
	case model.ScreenQueue, model.ScreenGroup:
		out = append(out, k.Mark, k.Move, k.Requeue)
	case model.ScreenMessage:
		out = []key.Binding{k.NextTab, k.Requeue, k.Move, k.Copy}
	}
	if a.opt.ReadOnly {
		out = out[:1]
	}
	return append(out, k.Back, k.Filter, k.Palette, k.Freeze, k.Help, k.Quit)
}

func (a *App) helpView(h int) string {
	var b strings.Builder
	b.WriteString(a.st.Title.Render(" Keys on this screen ("+a.nav.Top().Screen.String()+")") + "\n")
	b.WriteString(a.help.FullHelpView(chunk(a.screenKeys(), 7)) + "\n\n")
	b.WriteString(a.st.Title.Render(" Everywhere") + "\n")
	b.WriteString(a.help.FullHelpView(chunk(a.globalKeys(), 5)) + "\n\n")
	b.WriteString(a.st.Title.Render(" Command palette (:)") + "\n")
	b.WriteString(a.st.Muted.Render("  :dlq  :q QUEUE  :qm QMGR  :theme NAME  :audit  :freeze  :quit — fuzzy matched") + "\n")
	if a.opt.ReadOnly {
		b.WriteString("\n" + a.st.BadgeRO.Render(" Read-only: every action is refused by the engine and hidden here.") + "\n")
	}
	return fitHeight(b.String(), h)
}

func chunk(ks []key.Binding, n int) [][]key.Binding {
	var out [][]key.Binding
	for len(ks) > n {
		out = append(out, ks[:n])
		ks = ks[n:]
	}
	if len(ks) > 0 {
		out = append(out, ks)
	}
	return out
}
