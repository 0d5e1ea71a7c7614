package ui

import (
	"fmt"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/poisonwatch/poisonwatch/codec/mqfmt"
	"github.com/poisonwatch/poisonwatch/model"
	"github.com/poisonwatch/poisonwatch/mqwatch"
)

// roomBindings are the war-room keys, first among the global ones so esc
// stops following before it goes back.
func (a *App) roomBindings() []binding {
	if a.opt.Room == nil {
		return nil
	}
	var out []binding
	if a.room.following != 0 {
		out = append(out, bind(a.keys.StopFollow, run(func() {
			a.room.following = 0
			if g := gridOf(a.top()); g != nil {
				g.CursorMark = ""
			}
			a.flash = "stopped following"
		}), short))
	}
	return append(out,
		bind(a.keys.Follow, func() tea.Cmd {
			id := a.room.nextToFollow()
			if id == 0 {
				return nil
			}
			a.room.following = id
			if m := a.room.member(id); m != nil {
				a.flash = "following " + mqfmt.Sanitize(m.User) + ": esc stops"
			}
			return a.mirror()
		}, short, offIf(func() bool { return len(a.room.st.Members) < 2 }, "nobody else is in the room")),
		bind(a.keys.Drive, run(func() {
			if err := a.opt.Room.Drive(); err != nil {
				a.flash = err.Error()
				return
			}
			a.flash = "you drive: followers see your screen"
		}), viewerOff(a.room.selfRole() == "viewer", "a viewer cannot drive: driving needs a key with role=operator")),
		// Pointing is stopped from any screen, rows or not: a driver who
		// pointed and then opened a message must be able to take it back.
		bind(a.keys.Point, run(func() { a.flash = a.room.togglePoint(gridOf(a.top())) }),
			offIf(func() bool { return !a.room.pointing && gridOf(a.top()) == nil }, "nothing to point at on this screen")),
	)
}

// togglePoint starts pointing at the cursor's row of g, or stops
// pointing; it says which.
func (r *warRoom) togglePoint(g *Grid) string {
	r.pointing = !r.pointing
	if !r.pointing || g == nil {
		r.pointing = false
		return "stopped pointing"
	}
	return fmt.Sprintf("pointing at row %d for followers: p stops", g.Cursor+1)
}

// viewerOff turns a key off, and out of help, for a session that can never
// use it (a viewer's T): help lists what this session's keys can do.
func viewerOff(off bool, why string) func(*binding) {
	return func(b *binding) {
		b.hide = off
		b.off = func() string {
			if off {
				return why
			}
			return ""
		}
	}
}

// nextToFollow is whom F follows: the driver, or the next session when
// already following (or driving); 0 when nobody else is there.
func (r *warRoom) nextToFollow() int {
	ms := r.st.Members
	start := r.following
	if start == 0 {
		for _, m := range ms {
			if m.Driving && m.ID != r.st.Self {
				return m.ID
			}
		}
	}
	// The next member after the one followed, skipping this session.
	idx := -1
	for i, m := range ms {
		if m.ID == start {
			idx = i
		}
	}
	for n := 1; n <= len(ms); n++ {
		m := ms[(idx+n+len(ms))%len(ms)]
		if m.ID != r.st.Self {
			return m.ID
		}
	}
	return 0
}

// pointMark is the cursor's mark where the followed session points.
const pointMark = "»"

