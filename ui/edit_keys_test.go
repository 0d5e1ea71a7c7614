package ui

import (
	"os"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
)

// TestReadmeListsEditAndSearchKeys: the keys of edit and resend and of the
// body search, declared outside KeyMap, are in the README's Keys section.
func TestReadmeListsEditAndSearchKeys(t *testing.T) {
	b, err := os.ReadFile("../README.md")
	if err != nil {
		t.Fatal(err)
	}
	s := string(b)
	start := strings.Index(s, "## Keys")
	section := s[start : start+1+strings.Index(s[start+1:], "\n## ")]
	ek, sk := newEditKeys(), newSearchKeys()
	for _, k := range []string{ek.Edit.Help().Key, ek.Save.Help().Key, ek.Switch.Help().Key, ek.Confirm.Help().Key, sk.Search.Help().Key} {
		if !strings.Contains(section, "`"+k+"`") {
			t.Errorf("README Keys section lacks %q", k)
		}
	}
}

// TestHelpShowsEditAndSearchAt80x24: with an engine that can edit and
// search, e and ctrl+f are in help, and help still fits 80x24 uncut.
func TestHelpShowsEditAndSearchAt80x24(t *testing.T) {
	for _, tc := range []struct {
		keys []string
		want string
		ops  Operations
	}{
		{[]string{"d", "enter", "?"}, "search all bodies", newSearchFakeOps()},
		{[]string{"j", "j", "enter", "?"}, "search all bodies", newSearchFakeOps()},
		{[]string{"d", "enter", "enter", "?"}, "edit and resend", &editFakeOps{fakeOps: &fakeOps{msg: sampleMessage()}}},
	} {
		a, _ := newTestApp(t, 80, 24, Options{Ops: tc.ops})
		a.Update(snapshotMsg{snap: incident(1, 30)})
		press(a, tc.keys...)
		v := ansi.Strip(a.View())
		if strings.Contains(v, "…") || !strings.Contains(v, tc.want) {
			t.Errorf("help after %v lacks %q or cuts something:\n%s", tc.keys, tc.want, v)
		}
	}
}
