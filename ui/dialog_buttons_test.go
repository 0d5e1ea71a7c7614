package ui

import (
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
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

// TestQuitAsksWhenMarksOrASeatWouldBeLost: q quits at once when nothing
// would be lost; with marks, or in a war-room session, it asks, any other
// key stays, q again quits; ctrl+c never asks.
func TestQuitAsksWhenMarksOrASeatWouldBeLost(t *testing.T) {
	quits := func(cmd tea.Cmd) bool {
		if cmd == nil {
			return false
		}
		_, ok := cmd().(tea.QuitMsg)
		return ok
	}
	key := func(a *App, k string) tea.Cmd { _, cmd := a.Update(keyMsg(k)); return cmd }

	a, _ := newTestApp(t, 80, 24, Options{Ops: &fakeOps{msg: sampleMessage()}})
	a.Update(snapshotMsg{snap: incident(1, 300)})
	if !quits(key(a, "q")) {
		t.Fatal("q with nothing to lose did not quit")
	}

	for _, tc := range []struct {
		name  string
		opts  Options
		setup func(a *App)
		says  string
	}{
		{"marks", Options{}, func(a *App) { press(a, "d", "enter", "space", "space") }, "quit? 2 marked message(s) would be lost: q again quits"},
		{"room", Options{Room: newFakeRoom()}, func(a *App) {
			a.Update(roomMsg{st: RoomState{Self: 1, Members: []Member{alice}}, ok: true})
		}, "quit? your seat in the war room (you have the wheel) would be lost"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tc.opts.Ops = &fakeOps{msg: sampleMessage()}
			a, _ := newTestApp(t, 120, 35, tc.opts)
			a.Update(snapshotMsg{snap: incident(1, 300)})
			tc.setup(a)
			if quits(key(a, "q")) || !strings.Contains(joinedText(a.View()), tc.says) {
				t.Fatalf("q did not ask:\n%s", a.View())
			}
			if quits(key(a, "j")) || quits(key(a, "q")) {
				t.Fatal("q after another key quit without asking again")
			}
			if !quits(key(a, "q")) {
				t.Fatal("q, then q again, did not quit")
			}
			if !quits(func() tea.Cmd { _, cmd := a.Update(tea.KeyMsg{Type: tea.KeyCtrlC}); return cmd }()) {
				t.Fatal("ctrl+c asked")
			}
		})
	}
}
