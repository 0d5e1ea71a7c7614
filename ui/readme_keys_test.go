package ui

import (
	"reflect"
	"strings"
	"testing"

	"github.com/charmbracelet/bubbles/key"

	"github.com/poisonwatch/poisonwatch/internal/doctext"
)

// TestReadmeListsEveryKey: every key the screens declare is in the README's
// Keys section, so the manual cannot drift from what help shows.
func TestReadmeListsEveryKey(t *testing.T) {
	section, err := doctext.SectionExact("..", "Keys")
	if err != nil {
		t.Fatal(err)
	}
	if section == "" {
		t.Fatal("the README has no Keys section")
	}
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