// mirror makes this session's screen stack, filters and cursor those of the
// session it follows. A message is opened from this session's own list (so
// its body is fetched, and masked, as for this session); an alert or an
// audit run is not rebuilt: the follower stops at the screen under it.
func (a *App) mirror() tea.Cmd {
	if a.room.following == 0 {
		return nil
	}
	m := a.room.member(a.room.following)
	if m == nil {
		a.room.following = 0
		a.flash = "the session you followed left" + a.room.newDriverOffer()
		if g := gridOf(a.top()); g != nil {
			g.CursorMark = ""
		}
		return nil
	}
	v := m.View
	if len(v.Stack) == 0 {
		return nil
	}
	if a.actionDialog() != nil || a.pal.active {
		return nil // the follower's own dialog finishes first
	}
	var cmd tea.Cmd
	if !sameStack(a.stack, v) {
		cmd = a.rebuildStack(v)
	}
	followTab(a.top(), v)
	g := gridOf(a.top())
	same := a.top().location().Screen == v.Stack[len(v.Stack)-1].Screen
	if g != nil && same {
		g.Cursor = v.Cursor
		g.clamp()
	}
	// A point means a row of the screen the followed session is on: on
	// another screen (a message, or a list whose message is still opening)
	// there is no row it means.
	v.Pointing = v.Pointing && same
	a.room.point(g, m.User, v, &a.flash)
	return cmd
}

// sameStack says stack shows what v does.
func sameStack(stack []screen, v SessionView) bool {
	// A dialog is the followed session's own: followers stay on the screen
	// under it rather than rebuilding their stack at every frame.
	for len(v.Stack) > 1 && v.Stack[len(v.Stack)-1].Screen == model.ScreenDialog {
		v.Stack = v.Stack[:len(v.Stack)-1]
	}
	if len(v.Stack) != len(stack) {
		return false
	}
	for i, s := range stack {
		if !sameLocation(*s.location(), v.Stack[i]) {
			return false
		}
		if f := filterOf(s); f != nil && *f != v.Filters[i] {
			return false
		}
	}
	return true
}

// sameLocation compares two locations by value, the group they name included.
func sameLocation(x, y model.Location) bool {
	gx, gy := x.Group, y.Group
	x.Group, y.Group = nil, nil
	return x == y && (gx == gy || gx != nil && gy != nil && *gx == *gy)
}

func (a *App) rebuildStack(v SessionView) tea.Cmd {
	for _, loc := range v.Stack {
		if loc.QMgr != "" { // the fleet view at the bottom names none
			a.qm = loc.QMgr
			break
		}
	}
	stack := []screen{}
	for i, loc := range v.Stack {
		s := screenAt(loc)
		if s == nil {
			break
		}
		if f := filterOf(s); f != nil && i < len(v.Filters) {
			*f = v.Filters[i]
		}
		stack = append(stack, s)
	}
	if len(stack) == 0 {
		stack = []screen{newDashboard(a.qm)}
	}
	a.stack = stack
	cmd := a.entered()
	if len(stack) < len(v.Stack) && v.Stack[len(stack)].Screen == model.ScreenMessage {
		cmd = tea.Batch(cmd, followToMessage(a, a.top(), v.Stack[len(stack)].Msg))
	}
	return cmd
}

// followToMessage opens the followed session's message when this session's
// list under it (top) has it; its body is fetched (and masked) as this
// session's.
func followToMessage(c common, top screen, k mqwatch.Key) tea.Cmd {
	q, ok := top.(*queueScreen)
	if !ok {
		return nil
	}
	for i := range q.msgs.Len() {
		if q.msgs.Key(i) == k {
			q.grid.Cursor = i
			return openMessage(c, q.loc, *q.msgs.At(i))
		}
	}
	return nil
}

// messageTab is the tab of the topmost message screen in stack, 0 when
// there is none.
func messageTab(stack []screen) int {
	for i := len(stack) - 1; i >= 0; i-- {
		if d, ok := stack[i].(*detailScreen); ok {
			return d.tab
		}
	}
	return 0
}

// followTab turns a follower's message screen (top) to the tab the
// followed session reads its message on, when both are on the same
// message: a driver saying "see the DLH" is seen on the DLH tab.
func followTab(top screen, v SessionView) {
	d, ok := top.(*detailScreen)
	if !ok || d.tab == v.Tab {
		return
	}
	for i := len(v.Stack) - 1; i >= 0; i-- {
		if loc := v.Stack[i]; loc.Screen == model.ScreenMessage {
			if sameLocation(loc, d.loc) {
				d.setTab(v.Tab)
			}
			return
		}
	}
}
