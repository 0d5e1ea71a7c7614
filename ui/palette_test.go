package ui

import (
	"strings"
	"testing"
)

// typeInPalette opens the palette and types s, without enter.
func typeInPalette(s string) []string {
	keys := typeCommand(s)
	return keys[:len(keys)-1]
}

// TestPaletteEnterRunsTheHighlightedEntry: enter runs the entry the cursor
// is on, and only that one. A full command typed with its argument is
// itself the first entry, highlighted; an entry whose label is typed in
// full comes first; moving the cursor runs what it moved to.
func TestPaletteEnterRunsTheHighlightedEntry(t *testing.T) {
	cases := []struct {
		name      string
		typed     string
		moveTo    string // the entry to move the cursor to before enter, "" none
		highlight string // what the highlighted line must say
		check     func(a *App) bool
	}{
		{"bare rules shows the table", "rules", "", "▸ rules  show the loaded rules table",
			func(a *App) bool { _, ok := a.top().(*rulesScreen); return ok && a.rules != nil }},
		{"cursor on rules off forgets it", "rules", "rules off", "▸ rules off",
			func(a *App) bool { return a.rules == nil }},
		{"rules off typed in full", "rules off", "", "▸ rules off",
			func(a *App) bool { return a.rules == nil }},
		{"rules show typed in full", "rules show", "", "▸ rules show",
			func(a *App) bool { _, ok := a.top().(*rulesScreen); return ok }},
		{"a path loads that table", "rules testdata/rules/broken.rules", "", "▸ rules testdata/rules/broken.rules  load this runmqdlq rules table",
			func(a *App) bool {
				s, ok := a.top().(*rulesScreen)
				return ok && strings.Contains(strings.Join(s.lines, "\n"), "refused")
			}},
		{"cursor moved off a typed path runs the entry", "rules f", "rules FILE", "▸ rules FILE",
			func(a *App) bool { return strings.Contains(a.flash, "type the table's path after rules") }},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			a := rulesApp(t, 120, 35, Options{})
			press(a, typeInPalette(c.typed)...)
			if c.moveTo != "" {
				for i := 0; i < 20; i++ {
					if it, _ := a.pal.entry(a.pal.cursor); it.label == c.moveTo {
						break
					}
					press(a, "down")
				}
			}
			if v := a.View(); !strings.Contains(v, c.highlight) {
				t.Fatalf("highlighted entry is not %q:\n%s", c.highlight, v)
			}
			press(a, "enter")
			if !c.check(a) {
				t.Errorf("enter did not run the highlighted entry: on %T, table loaded %v, status %q", a.top(), a.rules != nil, a.flash)
			}
		})
	}
}
