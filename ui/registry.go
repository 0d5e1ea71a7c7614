package ui

import (
	"sort"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/poisonwatch/poisonwatch/model"
)

// kind is what the ui knows about a kind of screen before it has one in
// hand: how a war-room follower rebuilds it from the driver's location, and
// whether the watcher browses the location's queue while it is on view. A
// screen's own behaviour (its keys, rows, view) is its methods; only what
// must be known from a bare model.Location lives here.
type kind struct {
	// at builds the screen of loc for a follower; nil, or a nil result:
	// followers cannot rebuild it from the location alone and stop at the
	// screen under it.
	at func(loc model.Location) screen
	// browses: the watcher reads the messages of the location's queue
	// while the screen is on view.
	browses bool
	// cmd, when set, opens the screen from the command palette (":cmd",
	// described by help) with open: a new screen needs no key to be
	// reached (a key is "Add a key" in docs/codebase.md).
	cmd, help string
	open      func(c common) screen
}

// kinds is the registry of screens, keyed by model.Screen. A new screen is
// its own file (with its model.NewScreen kind) and one line here.
var kinds = map[model.Screen]kind{
	model.ScreenDashboard: {at: func(l model.Location) screen { return newDashboard(l.QMgr) }},
	model.ScreenQueue:     {at: func(l model.Location) screen { return newQueueScreen(l) }, browses: true},
	model.ScreenGroup:     {at: func(l model.Location) screen { return newQueueScreen(l) }, browses: true},
	model.ScreenTriage:    {at: func(l model.Location) screen { return newTriageScreen(l.QMgr, l.Queue) }, browses: true},
	model.ScreenMessage:   {browses: true}, // opened from the follower's own list (followToMessage)
	model.ScreenDialog:    {browses: true}, // the followed session's own: followers stay under it
	model.ScreenAudit:     {at: auditAt},
	model.ScreenAlert:     {},
	model.ScreenAlerts:    {at: func(model.Location) screen { return newAlertList() }},
	model.ScreenRules:     {},
	model.ScreenFleet:     {at: func(model.Location) screen { return newFleetScreen() }},
	screenRemoteFleet:     {at: func(model.Location) screen { return newRemoteFleetScreen() }},
}

// kindCommands are the palette entries of the registered screens that
// have a command, in the order of their words.
func kindCommands() []paletteItem {
	var out []paletteItem
	for _, k := range kinds {
		if k.cmd == "" || k.open == nil {
			continue
		}
		open := k.open
		out = append(out, paletteItem{k.cmd, k.help, func(c common) tea.Cmd { return c.Push(open(c)) }})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].label < out[j].label })
	return out
}

// screenAt builds the screen of a location, nil for those a follower cannot
// rebuild from the location alone.
func screenAt(loc model.Location) screen {
	if k := kinds[loc.Screen]; k.at != nil {
		return k.at(loc)
	}
	return nil
}
