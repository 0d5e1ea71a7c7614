package model

import (
	"cmp"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/poisonwatch/poisonwatch/actions"
	"github.com/poisonwatch/poisonwatch/mqwatch"
)

// FlapWindow is how long an alert may stay clear and still be the same
// alert when it fires again: it flapped. Clear for longer, it is over, and
// firing again is a new alert that nobody has acknowledged. Two minutes is
// a few polls at any sensible interval: a threshold crossed back and forth
// by one message is one incident, a queue that was fine for minutes is not.
const FlapWindow = 2 * time.Minute

// Episode is an alert's history: one stretch of it firing, from the first
// poll that raised it to the poll that found it gone for good.
type Episode struct {
	Key     string // Alert.Key of the alert
	QMgr    string
	Rule    string
	Queue   string
	Sev     actions.Severity
	Text    string    // the alert's text when it last fired
	Start   time.Time // the poll that raised it
	Cleared time.Time // the poll that last found it gone; zero while firing
	// Over says the alert stayed clear past FlapWindow: it has ended.
	Over  bool
	Flaps int // times it cleared and fired again within FlapWindow
	Ack   Ack
}

// Firing says the alert is being raised now.
func (e Episode) Firing() bool { return !e.Start.IsZero() && e.Cleared.IsZero() }

// ID names the episode: its alert and when it started.
func (e Episode) ID() string { return e.Key + "@" + e.Start.UTC().Format(time.RFC3339) }

// Ack is a person's acknowledgement (or snooze) of an alert. It lasts until
// the alert ends; a snooze for a time ends sooner, at Until.
type Ack struct {
	By     string
	At     time.Time
	Note   string    // one line, as typed
	Snooze bool      // snoozed rather than acknowledged
	Until  time.Time // end of a snooze for a time; zero: until the alert ends
}

// Active says the acknowledgement still holds at now.
func (k Ack) Active(now time.Time) bool {
	return k.By != "" && (k.Until.IsZero() || now.Before(k.Until))
}

// Line says who acknowledged and why: "acked by alice 20:43: looking at
// the ORDERS consumer", "snoozed by bob 20:50 until 21:50".
func (k Ack) Line() string {
	if k.By == "" {
		return ""
	}
	verb := "acked"
	if k.Snooze {
		verb = "snoozed"
	}
	s := verb + " by " + k.By + " " + k.At.Format("15:04")
	switch {
	case k.Snooze && k.Until.IsZero():
		s += " until it clears"
	case !k.Until.IsZero():
		s += " until " + k.Until.Format("15:04")
	}
	if k.Note != "" {
		s += ": " + k.Note
	}
	return s
}

// Key identifies an alert across polls: its queue manager, rule, queue and
// severity (a warning that turns critical is a new alert: its
// acknowledgement said nothing about the worse news). Alerts without a rule
// say what they are before the first colon.
func (a Alert) Key() string {
	what := a.Rule
	if what == "" {
		what, _, _ = strings.Cut(a.Text, ":")
	}
	k := a.QMgr + "\x00" + what + "\x00" + a.Queue + "\x00" + a.Severity.Label()
	if a.Instance != "" {
		k += "\x00" + a.Instance
	}
	return k
}

// Acked says someone acknowledged or snoozed the alert and it still holds.
func (a Alert) Acked(now time.Time) bool { return a.History.Ack.Active(now) }

// Transition is a change of an alert's life: it fired, flapped, cleared,
// ended, or someone acknowledged or snoozed it.
type Transition struct {
	Kind    string // "fired", "flapped", "cleared", "ended", "acked", "snoozed"
	At      time.Time
	Episode Episode
}

// AlertBook remembers every alert's history and acknowledgements. One book
// may serve many States: an observation a book has already seen is not
// counted twice. It is safe for concurrent use.
type AlertBook struct {
	mu   sync.Mutex
	open map[string]*Episode // by Key: firing, or clear within FlapWindow
	seen map[string]time.Time
	// ended remembers when each alert's last episode started, once it
	// ended: a merge must not bring it back.
	ended map[string]time.Time
	// carried are the alerts that were firing when an earlier process
	// stopped (merged before this book observed their queue manager), with
	// the first settled poll that lacked them (zero: none yet). The first
	// polls after a start may lack an alert only for want of history (a
	// rate's second poll, a consumer idle long enough): firing again
	// within FlapWindow of that poll goes on with the episode, no flap; a
	// restart is not a flap. Lacking it for longer, it ended then.
	carried map[string]time.Time
	// ver counts the changes, for pictures that read the histories at one
	// (Version).
	ver uint64
	// OnChange, when set, is called (outside the lock) after a change worth
	// keeping: an alert started or ended, an acknowledgement.
	OnChange func(changes []Transition)
}

// NewAlertBook returns an empty book.
func NewAlertBook() *AlertBook {
	return &AlertBook{open: map[string]*Episode{}, seen: map[string]time.Time{}, ended: map[string]time.Time{},
		carried: map[string]time.Time{}}
}

// Version counts the book's changes: a history read at one version is
// still the book's while the version is the same.
func (b *AlertBook) Version() uint64 {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.ver
}

// Observe takes the alerts of qmgr at one poll's time and returns what
// changed. A poll the book has already observed (another State folding
// the same snapshot) changes nothing.
func (b *AlertBook) Observe(qmgr string, alerts []Alert, at time.Time) []Transition {
	return b.observe(qmgr, alerts, at, true)
}

