package model

import "github.com/poisonwatch/poisonwatch/mqwatch"

// Screen is a kind of view in the navigation stack.
type Screen int

// Screens an operator moves between.
const (
	ScreenDashboard Screen = iota
	ScreenQueue
	ScreenTriage
	ScreenGroup
	ScreenMessage
	ScreenAudit
	ScreenAlert  // one alert in full
	ScreenAlerts // every queue manager's alerts
	ScreenDialog // an action from dry run to result, on its source queue
	ScreenRules  // the loaded runmqdlq rules table, or why it was refused
	ScreenFleet  // one row per queue manager, worst first
)

// screenNames name the kinds, indexed by Screen: the built-in ones above,
// then those a front end adds with NewScreen.
var screenNames = []string{"Dashboard", "Queue", "Triage", "Group", "Message", "Audit", "Alert", "Alerts", "Dialog", "Rules", "Fleet"}

// NewScreen adds a kind of screen named name (help's "Keys on this screen
// (name)", the breadcrumb of a location without a label): a front end's new
// screen needs no constant here. Call it from a package variable's
// initialiser, before anything runs.
func NewScreen(name string) Screen {
	screenNames = append(screenNames, name)
	return Screen(len(screenNames) - 1)
}

func (s Screen) String() string {
	if int(s) < 0 || int(s) >= len(screenNames) {
		return "Screen(?)"
	}
	return screenNames[s]
}

// Location is one entry of the navigation stack.
type Location struct {
	Screen Screen
	QMgr   string
	Queue  string
	Group  *GroupKey
	Dim    Dim
	Msg    mqwatch.Key
	Label  string // breadcrumb text, when the screen has a better one than its kind
}

// Title is the breadcrumb text of a location.
func (l Location) Title() string {
	if l.Label != "" {
		return l.Label
	}
	switch l.Screen {
	case ScreenQueue, ScreenTriage:
		return l.Queue
	case ScreenGroup:
		if l.Group == nil {
			return "all messages"
		}
		return "group"
	case ScreenMessage:
		return "message"
	}
	return l.Screen.String()
}
