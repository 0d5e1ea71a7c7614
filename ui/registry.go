package ui

import "github.com/poisonwatch/poisonwatch/model"

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
}

// screenAt builds the screen of a location, nil for those a follower cannot
// rebuild from the location alone.
func screenAt(loc model.Location) screen {
	if k := kinds[loc.Screen]; k.at != nil {
		return k.at(loc)
	}
	return nil
}
