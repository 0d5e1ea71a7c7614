package model

import (
	"slices"
	"sort"
	"time"

	"github.com/poisonwatch/poisonwatch/incident/journal"

	"github.com/poisonwatch/poisonwatch/actions"
	"github.com/poisonwatch/poisonwatch/mqwatch"
)

// HistoryLen is how many polls of history each queue keeps (sparklines, rates).
const HistoryLen = 120

// depthLen is how many polls of depth a queue keeps: the DEADQ and backout
// queues HistoryLen, for their sparklines; an input queue only what its rate
// needs (RateWindow), which at a 5 s interval is half of it: a fleet of
// 50,000 queues is nearly all input queues.
func (q *QMgrState) depthLen(role mqwatch.Role) int {
	if role == mqwatch.RoleDeadQ || role == mqwatch.RoleBOQ || q.interval <= 0 {
		return HistoryLen
	}
	return min(HistoryLen, int(RateWindow/q.interval)+2)
}

// RateWindow is the span rates are measured over.
const RateWindow = 5 * time.Minute

// QMgrState is everything known about one queue manager.
type QMgrState struct {
	Name string
	Snap *mqwatch.Snapshot // latest, possibly stale
	// LastGood is when the last successful poll ended.
	LastGood time.Time
	Queues   map[string]*QueueState
	Groups   map[string]*GroupSet // by BOQ / DEADQ name
	Alerts   []Alert
	// Styles names the consumer style of queues whose consumer is known, for
	// route predictions; others get DefaultStyle.
	Styles map[string]actions.Style
	// PauseAfter holds asf MDBs' maxSequentialDeliveryFailures + 1 per
	// input queue (R6i), for route predictions.
	PauseAfter map[string]int32
	// UnattendedAfter is how long the oldest message of its DEADQ or a
	// BOQ may wait before R8f (0: DefaultUnattendedAfter, negative: never;
	// Unattended says which).
	UnattendedAfter time.Duration
	// ages counts each inventory's messages by age, for QueueState.Ages:
	// the fold's own, never read from a picture.
	ages map[string]*ageHist
	// acts is the journal the alerts about acts read (State.Journal).
	acts     *journal.Journal
	inv      *actions.QueueIndex
	lastLint []Alert
	// connected holds the alerts of the last good poll, shown while the
	// queue manager cannot be reached.
	connected []Alert
	interval  time.Duration
	// annotated is the book's version the alerts' histories were read at
	// (AlertBook.Version).
	annotated uint64
	// sorted is a picture's SortedQueues, sorted once when the picture is
	// made: every session of a war room asks for it, several times a frame.
	sorted []*QueueState
}

// QueueState is one queue's derived figures across polls.
type QueueState struct {
	View    mqwatch.QueueView
	Depth   *Ring // CURDEPTH per poll
	Arrived *Ring // cumulative messages seen arriving (inventories only)
	arrived float64
	// invLen is the length of the inventory last counted for arrivals, -1
	// before the first.
	invLen int
	// Ages counts the messages of a DEADQ or BOQ by how long they have
	// waited (R8f).
	Ages AgeBands
	// Head is the browsed head of the queue (input queues).
	Head []mqwatch.Summary
	// AtRisk counts head messages with BackoutCount > 0; Stuck those with
	// BackoutCount >= BOTHRESH > 0 (R8c).
	AtRisk, Stuck int
	// MaxBackout is the highest BackoutCount seen at the head, and its
	// history since it was first above 0.
	MaxBackout     int32
	BackoutHistory *Ring
	// LastGetSeen is when LastGet last changed (for stalled consumers).
	lastGet     time.Time
	lastGetSeen time.Time
}

// State is the model of every watched queue manager.
type State struct {
	Order []string
	QMgrs map[string]*QMgrState
	Now   func() time.Time
	// Interval is the poll interval, used to decide staleness (two missed polls).
	Interval time.Duration
	// Book remembers the alerts' histories and acknowledgements (with a
	// state file, it outlives the process).
	Book *AlertBook
	// Journal is what was done (the process's or the room's): alerts about
	// acts read it (R10f's cause fixed, a GET inhibit set here); nil: none.
	Journal *journal.Journal
	// Warming says the polls folded are a simulated history being read
	// (the demo's warm-up): an alert carried over a restart that they lack
	// has not cleared (AlertBook.ObserveUnsettled).
	Warming bool
	// picture: a copy nothing changes (Picture); QMgr adds nothing to it.
	picture bool
}

