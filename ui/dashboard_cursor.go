package ui

import tea "github.com/charmbracelet/bubbletea"

// The dashboard's cursor starts on the first row, the worst queue, and
// stays there while the first polls re-sort the table by severity: a
// cursor that followed its queue down would open the screen mid-table.
// Once the operator moves it, it follows their queue through re-sorts.

// followedQueue is the queue the cursor follows through a refresh: none
// until the operator has moved it.
func (d *dashboard) followedQueue() string {
	if !d.moved {
		return ""
	}
	if qs := d.selected(); qs != nil {
		return qs.View.Info.Name
	}
	return ""
}

// moving marks the grid keys as the operator's: after one, the cursor
// follows its queue.
func (d *dashboard) moving(bs []binding) []binding { return movesSet(&d.moved, bs) }

// movesSet makes bs set *moved when pressed: the triage's cursor follows
// its group as the dashboard's follows its queue, once the operator moved it.
func movesSet(moved *bool, bs []binding) []binding {
	for i := range bs {
		do := bs[i].do
		bs[i].do = func() tea.Cmd {
			*moved = true
			return do()
		}
	}
	return bs
}
