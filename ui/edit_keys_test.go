package ui

import (
	"os"
	"strings"
	"testing"
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
