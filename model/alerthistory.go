package model

import (
	"cmp"
	"fmt"
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
// may serve many States (the sessions of a war room fold the same
// snapshots): an observation a book has already seen is not counted twice.
// It is safe for concurrent use.
type AlertBook struct {
	mu   sync.Mutex
	open map[string]*Episode // by Key: firing, or clear within FlapWindow
	seen map[string]time.Time
	// ended remembers when each alert's last episode started, once it
	// ended: a merge must not bring it back.
	ended map[string]time.Time
	// OnChange, when set, is called (outside the lock) after a change worth
	// keeping: an alert started or ended, an acknowledgement.
	OnChange func(changes []Transition)
}

// NewAlertBook returns an empty book.
func NewAlertBook() *AlertBook {
	return &AlertBook{open: map[string]*Episode{}, seen: map[string]time.Time{}, ended: map[string]time.Time{}}
}

// Observe takes the alerts of qmgr at one poll's time and returns what
// changed. A poll the book has already observed (another session folding
// the same snapshot) changes nothing.
func (b *AlertBook) Observe(qmgr string, alerts []Alert, at time.Time) []Transition {
	b.mu.Lock()
	if last, ok := b.seen[qmgr]; ok && !at.After(last) {
		b.mu.Unlock()
		return nil
	}
	b.seen[qmgr] = at
	var out []Transition
	firing := make(map[string]bool, len(alerts))
	for _, al := range alerts {
		k := al.Key()
		if firing[k] {
			continue
		}
		firing[k] = true
		e := b.open[k]
		kind := ""
		switch {
		case e == nil:
			e = &Episode{Key: k, QMgr: al.QMgr, Rule: al.Rule, Queue: al.Queue, Sev: al.Severity, Start: at}
			b.open[k] = e
			kind = "fired"
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
	ep := *e
	b.mu.Unlock()
	kind := "acked"
	if ack.Snooze {
		kind = "snoozed"
	}
	b.changed([]Transition{{Kind: kind, At: ack.At, Episode: ep}})
	return ep, true
}

// Open lists the alerts the book remembers (firing, or clear within
// FlapWindow), oldest first: what a state file keeps.
func (b *AlertBook) Open() []Episode {
	b.mu.Lock()
	defer b.mu.Unlock()
	out := make([]Episode, 0, len(b.open))
	for _, e := range b.open {
		out = append(out, *e)
	}
	slices.SortFunc(out, func(x, y Episode) int { return cmp.Or(x.Start.Compare(y.Start), cmp.Compare(x.Key, y.Key)) })
	return out
}

// Merge takes episodes remembered elsewhere (the state file after a
// restart, or another serve's): an alert the book does not know is taken
// as it is; for one it knows, the earlier start and the newer
// acknowledgement win. An alert this book saw end stays ended. It reports
// whether anything changed.
func (b *AlertBook) Merge(eps []Episode) bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	changed := false
	for _, in := range eps {
		if end, ok := b.ended[in.Key]; ok && !in.Start.After(end) {
			continue
		}
		e := b.open[in.Key]
		if e == nil {
			c := in
			b.open[in.Key] = &c
			changed = true
			continue
		}
		if in.Start.Before(e.Start) {
			e.Start, e.Flaps = in.Start, max(e.Flaps, in.Flaps)
			changed = true
		}
		if in.Ack.At.After(e.Ack.At) {
			e.Ack = in.Ack
			changed = true
		}
	}
	return changed
}

// annotate gives each alert its history and puts the ones somebody has
// acknowledged after the rest, each part most severe first.
func (b *AlertBook) annotate(alerts []Alert, now time.Time) {
	if b == nil {
		return
	}
	b.mu.Lock()
	for i := range alerts {
		if e := b.open[alerts[i].Key()]; e != nil {
			alerts[i].History = *e
		}
	}
	b.mu.Unlock()
	slices.SortStableFunc(alerts, func(x, y Alert) int {
		return cmp.Or(cmp.Compare(ackRank(x, now), ackRank(y, now)), cmp.Compare(y.Severity, x.Severity))
	})
}

func ackRank(a Alert, now time.Time) int {
	if a.Acked(now) {
		return 1
	}
	return 0
}

// track records q's alerts in the state's book and annotates them. A
// partial snapshot's alerts are shown but not recorded: the poll's own
// snapshot, at the same time, has them all.
func (s *State) track(q *QMgrState, snap *mqwatch.Snapshot) {
	if s.Book == nil {
		return
	}
	if !snap.Partial() {
		s.Book.Observe(q.Name, q.Alerts, snap.Time)
	}
	s.Book.annotate(q.Alerts, s.Now())
}

// Reannotate gives every queue manager's alerts their latest history and
// order: after an acknowledgement, here or in another session.
func (s *State) Reannotate() {
	for _, name := range s.Order {
		s.Book.annotate(s.QMgrs[name].Alerts, s.Now())
	}
}

// AlertCounts counts a queue manager's critical and warning alerts that
// nobody acknowledged, and those acknowledged (any severity but info).
func (q *QMgrState) AlertCounts(now time.Time) (crit, warn, acked int) {
	for _, al := range q.Alerts {
		switch {
		case al.Severity < actions.Warning:
		case al.Acked(now):
			acked++
		case al.Severity == actions.Critical:
			crit++
		default:
			warn++
		}
	}
	return crit, warn, acked
}

// OldestUnacked is the alert that has fired longest without anybody
// acknowledging it, nil when there is none.
func (q *QMgrState) OldestUnacked(now time.Time) *Alert {
	var old *Alert
	for i := range q.Alerts {
		al := &q.Alerts[i]
		if al.Acked(now) || al.History.Start.IsZero() {
			continue
		}
		if old == nil || al.History.Start.Before(old.History.Start) ||
			(al.History.Start.Equal(old.History.Start) && al.Severity > old.Severity) {
			old = al
		}
	}
	return old
}

// Since says how long an alert has fired: "since 20:41 (12m)"; a start on
// another day names the day. "" when unknown.
func Since(start, now time.Time) string {
	if start.IsZero() {
		return ""
	}
	start = start.In(now.Location())
	at := start.Format("15:04")
	y1, m1, d1 := start.Date()
	if y2, m2, d2 := now.Date(); y1 != y2 || m1 != m2 || d1 != d2 {
		at = start.Format("Jan 2 15:04")
	}
	return "since " + at + " (" + shortSpan(now.Sub(start)) + ")"
}

// shortSpan is a duration to the minute past the first: 45s, 12m, 2h05m, 3d.
func shortSpan(d time.Duration) string {
	if d >= time.Minute && d < time.Hour {
		return fmt.Sprintf("%dm", int(d.Minutes()))
	}
	return Span(d)
}