// ObserveUnsettled is Observe for a poll that cannot tell an alert has
// cleared or come back: the queue manager does not answer, or the poll is
// of a simulated history (the demo's warm-up). An alert carried over a
// restart that it lacks is as it was, and one that clears and fires again
// meanwhile does not flap.
func (b *AlertBook) ObserveUnsettled(qmgr string, alerts []Alert, at time.Time) []Transition {
	return b.observe(qmgr, alerts, at, false)
}

func (b *AlertBook) observe(qmgr string, alerts []Alert, at time.Time, settled bool) []Transition {
	b.mu.Lock()
	if last, ok := b.seen[qmgr]; ok && !at.After(last) {
		b.mu.Unlock()
		return nil
	}
	b.seen[qmgr] = at
	b.ver++
	var out []Transition
	firing := make(map[string]bool, len(alerts))
	for _, al := range alerts {
		k := al.Key()
		if firing[k] {
			continue
		}
		firing[k] = true
		delete(b.carried, k) // it fires again: the episode goes on
		e := b.open[k]
		kind := ""
		switch {
		case e == nil:
			e = &Episode{Key: k, QMgr: al.QMgr, Rule: al.Rule, Queue: al.Queue, Sev: al.Severity, Start: at}
			b.open[k] = e
			kind = "fired"
		case !e.Cleared.IsZero() && !settled:
			// The warm-up's simulated history firing it, or the last good
			// poll's alerts shown while the queue manager does not answer,
			// are not the alert coming back.
			e.Cleared = time.Time{}
		case !e.Cleared.IsZero():
			e.Cleared = time.Time{}
			e.Flaps++
			kind = "flapped"
		}
		e.Text = al.Text
		if kind != "" {
			out = append(out, Transition{Kind: kind, At: at, Episode: *e})
		}
	}
	for k, e := range b.open {
		if e.QMgr != qmgr || firing[k] {
			continue
		}
		if since, ok := b.carried[k]; ok {
			if tr, ended := b.carriedMissing(e, at, since, settled); ended {
				out = append(out, tr)
			}
			continue
		}
		switch {
		case e.Cleared.IsZero():
			e.Cleared = at
			out = append(out, Transition{Kind: "cleared", At: at, Episode: *e})
		case at.Sub(e.Cleared) > FlapWindow:
			e.Over = true
			delete(b.open, k)
			b.ended[k] = e.Start
			out = append(out, Transition{Kind: "ended", At: at, Episode: *e})
		}
	}
	b.mu.Unlock()
	b.changed(out)
	return out
}

func (b *AlertBook) changed(ts []Transition) {
	if len(ts) > 0 && b.OnChange != nil {
		b.OnChange(ts)
	}
}

// Episode returns the history of the alert with key k, false when the book
// has none (it has not been observed yet).
func (b *AlertBook) Episode(k string) (Episode, bool) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if e := b.open[k]; e != nil {
		return *e, true
	}
	return Episode{}, false
}

// Acknowledge records k's acknowledgement (or snooze) while it fires; it
// returns false when the alert is not known or has ended.
func (b *AlertBook) Acknowledge(k string, ack Ack) (Episode, bool) {
	b.mu.Lock()
	e := b.open[k]
	if e == nil {
		b.mu.Unlock()
		return Episode{}, false
	}
	e.Ack = ack
	b.ver++
	ep := *e
	b.mu.Unlock()
	kind := "acked"
	if ack.Snooze {
		kind = "snoozed"
	}
	b.changed([]Transition{{Kind: kind, At: ack.At, Episode: ep}})
	return ep, true
}

// annotate gives each alert its history and puts the ones somebody has
// acknowledged after the rest, each part most severe first. It returns
// the book's version the histories were read at.
func (b *AlertBook) annotate(alerts []Alert, now time.Time) uint64 {
	if b == nil {
		return 0
	}
	b.mu.Lock()
	for i := range alerts {
		if e := b.open[alerts[i].Key()]; e != nil {
			alerts[i].History = *e
		}
	}
	ver := b.ver
	b.mu.Unlock()
	slices.SortStableFunc(alerts, func(x, y Alert) int {
		return cmp.Or(cmp.Compare(ackRank(x, now), ackRank(y, now)), cmp.Compare(y.Severity, x.Severity))
	})
	return ver
}

func ackRank(a Alert, now time.Time) int {
	if a.Acked(now) {
		return 1
	}
	return 0
}

// track records q's alerts in the state's book and annotates them. A
// partial snapshot's alerts are shown but not recorded: the poll's own
// snapshot, at the same time, has them all. A poll of a queue manager
// that does not answer, or of the warm-up's simulated history, says
// nothing of the alerts carried over a restart.
func (s *State) track(q *QMgrState, snap *mqwatch.Snapshot) {
	if s.Book == nil {
		return
	}
	switch {
	case snap.Partial():
	case snap.Connected && !s.Warming:
		s.Book.Observe(q.Name, q.Alerts, snap.Time)
	default:
		s.Book.ObserveUnsettled(q.Name, q.Alerts, snap.Time)
	}
	q.annotated = s.Book.annotate(q.Alerts, s.Now())
}

// Reannotate gives every queue manager's alerts their latest history and
// order: after an acknowledgement, here or in another process. A picture
// is read-only: Reannotated makes a new one.
func (s *State) Reannotate() {
	if s.picture {
		return
	}
	for _, name := range s.Order {
		q := s.QMgrs[name]
		q.annotated = s.Book.annotate(q.Alerts, s.Now())
	}
}
