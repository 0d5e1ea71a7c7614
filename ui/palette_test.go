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
			func(a *App) bool { _, ok := a.top().(*rulesScreen); return ok && a.sess.rules != nil }},
		{"cursor on rules off forgets it", "rules", "rules off", "▸ rules off",
			func(a *App) bool { return a.sess.rules == nil }},
		{"rules off typed in full", "rules off", "", "▸ rules off",
			func(a *App) bool { return a.sess.rules == nil }},
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
				t.Errorf("enter did not run the highlighted entry: on %T, table loaded %v, status %q", a.top(), a.sess.rules != nil, a.flash)
			}
		})
	}
}

// TestPaletteCommandRunsItsKey: a palette word and its key are one
// declaration, so they act alike wherever they are used: on an alert of
// another queue manager than the header's, :audit opens that queue
// manager's audit, as A does.
func TestPaletteCommandRunsItsKey(t *testing.T) {
	open := func(keys ...string) (*App, string) {
		a, _ := newFleetApp(t, 120, 40, "QM01", "QM02", "QM05")
		press(a, "a", "enter")
		here := a.here()
		if here == a.qm {
			t.Fatalf("the alert on view is on %s, the header's queue manager: the test shows nothing", here)
		}
		press(a, keys...)
		return a, here
	}
	byKey, here := open("A")
	byCmd, _ := open(typeCommand("audit")...)
	k, c := byKey.top().location(), byCmd.top().location()
	if !sameLocation(*k, *c) || k.QMgr != here {
		t.Fatalf("A opened %+v, :audit %+v; want both on %s", *k, *c, here)
	}
	for _, b := range byKey.globalBindings() {
		if b.cmd == "" {
			continue
		}
		found := false
		for _, it := range byKey.paletteItems() {
			found = found || it.label == b.cmd && it.help == b.Help().Desc
		}
		if !found {
			t.Errorf("key %s names :%s, which the palette lacks or describes otherwise", b.Help().Key, b.cmd)
		}
	}
}
