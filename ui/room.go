package ui

import (
	"fmt"
	"strings"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	"github.com/poisonwatch/poisonwatch/actions/ops"
	"github.com/poisonwatch/poisonwatch/codec/mqfmt"
	"github.com/poisonwatch/poisonwatch/model"
	"github.com/poisonwatch/poisonwatch/mqwatch"
)

// Room is the shared incident a war-room server (poisonwatch serve) seats
// this App in: who else is connected, where they are, what they did. The
// App tells the room where it is and reads the room's state; everything
// that decides (roles, who drives, the action lock) is the room's.
type Room interface {
	// Updates delivers the room's state whenever it changes; an unread
	// state is replaced by a newer one. Closed when the room ends.
	Updates() <-chan RoomState
	// Publish says where this session is, for followers and presence.
	Publish(v SessionView)
	// Drive asks to become the driver; an error says why not.
	Drive() error
}

// Member is one session in the room.
type Member struct {
	ID          int
	User        string
	Role        string // "operator" or "viewer"
	Fingerprint string // of the key the session authenticated with
	Driving     bool
	View        SessionView
}

// SessionView is where a session is: its screen stack and cursor, and whom
// it follows.
type SessionView struct {
	Stack     []model.Location
	Filters   []string // each screen's filter text
	Cursor    int      // the top screen's cursor row
	Following int      // member ID, 0 for none
	// Pointing says the cursor row is pointed at for followers.
	Pointing bool
	// Tab is the tab of the message screen in the stack (the topmost),
	// for followers on the same message.
	Tab int
}

// RoomEvent is something that happened in the room: an act started, or an
// entry of the room's journal told (Text). Result is set when a run ended,
// so the screens of the queue hear which messages left; what every act came
// to, everyone's audit view reads from the journal.
type RoomEvent struct {
	Seq    int
	From   int // member ID
	Text   string
	Result *ops.OpResult
	// Gone are the messages a run over marks took off the queue beyond
	// those its Result lists (it keeps the last chunk's and those not
	// done): the earlier chunks', for open dialogs to drop.
	Gone []mqwatch.Key
}

// RoomState is the room as one session sees it.
type RoomState struct {
	Self    int
	Members []Member
	// Events are the recent events, oldest first; sessions show those with
	// a Seq above the last they saw.
	Events []RoomEvent
}

// roomMsg carries a new room state into Update.
type roomMsg struct {
	st RoomState
	ok bool
}

// warRoom is the App's side of its room: the room's state as last told,
// the last event taken, whom this session follows and whether it points,
// and the position it last published. Without a room it does nothing.
type warRoom struct {
	r         Room
	st        RoomState
	lastEvent int
	following int
	pointing  bool
	// pointFlash is the "points at row" sentence on view, cleared when the
	// followed session stops pointing.
	pointFlash string
	published  *SessionView
	// told counts the room states taken; drawn is the presence line drawn
	// for the last, which only a new state, a follow or a resize changes:
	// every member's line lists every member, on every frame.
	told  int
	drawn presenceLine
}

// presenceLine is a presence line and what it was drawn from.
type presenceLine struct {
	from presenceFrom
	line string
}

type presenceFrom struct {
	drawn, told, following, w, look int
}

// roomRunMsg is news of the room: another session's run took messages off
// a queue (RoomEvent.Gone are further ones), for an open dialog to redo its
// dry run without them.
type roomRunMsg struct {
	res  ops.OpResult
	gone []mqwatch.Key
	who  string
}

func waitRoom(r Room) tea.Cmd {
	ch := r.Updates()
	return func() tea.Msg {
		st, ok := <-ch
		return roomMsg{st: st, ok: ok}
	}
}

func (a *App) onRoom(m roomMsg) tea.Cmd {
	if !m.ok {
		return nil
	}
	first := a.room.st.Self == 0
	a.room.st = m.st
	a.room.told++
	var cmds []tea.Cmd
	for _, e := range m.st.Events {
		if e.Seq <= a.room.lastEvent {
			continue
		}
		a.room.lastEvent = e.Seq
		if first {
			continue // what happened before this session joined is history, not news
		}
		// Acts reach this session's audit view through the room's journal,
		// which every session reads; the event tells the screens which
		// messages left.
		if e.Result != nil && e.From != m.st.Self {
			cmds = append(cmds, a.receive(roomRunMsg{res: *e.Result, gone: e.Gone, who: a.room.memberName(e.From)}))
		}
		if e.Text != "" {
			a.flash = e.Text
		}
		// An acknowledgement made in another session is in the shared book
		// already: the lists re-sort on it.
		a.Reannotate()
		cmds = append(cmds, a.Refresh())
	}
	cmds = append(cmds, a.mirror())
	return tea.Batch(append(cmds, waitRoom(a.opt.Room))...)
}

