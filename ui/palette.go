package ui

import (
	"strings"

	"github.com/charmbracelet/bubbles/textinput"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	"github.com/poisonwatch/poisonwatch/model"
	"github.com/poisonwatch/poisonwatch/mqwatch/mqfmt"
	"github.com/poisonwatch/poisonwatch/themes"
)

// palette is the ':' command palette: fuzzy over commands, queues, queue
// managers and themes.
type palette struct {
	active  bool
	input   textinput.Model
	items   []paletteItem
	matches []model.Match
	cursor  int
}

type paletteItem struct {
	label string // what is matched and shown: "q ORDERS.IN"
	help  string
	run   func(a *App) tea.Cmd
}

func newPalette() palette {
	ti := textinput.New()
	ti.Prompt = ":"
	ti.CharLimit = 100
	return palette{input: ti}
}

func (p *palette) open(items []paletteItem) {
	p.active, p.items, p.cursor = true, items, 0
	p.input.SetValue("")
	p.input.Focus()
	p.match()
}

func (p *palette) match() {
	p.matches = model.Filter(p.input.Value(), len(p.items), func(i int) string { return p.items[i].label })
	p.cursor = min(p.cursor, max(len(p.matches)-1, 0))
}

func (a *App) paletteItems() []paletteItem {
	items := []paletteItem{
		{"dlq", "open the dead-letter queue", func(a *App) tea.Cmd { return a.openDeadQ() }},
		{"alerts", "every queue manager's alerts, most severe first", func(a *App) tea.Cmd { return a.push(newAlertList()) }},
		{"audit", "this session's actions", func(a *App) tea.Cmd { return a.push(newAuditScreen(a.qm)) }},
		{"freeze", "pause or resume live updates", func(a *App) tea.Cmd { a.setFrozen(!a.frozen); return nil }},
		{"refresh", "poll now", func(a *App) tea.Cmd {
			if s := a.source(a.qm); s != nil {
				s.Refresh()
			}
			return nil
		}},
		{"help", "all keys", func(a *App) tea.Cmd { a.showHelp = true; return nil }},
		{"quit", "leave poisonwatch", func(a *App) tea.Cmd { return a.quit() }},
	}
	items = append(items, a.rulesPaletteItems()...)
	for _, qs := range a.current().SortedQueues() {
		name := qs.View.Info.Name
		items = append(items, paletteItem{"q " + name, qs.View.Role.String() + " queue", func(a *App) tea.Cmd {
			if s := a.queueScreenFor(name); s != nil {
				return a.jump(s)
			}
			return nil
		}})
	}
	for _, qm := range a.state.Order {
		items = append(items, paletteItem{"qm " + qm, "switch queue manager", func(a *App) tea.Cmd { return a.switchQMgr(qm) }})
	}
	for _, t := range themes.Names() {
		items = append(items, paletteItem{"theme " + t, "colour theme", func(a *App) tea.Cmd {
			if th, err := themes.Load(t); err == nil {
				a.setTheme(th)
			}
			return a.top().refresh(a)
		}})
	}
	return items
}

// switchQMgr shows another queue manager's dashboard, its table at the top.
func (a *App) switchQMgr(qm string) tea.Cmd {
	if s := a.source(a.qm); s != nil {
		s.SetFocus("") // stop browsing what the operator left
	}
	a.qm = qm
	a.sel.Clear()
	a.stack = []screen{newDashboard(qm)}
	return a.entered()
}

func (a *App) paletteKey(k tea.KeyMsg) tea.Cmd {
	p := &a.pal
	switch k.String() {
	case "esc":
		p.active = false
		return nil
	case "up", "ctrl+p":
		p.cursor = max(p.cursor-1, 0)
		return nil
	case "down", "ctrl+n", "tab":
		p.cursor = min(p.cursor+1, max(len(p.matches)-1, 0))
		return nil
	case "enter":
		p.active = false
		if cmd, ok := a.rulesCommand(p.input.Value()); ok {
			return cmd
		}
		if p.cursor < len(p.matches) {
			return p.items[p.matches[p.cursor].Index].run(a)
		}
		return nil
	}
	p.input, _ = p.input.Update(k)
	p.match()
	return nil
}

func (p *palette) view(st *Styles, w, h int) string {
	lines := []string{st.Title.Render(" Command palette") + st.Muted.Render("  (type to fuzzy-match · ↑/↓ · enter runs · esc closes)"), " " + p.input.View(), ""}
	for i, m := range p.matches {
		if len(lines) >= h {
			break
		}
		it := p.items[m.Index]
		label := highlight(st, mqfmt.Sanitize(it.label), m.Runes)
		line := "  " + label + st.Muted.Render("  "+it.help)
		if i == p.cursor {
			line = st.Selected.Render(ansi.Truncate("▸ "+ansi.Strip(label)+"  "+it.help, w, ""))
		}
		lines = append(lines, ansi.Truncate(line, w, "…"))
	}
	return strings.Join(lines, "\n")
}

// highlight styles the matched runes of s.
func highlight(st *Styles, s string, runes []int) string {
	if len(runes) == 0 {
		return s
	}
	hit := make(map[int]bool, len(runes))
	for _, r := range runes {
		hit[r] = true
	}
	var b strings.Builder
	i := 0
	for _, r := range s {
		if hit[i] {
			b.WriteString(st.Match.Render(string(r)))
		} else {
			b.WriteRune(r)
		}
		i++
	}
	return b.String()
}
