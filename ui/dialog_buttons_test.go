package ui

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
)

// buttonLine is the line of the screen that holds a dialog's Cancel button.
func buttonLine(t *testing.T, v string) string {
	t.Helper()
	for _, l := range strings.Split(ansi.Strip(v), "\n") {
		if strings.Contains(l, "Cancel") && !strings.Contains(l, "switch Cancel") {
			return l
		}
	}
	t.Fatalf("no buttons on the screen:\n%s", v)
	return ""
}

// TestDialogButtonsBracketTheFocusedOneOnly: the fix, GET-inhibit and edit
// dialogs bracket only the focused button, as the requeue dialog does, so
// focus reads without colour (the goldens are NO_COLOR's Ascii profile).
func TestDialogButtonsBracketTheFocusedOneOnly(t *testing.T) {
	t.Setenv("EDITOR", "true")
	t.Setenv("TMPDIR", t.TempDir())
	for _, size := range dialogSizes {
		for _, tc := range []struct {
			name string
			ops  Operations
			open func(t *testing.T, a *App)
			act  string
		}{
			{"fix", &fixOps{fakeOps: fakeOps{msg: sampleMessage()}}, func(t *testing.T, a *App) { press(a, "a", "j", "x") }, "Apply 2 change(s)"},
			{"inhibit", &fixOps{fakeOps: fakeOps{msg: sampleMessage()}}, func(t *testing.T, a *App) { pressKey(t, a, km.Down, km.Inhibit) }, "Disable GET"},
			{"edit", &editFakeOps{fakeOps: &fakeOps{msg: sampleMessage()}}, func(t *testing.T, a *App) {
				press(a, "d", "enter", "enter", "e")
				e := topIs[*editScreen](t, a)
				_, cmd := a.Update(editorDoneMsg{seq: e.seq, text: strings.Replace(e.doc.Text, "4711", "4712", 1)})
				drain(a, cmd)
			}, "Put edited copy"},
		} {
			for _, focus := range []string{"cancel", "act"} {
				t.Run(tc.name+"_"+focus+"_"+itoa(size.w)+"x"+itoa(size.h), func(t *testing.T) {
					a, _ := newTestApp(t, size.w, size.h, Options{Ops: tc.ops})
					a.Update(snapshotMsg{snap: incident(1, 30)})
					tc.open(t, a)
					if focus == "act" {
						press(a, "tab")
					}
					v := a.View()
					line := buttonLine(t, v)
					want, other := "[ Cancel ]", "[ "+tc.act+" ]"
					if focus == "act" {
						want, other = other, want
					}
					if !strings.Contains(line, want) || strings.Contains(line, other) || strings.Count(line, "[") != 1 {
						t.Fatalf("%s focused: want only %q bracketed, buttons read %q", focus, want, line)
					}
					checkFrame(t, v, size.w, size.h)
					golden(t, v)
					press(a, "esc") // a cancel says that nothing changed
					if !strings.Contains(a.View(), "cancelled: nothing changed") {
						t.Fatalf("esc in the %s dialog:\n%s", tc.name, a.View())
					}
				})
			}
		}
	}
}
