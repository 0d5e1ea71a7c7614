package warroom

import (
	"time"

	"errors"
	"sort"
	"sync"

	"github.com/poisonwatch/poisonwatch/incident/journal"

	"github.com/poisonwatch/poisonwatch/actions/ops"
	"github.com/poisonwatch/poisonwatch/mqwatch"
	"github.com/poisonwatch/poisonwatch/ui"
)

// Role is what a session may do.
type Role string

// Roles, from the role= word of the key's comment in the authorized keys.
const (
	Viewer   Role = "viewer"   // navigates, reads masked bodies, acts on nothing
	Operator Role = "operator" // acts
)

// Identity is who a session is: the SSH user name it logged in with and the
// key it proved, and the role that key carries.
type Identity struct {
	User        string
	Fingerprint string // SHA256:... as ssh-keygen -l prints it
	Role        Role
}

// keepEvents is how many recent events the room keeps for sessions that
// read late.
const keepEvents = 32

// Room is the shared incident: who is in it, where each session is, who
// drives, and what was done. It is safe for concurrent use.
type Room struct {
	mu      sync.Mutex
	next    int
	seats   map[int]*Seat
	driver  int
	events  []ui.RoomEvent
	seq     int
	stopped bool
	// journal is the room's account of acts (Tell); nil: none.
	journal *journal.Journal
	// now stamps joins and leaves; the wall clock when nil.
	clock func() time.Time
}

func (r *Room) now() time.Time {
	if r.clock != nil {
		return r.clock()
	}
	return time.Now()
}

// NewRoom returns an empty room.
func NewRoom() *Room { return &Room{seats: map[int]*Seat{}} }

// Seat is one session's place in the room; it is the ui.Room its App uses.
type Seat struct {
	room *Room
	id   int
	who  Identity
	view ui.SessionView
	out  chan ui.RoomState
}

var _ ui.Room = (*Seat)(nil)

// Join seats a session. The first operator in the room drives.
func (r *Room) Join(who Identity) *Seat {
	joined := false
	defer func() {
		if joined { // after r.mu is released: the journal tells the room
			r.journalPresence(journal.Join, who)
		}
	}()
	r.mu.Lock()
	defer r.mu.Unlock()
	r.next++
	s := &Seat{room: r, id: r.next, who: who, out: make(chan ui.RoomState, 1)}
	if r.stopped {
		close(s.out)
		return s
	}
	joined = true
	r.seats[s.id] = s
	if r.driver == 0 && who.Role == Operator {
		r.driver = s.id
	}
	r.broadcastLocked()
	return s
}

// ID is the seat's member ID.
func (s *Seat) ID() int { return s.id }

// Who is the seat's identity.
func (s *Seat) Who() Identity { return s.who }

// Leave frees the seat; a leaving driver hands the wheel to the operator
// who joined first.
func (s *Seat) Leave() {
	r := s.room
	left := false
	defer func() {
		if left { // after r.mu is released: the journal tells the room
			r.journalPresence(journal.Leave, s.who)
		}
	}()
	r.mu.Lock()
	defer r.mu.Unlock()
	if _, ok := r.seats[s.id]; !ok {
		return
	}
	left = true
	delete(r.seats, s.id)
	close(s.out)
	if r.driver == s.id {
		r.driver = 0
		for _, id := range r.idsLocked() {
			if r.seats[id].who.Role == Operator {
				r.driver = id
				break
			}
		}
	}
	r.broadcastLocked()
}

// Updates delivers the room's state to this session.
func (s *Seat) Updates() <-chan ui.RoomState { return s.out }

// Publish records where the session is and tells the others.
func (s *Seat) Publish(v ui.SessionView) {
	r := s.room
	r.mu.Lock()
	defer r.mu.Unlock()
	if _, ok := r.seats[s.id]; !ok {
		return
	}
	s.view = v
	r.broadcastLocked()
}

// ErrViewerDrive refuses the wheel to a viewer.
var ErrViewerDrive = errors.New("viewers cannot drive: the driver is an operator")

// Drive makes this session the driver; only operators drive.
func (s *Seat) Drive() error {
	if s.who.Role != Operator {
		return ErrViewerDrive
	}
	r := s.room
	r.mu.Lock()
	defer r.mu.Unlock()
	r.driver = s.id
	r.broadcastLocked()
	return nil
}

// Announce tells every session what happened; res is set when a run ended.
// The session that acts becomes the driver.
func (r *Room) Announce(from int, text string, res *ops.OpResult) {
	r.announce(ui.RoomEvent{From: from, Text: text, Result: res})
}

// AnnounceRun tells every session a run ended, with its result and the
// messages it removed that the result does not list (a run over marks
// keeps only its last chunk's: RoomEvent.Gone).
func (r *Room) AnnounceRun(from int, text string, res *ops.OpResult, gone []mqwatch.Key) {
	r.announce(ui.RoomEvent{From: from, Text: text, Result: res, Gone: gone})
}

func (r *Room) announce(ev ui.RoomEvent) {
	from := ev.From
	r.mu.Lock()
	defer r.mu.Unlock()
	r.seq++
	ev.Seq = r.seq
	r.events = append(r.events, ev)
	if len(r.events) > keepEvents {
		r.events = r.events[len(r.events)-keepEvents:]
	}
	if s := r.seats[from]; s != nil && s.who.Role == Operator {
		r.driver = from
	}
	r.broadcastLocked()
}

// Members lists who is in the room, in order of joining.
func (r *Room) Members() []ui.Member {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.membersLocked()
}

// Stop closes every seat: the sessions' programs see the room end.
func (r *Room) Stop() {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.stopped = true
	for id, s := range r.seats {
		close(s.out)
		delete(r.seats, id)
	}
}

func (r *Room) idsLocked() []int {
	ids := make([]int, 0, len(r.seats))
	for id := range r.seats {
		ids = append(ids, id)
	}
	sort.Ints(ids)
	return ids
}

func (r *Room) membersLocked() []ui.Member {
	var out []ui.Member
	for _, id := range r.idsLocked() {
		s := r.seats[id]
		out = append(out, ui.Member{ID: id, User: s.who.User, Role: string(s.who.Role),
			Fingerprint: s.who.Fingerprint, Driving: id == r.driver, View: s.view})
	}
	return out
}

// broadcastLocked gives every seat the new state, latest-wins: a session
// that does not read (a stalled client) never blocks the room.
func (r *Room) broadcastLocked() {
	ms := r.membersLocked()
	ev := append([]ui.RoomEvent(nil), r.events...)
	for _, s := range r.seats {
		st := ui.RoomState{Self: s.id, Members: ms, Events: ev}
		select {
		case <-s.out:
		default:
		}
		s.out <- st
	}
}
