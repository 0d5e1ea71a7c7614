package ui

import (
	"bytes"
	"strings"
	"testing"

	"github.com/charmbracelet/lipgloss"
)

// dumbTerminal is a session's terminal that cannot take OSC 52.
type dumbTerminal struct{ bytes.Buffer }

func (*dumbTerminal) NoClipboard() string { return "the terminal (TERM=dumb) takes no OSC 52" }

// TestCopyGoesToTheAppsOwnTerminal: under serve each session is an App with
// its own renderer; y writes OSC 52 to that App's terminal and no other.
func TestCopyGoesToTheAppsOwnTerminal(t *testing.T) {
	var mine, theirs bytes.Buffer
	a, _ := newTestApp(t, 80, 24, Options{})
	b, _ := newTestApp(t, 80, 24, Options{})
	a.opt.Renderer, b.opt.Renderer = lipgloss.NewRenderer(&mine), lipgloss.NewRenderer(&theirs)
	for _, app := range []*App{a, b} {
		app.Update(snapshotMsg{snap: incident(1, 30)})
		press(app, "d", "enter")
	}
	press(a, "y")
	if !strings.HasPrefix(mine.String(), "\x1b]52;c;") || theirs.Len() != 0 {
		t.Fatalf("OSC 52 went to %q (this App's terminal) and %q (another's)", mine.String(), theirs.String())
	}
}

// TestCopySaysWhenTheTerminalCannot: a terminal known not to take OSC 52
// gets nothing, and the flash says why instead of "copied".
func TestCopySaysWhenTheTerminalCannot(t *testing.T) {
	var term dumbTerminal
	a, _ := newTestApp(t, 80, 24, Options{})
	a.opt.Renderer = lipgloss.NewRenderer(&term)
	a.Update(snapshotMsg{snap: incident(1, 30)})
	press(a, "d", "enter", "y")
	if term.Len() != 0 {
		t.Errorf("wrote %q to a terminal that cannot copy", term.String())
	}
	if v := a.View(); !strings.Contains(v, "cannot copy: ") || !strings.Contains(v, "TERM=dumb") || strings.Contains(v, "copied") {
		t.Fatalf("the flash does not say why nothing was copied:\n%s", v)
	}
}
