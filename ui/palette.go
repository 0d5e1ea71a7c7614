package ui

import (
	"strings"

	"github.com/charmbracelet/bubbles/textinput"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	"github.com/poisonwatch/poisonwatch/codec/mqfmt"
	"github.com/poisonwatch/poisonwatch/model"
	"github.com/poisonwatch/poisonwatch/themes"
)

// palette is the ':' command palette: fuzzy over commands, queues, queue
// managers and themes. enter runs the highlighted entry, nothing else: a
// full command typed with its argument (":rules /path/t.rules") is itself
// the first entry, highlighted, so what runs is always what is marked.
type palette struct {
	active  bool
	input   textinput.Model
	items   []paletteItem
	matches []model.Match
	// typed is the command as typed, when it is a full one; it is listed
	// first (entry 0).
	typed  *paletteItem
	cursor int
}

type paletteItem struct {
	label string // what is matched and shown: "q ORDERS.IN"
	help  string
	run   func(c common) tea.Cmd
}

func newPalette() palette {
	ti := textinput.New()
	ti.Prompt = ":"
	ti.CharLimit = 100
	return palette{input: ti}
}

func (p *palette) open(items []paletteItem) {
	p.active, p.items, p.cursor, p.typed = true, items, 0, nil
	p.input.SetValue("")
	p.input.Focus()
	p.match(nil)
}

// match fuzzy-matches the input; an entry whose label is exactly the input
// comes first, and a full command typed (typed, nil if none) before all.
func (p *palette) match(typed *paletteItem) {
	q := strings.TrimSpace(p.input.Value())
	p.matches = model.Filter(p.input.Value(), len(p.items), func(i int) string { return p.items[i].label })
	for i, m := range p.matches {
		if p.items[m.Index].label == q {
			exact := p.matches[i]
			copy(p.matches[1:i+1], p.matches[:i])
			p.matches[0] = exact
			typed = nil // the entry itself is the command
			break
		}
	}
	p.typed = typed
	p.cursor = min(p.cursor, max(p.count()-1, 0))
}

// count is the number of entries listed.
func (p *palette) count() int {
	if p.typed != nil {
		return len(p.matches) + 1
	}
	return len(p.matches)
}

// entry is the i-th entry listed and the runes its label matched.
func (p *palette) entry(i int) (*paletteItem, []int) {
	if p.typed != nil {
		if i == 0 {
			return p.typed, nil
		}
		i--
	}
	m := p.matches[i]
	return &p.items[m.Index], m.Runes
}

// paletteItems are what the palette lists: the commands of the keys on
// view, the registered screens, the rules table's, the queues, the queue
// managers and the themes.
func (a *App) paletteItems() []paletteItem {
	items := append(boundCommands(a.activeBindings()), kindCommands()...)
	items = append(items, rulesPaletteItems(a.sess.rules, a.sess.noFiles())...)
	for _, qs := range a.current().SortedQueues() {
		name := qs.View.Info.Name
		items = append(items, paletteItem{"q " + name, qs.View.Role.String() + " queue", func(c common) tea.Cmd {
			if s := queueScreenFor(c, name); s != nil {
				return c.Jump(s)
			}
			return nil
		}})
	}
	for _, qm := range a.state.Order {
		items = append(items, paletteItem{"qm " + qm, "switch queue manager", func(c common) tea.Cmd { return c.SwitchQMgr(qm) }})
	}
	for _, t := range themes.Names() {
		items = append(items, paletteItem{"theme " + t, "colour theme", func(common) tea.Cmd {
			if th, err := themes.Load(t); err == nil {
				a.setTheme(th)
			}
			return refresh(a.top(), a)
		}})
	}
	return items
}

// boundCommands are the palette entries of the keys on view that have a
// word (named): the same declaration runs for ":audit" and for A, and one
// that is off says why, as its key does.
func boundCommands(bs []binding) []paletteItem {
	var out []paletteItem
	seen := map[string]bool{}
	for _, b := range bs {
		if b.cmd == "" || seen[b.cmd] {
			continue
		}
		seen[b.cmd] = true
		out = append(out, paletteItem{b.cmd, b.Help().Desc, func(c common) tea.Cmd {
			if r := b.reason(); r != "" {
				c.Flash(r)
				return nil
			}
			return b.do()
		}})
	}
	return out
}

// key is a key typed while the palette is open.
func (p *palette) key(c common, k tea.KeyMsg) tea.Cmd {
	switch k.String() {
	case "esc":
		p.active = false
		return nil
	case "up", "ctrl+p":
		p.cursor = max(p.cursor-1, 0)
		return nil
	case "down", "ctrl+n", "tab":
		p.cursor = min(p.cursor+1, max(p.count()-1, 0))
		return nil
	case "enter":
		p.active = false
		if p.cursor < p.count() {
			it, _ := p.entry(p.cursor)
			return it.run(c)
		}
		return nil
	}
	p.input, _ = p.input.Update(k)
	p.match(typedCommand(c.Session().rules, p.input.Value()))
	return nil
}

func (p *palette) view(st *Styles, w, h int) string {
	lines := []string{st.Title.Render(" Command palette") + st.Muted.Render("  (type to fuzzy-match · ↑/↓ · enter runs · esc closes)"), " " + p.input.View(), ""}
	for i := 0; i < p.count(); i++ {
		if len(lines) >= h {
			break
		}
		it, runes := p.entry(i)
		label := highlight(st, mqfmt.Sanitize(it.label), runes)
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
