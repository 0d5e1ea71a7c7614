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
)

func (s Screen) String() string {
	return [...]string{"Dashboard", "Queue", "Triage", "Group", "Message", "Audit"}[s]
}

// Location is one entry of the navigation stack.
type Location struct {
	Screen Screen
	QMgr   string
	Queue  string
	Group  *GroupKey
	Dim    Dim
	Msg    mqwatch.Key
	Cursor int    // row under the cursor, restored on back
	Label  string // breadcrumb text, when the screen has a better one than its kind
	Offset int    // first visible row
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

// Nav is the navigation stack; the bottom is always the dashboard.
type Nav struct{ stack []Location }

// NewNav starts at the dashboard.
func NewNav() *Nav { return &Nav{stack: []Location{{Screen: ScreenDashboard}}} }

// Push opens a location.
func (n *Nav) Push(l Location) { n.stack = append(n.stack, l) }

// Pop goes back; the dashboard cannot be popped. It reports whether it moved.
func (n *Nav) Pop() bool {
	if len(n.stack) == 1 {
		return false
	}
	n.stack = n.stack[:len(n.stack)-1]
	return true
}

// Top returns the current location for reading and updating cursor state.
func (n *Nav) Top() *Location { return &n.stack[len(n.stack)-1] }

// Breadcrumbs lists the titles from the dashboard to here.
func (n *Nav) Breadcrumbs() []string {
	out := make([]string, len(n.stack))
	for i, l := range n.stack {
		out[i] = l.Title()
	}
	return out
}

// Depth returns the number of entries.
func (n *Nav) Depth() int { return len(n.stack) }
