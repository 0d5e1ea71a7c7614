package ui

import (
	"fmt"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/poisonwatch/poisonwatch/model"
)

// noteScreen is a screen added as docs/codebase.md's recipe says: its own
// kind (model.NewScreen), its type embedding base, and one registry line
// (registerNote stands for the line in registry.go).
var screenNote = model.NewScreen("Note")

type noteScreen struct {
	base
	grid Grid
}

func newNoteScreen(qm string) *noteScreen {
	return &noteScreen{base: base{loc: model.Location{Screen: screenNote, QMgr: qm}}}
}

func (s *noteScreen) bindings(c common) []binding { return gridKeys(c.Keys(), &s.grid) }
func (s *noteScreen) refresh(common) tea.Cmd      { s.grid.SetRows(10); return nil }
func (s *noteScreen) resize(_ common, w, h int)   { s.grid.SetSize(w, h) }
func (s *noteScreen) scroll(d int)                { s.grid.Move(d) }
func (s *noteScreen) cursorGrid() *Grid           { return &s.grid }
func (s *noteScreen) view(_ common, w, h int) string {
	return fitHeight(fmt.Sprintf(" note on row %d", s.grid.Cursor+1), h)
}

// registerNote is the registry line, for the test's length only: the
// other tests' frames do not list :note.
func registerNote(t *testing.T) {
	kinds[screenNote] = kind{at: func(l model.Location) screen { return newNoteScreen(l.QMgr) },
		cmd: "note", help: "a note", open: func(c common) screen { return newNoteScreen(c.QMgrName()) }}
	t.Cleanup(func() { delete(kinds, screenNote) })
}

// TestRegisteredScreenIsFollowed: a screen registered with a rebuild is
// mirrored by a war-room follower, cursor included, and its kind names
// help; nothing outside its file and the registry line knows it.
func TestRegisteredScreenIsFollowed(t *testing.T) {
	registerNote(t)
	a, _ := roomApp(t)
	driver := alice
	driver.View = SessionView{Stack: []model.Location{
		{Screen: model.ScreenDashboard, QMgr: "QM1"},
		{Screen: screenNote, QMgr: "QM1"},
	}, Filters: []string{"", ""}, Cursor: 4}
	a.Update(roomMsg{st: RoomState{Self: 2, Members: []Member{driver, bob}}, ok: true})
	press(a, "F")
	n := topIs[*noteScreen](t, a)
	if n.grid.Cursor != 4 || !strings.Contains(a.View(), "note on row 5") {
		t.Fatalf("follower's note at row %d, want 5:\n%s", n.grid.Cursor+1, a.View())
	}
	press(a, "?")
	if !strings.Contains(a.View(), "Keys on this screen (Note)") {
		t.Fatalf("help does not name the screen's kind:\n%s", a.View())
	}
}

// TestRegisteredScreenOpensFromThePalette: a registered command reaches
// the screen with no key declared for it, and help lists it.
func TestRegisteredScreenOpensFromThePalette(t *testing.T) {
	registerNote(t)
	a, _ := newTestApp(t, 120, 35, Options{})
	press(a, "?")
	if !strings.Contains(a.View(), ":note") {
		t.Fatalf("help's palette commands lack :note:\n%s", a.View())
	}
	press(a, "?")
	press(a, typeCommand("note")...)
	if n := topIs[*noteScreen](t, a); n.loc.QMgr != "QM1" {
		t.Fatalf("note opened on %q", n.loc.QMgr)
	}
}

// TestEveryScreenKindIsRegistered: a kind without a registry entry would
// be silently dropped for followers and never browsed.
func TestEveryScreenKindIsRegistered(t *testing.T) {
	registerNote(t)
	for s := model.Screen(0); s.String() != "Screen(?)"; s++ {
		if _, ok := kinds[s]; !ok {
			t.Errorf("model.%s has no entry in kinds (ui/registry.go)", s)
		}
	}
}