// New returns an empty state.
func New(now func() time.Time, interval time.Duration) *State {
	if now == nil {
		now = time.Now
	}
	if interval <= 0 {
		interval = 2 * time.Second
	}
	return &State{QMgrs: map[string]*QMgrState{}, Now: now, Interval: interval, Book: NewAlertBook()}
}

// QMgr returns the state of the named queue manager, creating it. A
// picture, which many sessions read at once, hands out an empty state for
// a name it lacks without keeping it.
func (s *State) QMgr(name string) *QMgrState {
	q := s.QMgrs[name]
	if q == nil {
		q = &QMgrState{Name: name, Queues: map[string]*QueueState{}, Groups: map[string]*GroupSet{}, interval: s.Interval}
		if s.picture || name == "" {
			// A picture is nobody's to change; and no queue manager is
			// called "": a session with no connection of its own (the fleet
			// read from Prometheus) asks for it and must not gain one.
			return q
		}
		s.QMgrs[name] = q
		s.Order = append(s.Order, name)
		sort.Strings(s.Order)
	}
	return q
}

// Age returns how old the queue manager's data is.
func (q *QMgrState) Age(now time.Time) time.Duration {
	if q.LastGood.IsZero() {
		return 0
	}
	return now.Sub(q.LastGood)
}

// Stale reports whether the data is older than two missed polls, or the last
// poll failed.
func (q *QMgrState) Stale(now time.Time) bool {
	if q.Snap == nil {
		return true
	}
	return !q.Snap.Connected || q.Age(now) > 3*q.interval
}

// SortedQueues returns the queue states in a stable order (rows never jump):
// local queues by name, then the definitions that hold no messages (alias,
// remote, model) by name.
func (q *QMgrState) SortedQueues() []*QueueState {
	if q.sorted != nil {
		return slices.Clone(q.sorted) // the caller's to sort again
	}
	out := make([]*QueueState, 0, len(q.Queues))
	for _, qs := range q.Queues {
		out = append(out, qs)
	}
	sort.Slice(out, func(i, j int) bool {
		li, lj := out[i].View.HasStatus, out[j].View.HasStatus
		if li != lj {
			return li
		}
		return out[i].View.Info.Name < out[j].View.Info.Name
	})
	return out
}

// DepthPerMinute is the change of CURDEPTH per minute over RateWindow.
func (qs *QueueState) DepthPerMinute() (float64, bool) { return qs.Depth.PerMinute(RateWindow) }

// ArrivalsPerMinute is how fast messages arrive on a BOQ or the DEADQ.
func (qs *QueueState) ArrivalsPerMinute() (float64, bool) { return qs.Arrived.PerMinute(RateWindow) }

// Fill returns CURDEPTH / MAXDEPTH (0 when unknown).
func (qs *QueueState) Fill() float64 {
	if qs.View.Info.MaxDepth <= 0 {
		return 0
	}
	return float64(qs.View.Status.Depth) / float64(qs.View.Info.MaxDepth)
}

// TimeToFull forecasts when the queue reaches MAXDEPTH at the current net
// growth rate; false when it is not growing, or when nothing arrives on a
// queue whose arrivals are counted (a DEADQ or BOQ): a forecast beside "no
// arrivals" would be a guess from a depth that moved for another reason.
func (qs *QueueState) TimeToFull() (time.Duration, bool) {
	rate, ok := qs.DepthPerMinute()
	if !ok || rate <= 0 || qs.View.Info.MaxDepth <= 0 {
		return 0, false
	}
	if in, ok := qs.ArrivalsPerMinute(); ok && in <= 0 {
		return 0, false
	}
	room := float64(qs.View.Info.MaxDepth - qs.View.Status.Depth)
	if room <= 0 {
		return 0, true
	}
	return time.Duration(room / rate * float64(time.Minute)), true
}

// Route predicts, through the engine, what happens to a message on the
// queue's next rollback, with the fallbacks. Filled in by route.go.
func (q *QMgrState) Route(queue string, s *mqwatch.Summary) []string { return q.route(queue, s) }