// member finds a member of the room by ID.
func (r *warRoom) member(id int) *Member {
	for i := range r.st.Members {
		if r.st.Members[i].ID == id {
			return &r.st.Members[i]
		}
	}
	return nil
}

// memberName is who a room member is, for a sentence.
func (r *warRoom) memberName(id int) string {
	if m := r.member(id); m != nil {
		return m.User
	}
	return "another session"
}

// sessionView is where this session is now, as the room sees it: its
// position in the war room.
func (a *App) sessionView() SessionView {
	// A point is published only where this screen has rows: followers on
	// a message screen are never told of a row.
	v := SessionView{Following: a.room.following, Pointing: a.room.pointing && gridOf(a.top()) != nil}
	for _, s := range a.stack {
		v.Stack = append(v.Stack, *s.location())
		f := ""
		if p := filterOf(s); p != nil {
			f = *p
		}
		v.Filters = append(v.Filters, f)
	}
	if g := gridOf(a.top()); g != nil {
		v.Cursor = g.Cursor
	}
	v.Tab = messageTab(a.stack)
	return v
}

// publish tells the room where this session is when that changed.
func (r *warRoom) publish(v func() SessionView) {
	if r.r == nil {
		return
	}
	now := v()
	if r.published != nil && sameView(*r.published, now) {
		return
	}
	r.published = &now
	r.r.Publish(now)
}

func sameView(x, y SessionView) bool {
	if x.Cursor != y.Cursor || x.Following != y.Following || x.Pointing != y.Pointing || x.Tab != y.Tab || len(x.Stack) != len(y.Stack) {
		return false
	}
	for i := range x.Stack {
		if !sameLocation(x.Stack[i], y.Stack[i]) || x.Filters[i] != y.Filters[i] {
			return false
		}
	}
	return true
}

// height is the lines the presence line takes.
func (r *warRoom) height() int {
	if r.r == nil {
		return 0
	}
	return 1
}

// presence is the presence line, drawn again only when what it shows
// changed (look numbers st's styles as they render: styleID).
func (r *warRoom) presence(st *Styles, look, w int) string {
	if r.r == nil {
		return ""
	}
	from := presenceFrom{drawn: 1, told: r.told, following: r.following, w: w, look: look}
	if r.drawn.from != from {
		r.drawn = presenceLine{from: from, line: r.drawPresence(st, w)}
	}
	return r.drawn.line
}

// drawPresence: who is connected, their role, who drives and who follows
// whom. Names come from SSH clients: sanitised like message bytes.
func (r *warRoom) drawPresence(st *Styles, w int) string {
	var parts []string
	// Following comes first: it says what esc does now, and a narrow
	// terminal cuts the end of the line, where the members are.
	if f := r.member(r.following); f != nil {
		parts = append(parts, st.paint(&st.Banner, " FOLLOWING "+mqfmt.Sanitize(f.User)+" — esc stops "))
	}
	parts = append(parts, st.paint(&st.Muted, fmt.Sprintf(" in the room (%d):", len(r.st.Members))))
	for _, m := range r.st.Members {
		name := mqfmt.Sanitize(m.User)
		if m.ID == r.st.Self {
			name += " (you)"
		}
		s := name + " " + m.Role
		if m.Driving {
			s = st.paint(&st.Accent, "▶ "+s+" driving")
		} else if m.Role == "operator" {
			s = st.paint(&st.Base, s)
		} else {
			s = st.paint(&st.Muted, s)
		}
		if m.View.Pointing {
			s += st.paint(&st.Accent, " "+pointMark+" row "+fmt.Sprint(m.View.Cursor+1))
		}
		if f := r.member(m.View.Following); f != nil {
			s += st.paint(&st.Muted, " → "+mqfmt.Sanitize(f.User))
		}
		parts = append(parts, s)
	}
	return ansi.Truncate(strings.Join(parts, "  "), w, "…")
}

// auditScope says whose runs the audit view lists.
func auditScope(o *Options) string {
	switch {
	case o.Playback != nil:
		return "recorded so far"
	case o.Room == nil:
		return "this session"
	}
	return "in this room"
}
