package ui

import (
	"cmp"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/x/ansi"
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
	w := a.width
	var b strings.Builder
	b.WriteString(a.st.Title.Render(" Keys on this screen ("+a.top().location().Screen.String()+")") + "\n")
	b.WriteString(a.keyColumns(listed(a.top().bindings(a), taken, false), w) + "\n")
	if n, ok := a.top().(noter); ok {
		// What the screen's columns mean and what its other pane does: a
		// word such as STUCK is explained where its key list is.
		b.WriteString(a.st.Title.Render(" On this screen") + "\n")
		for _, note := range n.helpNotes(a) {
			b.WriteString(a.st.Base.Render(wrapWords(note, w-4, "  ")) + "\n")
		}
	}
	if _, ok := a.top().(modal); !ok { // a dialog takes every key: nothing else works under it
		b.WriteString(a.st.Title.Render(" Everywhere") + "\n")
		b.WriteString(a.keyColumns(listed(a.globalBindings(), taken, false), w) + "\n")
		b.WriteString(a.st.Title.Render(" Command palette (:), fuzzy matched") + "\n")
		b.WriteString(a.st.Muted.Render(wrapWords(a.paletteCommands(), w-2, "  ")) + "\n")
	}
	if a.opt.ReadOnly {
		b.WriteString(a.st.BadgeRO.Render(ansi.Truncate(" Read-only: every action is refused by the engine and hidden here.", w, "…")) + "\n")
	}
	out := strings.Split(strings.TrimRight(b.String(), "\n"), "\n")
	if len(out) > h && h > 0 {
		// Never cut silently: say that more keys exist than fit.
		out = append(out[:h-1], a.st.Muted.Render(ansi.Truncate(" … more keys than fit: a taller terminal shows them all", w, "…")))
	}
	return fitHeight(strings.Join(out, "\n"), h)
}

// keyColumns lays keys out in as many columns as the width takes, filled
// top to bottom, each column as wide as its widest entry, so nothing is cut
// at 80 columns and a wide terminal needs few rows. Only a description too
// long for one column of the whole width is cut with "…".
func (a *App) keyColumns(ks []key.Binding, w int) string {
	if len(ks) == 0 {
		return a.st.Muted.Render("  (none)")
	}
	keyW := 0
	for _, k := range ks {
		keyW = max(keyW, ansi.StringWidth(k.Help().Key))
	}
	entryW := func(k key.Binding) int { return keyW + 2 + ansi.StringWidth(k.Help().Desc) }
	rows, widths := len(ks), []int{0}
	for cols := len(ks); cols > 1; cols-- {
		r := (len(ks) + cols - 1) / cols
		ws := make([]int, (len(ks)+r-1)/r)
		for i, k := range ks {
			ws[i/r] = max(ws[i/r], entryW(k))
		}
		total := 2 + 3*(len(ws)-1)
		for _, cw := range ws {
			total += cw
		}
		if total <= w {
			rows, widths = r, ws
			break
		}
	}
	lines := make([]string, rows)
	for i, k := range ks {
		r, c := i%rows, i/rows
		kk, desc := k.Help().Key, k.Help().Desc
		entry := a.st.Key.Render(kk+strings.Repeat(" ", keyW-ansi.StringWidth(kk))) + "  " + a.st.Base.Render(desc)
		if c < len(widths)-1 {
			entry += strings.Repeat(" ", widths[c]-entryW(k)+3)
		}
		lines[r] += entry
	}
	for i := range lines {
		lines[i] = ansi.Truncate("  "+lines[i], w, "…")
	}
	return strings.Join(lines, "\n")
}

// paletteCommands lists the palette's commands from its items, so the help
// never names a command the palette lacks: commands that take a name are
// shown once with what they take (":q QUEUE").
func (a *App) paletteCommands() string {
	arg := map[string]string{"q": "QUEUE", "qm": "QMGR", "theme": "NAME", "rules": "FILE|show|off"}
	seen := map[string]bool{}
	var out []string
	for _, it := range a.paletteItems() {
		word, _, more := strings.Cut(it.label, " ")
		if seen[word] {
			continue
		}
		seen[word] = true
		if more {
			out = append(out, ":"+word+" "+cmp.Or(arg[word], "…"))
		} else {
			out = append(out, ":"+word)
		}
	}
	return strings.Join(out, "  ")
}

// noter is a screen whose help says more than its keys: what its columns
// mean, what its other pane does, how to reach what it does not show.
type noter interface {
	helpNotes(c common) []string
}

// wrapWords wraps text at w columns, each line after indent.
func wrapWords(text string, w int, indent string) string {
	return indent + strings.ReplaceAll(ansi.Wrap(text, max(w, 20), " "), "\n", "\n"+indent)
}
