package ui

import (
	"strings"

	"github.com/charmbracelet/bubbles/key"
)

// listed turns bindings into what help shows: the hidden ones (actions in
// read-only mode) left out, a key taken by the screen not listed again
// under the global keys.
func listed(bs []binding, taken map[string]bool, onlyShort bool) []key.Binding {
	var out []key.Binding
	for _, b := range bs {
		k := b.Help().Key
		if b.hide || taken[k] || (onlyShort && (!b.short || b.reason() != "")) {
			continue
		}
		taken[k] = true
		out = append(out, b.Binding)
	}
	return out
}

// shortHelp is the footer: the short keys of the screen that work now, then
// the global ones; derived from the same declarations as the handlers.
func (a *App) shortHelp() []key.Binding {
	k := a.keys
	switch {
	case a.filter.active:
		return []key.Binding{key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "keep filter")), key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "clear"))}
	case a.showHelp:
		return []key.Binding{k.Help, k.Back}
	}
	return listed(a.activeBindings(), map[string]bool{}, true)
}

func (a *App) helpView(h int) string {
	taken := map[string]bool{}
	var b strings.Builder
	b.WriteString(a.st.Title.Render(" Keys on this screen ("+a.top().location().Screen.String()+")") + "\n")
	b.WriteString(a.help.FullHelpView(chunk(listed(a.top().bindings(a), taken, false), 7)) + "\n\n")
	b.WriteString(a.st.Title.Render(" Everywhere") + "\n")
	b.WriteString(a.help.FullHelpView(chunk(listed(a.globalBindings(), taken, false), 5)) + "\n\n")
	b.WriteString(a.st.Title.Render(" Command palette (:)") + "\n")
	b.WriteString(a.st.Muted.Render("  :dlq  :alerts  :q QUEUE  :qm QMGR  :theme NAME  :audit  :freeze  :quit — fuzzy matched") + "\n")
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
