package ui

import (
	"github.com/charmbracelet/bubbles/textinput"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/poisonwatch/poisonwatch/model"
)

// filterInput is the live fuzzy filter of the current list; each screen keeps
// its own filter text so going back restores what the operator was looking at.
type filterInput struct {
	active bool
	screen model.Screen
	input  textinput.Model
	values map[model.Screen]string
}

func newFilterInput() filterInput {
	ti := textinput.New()
	ti.Prompt = "/"
	ti.CharLimit = 120
	return filterInput{input: ti, values: map[model.Screen]string{}}
}

func (f *filterInput) open(s model.Screen) {
	f.active, f.screen = true, s
	f.input.SetValue(f.values[s])
	f.input.CursorEnd()
	f.input.Focus()
}

func (f *filterInput) value(s model.Screen) string { return f.values[s] }

func (f *filterInput) clear(s model.Screen) { delete(f.values, s) }

func (f *filterInput) view() string {
	if f.active {
		return f.input.View()
	}
	return "/" + f.values[f.screen]
}

// filterKey: while the filter has focus every key goes to it except esc
// (clear and close) and enter (keep and close).
func (a *App) filterKey(k tea.KeyMsg) {
	f := &a.filter
	switch k.String() {
	case "esc":
		f.active = false
		f.input.Blur()
		f.clear(f.screen)
	case "enter":
		f.active = false
		f.input.Blur()
	default:
		f.input, _ = f.input.Update(k)
		f.values[f.screen] = f.input.Value()
	}
	a.activeGridHome()
	a.refreshScreens()
}

func (a *App) activeGridHome() {
	if g := a.activeGrid(); g != nil {
		g.Home()
	}
}
