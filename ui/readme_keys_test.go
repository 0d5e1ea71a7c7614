package ui

import (
	"os"
	"reflect"
	"strings"
	"testing"

	"github.com/charmbracelet/bubbles/key"
)

// TestReadmeListsEveryKey: every key the screens declare is in the README's
// Keys section, so the manual cannot drift from what help shows.
func TestReadmeListsEveryKey(t *testing.T) {
	b, err := os.ReadFile("../README.md")
	if err != nil {
		t.Fatal(err)
	}
	s := string(b)
	start := strings.Index(s, "## Keys")
	end := strings.Index(s[start+1:], "\n## ")
	section := s[start : start+1+end]
	km := reflect.ValueOf(DefaultKeyMap())
	for i := 0; i < km.NumField(); i++ {
		k := km.Field(i).Interface().(key.Binding)
		name := k.Help().Key
		if strings.Contains(section, "`"+name+"`") || strings.Contains(section, "`"+name+"/") || strings.Contains(section, "/`"+name+"`") {
			continue
		}
		t.Errorf("README Keys section lacks %q (%s: %s)", name, km.Type().Field(i).Name, k.Help().Desc)
	}
}
