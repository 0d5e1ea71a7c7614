package ui

import (
	"maps"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/charmbracelet/bubbles/key"

	"github.com/poisonwatch/poisonwatch/internal/doctext"
)

// TestReadmeListsEveryKey: every key the screens declare is in the README's
// Keys section, so the manual cannot drift from what help shows: the key
// map (the war room's keys included), and the keys dialogs and room states
// declare as they go (each path in readmeTour; the test fails if the tour
// stops reaching them).
func TestReadmeListsEveryKey(t *testing.T) {
	section, err := doctext.SectionExact("..", "Keys")
	if err != nil {
		t.Fatal(err)
	}
	if section == "" {
		t.Fatal("the README has no Keys section")
	}
	listed := func(name string) bool {
		return strings.Contains(section, "`"+name+"`") || strings.Contains(section, "`"+name+"/") || strings.Contains(section, "/`"+name+"`")
	}
	for name, km := range map[string]any{"KeyMap": DefaultKeyMap(), "editKeys": newEditKeys(), "searchKeys": newSearchKeys()} {
		v := reflect.ValueOf(km)
		for i := 0; i < v.NumField(); i++ {
			k := v.Field(i).Interface().(key.Binding)
			if !listed(k.Help().Key) {
				t.Errorf("README Keys section lacks %q (%s.%s: %s)", k.Help().Key, name, v.Type().Field(i).Name, k.Help().Desc)
			}
		}
	}
	seen := map[string]string{} // help key → where it was declared
	does := map[string]bool{}   // what the keys seen do
	for _, p := range readmeTour {
		a := p.app(t)
		for i, k := range p.keys {
			press(a, k)
			for _, b := range a.activeBindings() {
				does[b.Help().Desc] = true
				if name := b.Help().Key; seen[name] == "" {
					seen[name] = p.name + " after " + strings.Join(p.keys[:i+1], " ")
				}
			}
		}
	}
	for name, where := range seen {
		if !listed(name) {
			t.Errorf("README Keys section lacks %q (declared in the %s)", name, where)
		}
	}
	// What only a dialog or the room declares: the tour must reach each.
	for _, what := range []string{
		"requeue to another queue", "define the typed queue", "requeue instead", "switch Cancel / Apply", "GET or PUT",
		"next action for the group", "complete the queue name", "save, show the plan", "follow the driver (again: the next session)",
		"stop following", "search / open", "close",
	} {
		if !slices.ContainsFunc(slices.Collect(maps.Keys(does)), func(d string) bool { return strings.Contains(d, what) }) {
			t.Errorf("the tour never reached a screen whose key does %q", what)
		}
	}
}

// readmeTour is a path into each dialog, each of its phases, and the room.
var readmeTour = []struct {
	name string
	app  func(t *testing.T) *App
	keys []string
}{
	{"requeue dialog", incidentApp(nil, false), []string{"d", "enter", "space", "R", "ctrl+t", "tab", "esc", "tab", "enter"}},
	{"park form", incidentApp(nil, false), []string{"d", "enter", "space", "M", "park.q", "ctrl+n", "tab"}},
	{"move dialog", incidentApp(nil, false), []string{"d", "enter", "space", "M", "ORDERS.IN", "enter"}},
	{"write rules dialog", incidentApp(nil, false), []string{"d", "W", "l", "l", "esc", "t"}},
	{"fix dialog", incidentApp(fixing, false), []string{"a", "j", "x", "tab", "enter"}},
	{"inhibit dialog", incidentApp(fixing, false), []string{"j", "I", "p", "tab", "enter"}},
	{"acknowledge and snooze", incidentApp(nil, false), []string{"a", "K", "esc", "Z"}},
	{"search", incidentApp(func() Operations { return newSearchFakeOps() }, false), []string{"d", "enter", "ctrl+f", "x", "enter"}},
	{"war room", incidentApp(editing, true), []string{"F", "esc", "d", "enter", "enter", "e"}},
}

func fixing() Operations  { return &fixOps{fakeOps: fakeOps{msg: sampleMessage()}} }
func editing() Operations { return &editFakeOps{fakeOps: &fakeOps{msg: sampleMessage()}} }

// incidentApp is a 140×35 App on the incident with ops (fakeOps when nil);
// in a room, bob's session, alice driving.
func incidentApp(ops func() Operations, room bool) func(t *testing.T) *App {
	return func(t *testing.T) *App {
		o := Options{Ops: &fakeOps{msg: sampleMessage()}, User: "op1", ExportDir: t.TempDir()}
		if ops != nil {
			o.Ops = ops()
		}
		if room {
			o.Room = newFakeRoom()
		}
		a, _ := newTestApp(t, 140, 35, o)
		a.Update(snapshotMsg{snap: incidentWith()})
		if o.Room != nil {
			a.Update(roomMsg{st: RoomState{Self: 2, Members: []Member{alice, bob}}, ok: true})
		}
		return a
	}
}
