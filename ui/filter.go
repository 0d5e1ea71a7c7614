package ui

import (
	"github.com/charmbracelet/bubbles/textinput"
	tea "github.com/charmbracelet/bubbletea"
)

// filterInput is the live fuzzy filter of the current list. The text lives in
// the screen, so going back restores what the operator was looking at.
type filterInput struct {
	active bool
	target *string
	input  textinput.Model
}

func newFilterInput() filterInput {
	ti := textinput.New()
	ti.Prompt = "/"
	ti.CharLimit = 120
	return filterInput{input: ti}
}

func (f *filterInput) open(target *string) {
	if target == nil {
		return
	}
	f.active, f.target = true, target
	f.input.SetValue(*target)
	f.input.CursorEnd()
	f.input.Focus()
}

// view shows the input while typing, else the screen's kept filter.
func (f *filterInput) view(text string) string {
	if f.active {
		return f.input.View()
	}
	return "/" + text
}

// key: while the filter has focus every key goes to it except esc (clear
// and close) and enter (keep and close).
func (f *filterInput) key(k tea.KeyMsg) {
	switch k.String() {
	case "esc":
		f.active = false
		f.input.Blur()
		*f.target = ""
	case "enter":
		f.active = false
		f.input.Blur()
	default:
		f.input, _ = f.input.Update(k)
		*f.target = f.input.Value()
	}
}
