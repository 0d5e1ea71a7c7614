package model

import (
	"fmt"
	"time"

	"github.com/poisonwatch/poisonwatch/actions"
)

// AlertCounts counts a queue manager's critical and warning alerts that
// nobody acknowledged or snoozed, and those acknowledged and those snoozed
// (any severity but info), apart: a snooze is "not now", not "someone is on
// it", and the header must not count it as handled.
func (q *QMgrState) AlertCounts(now time.Time) (crit, warn, acked, snoozed int) {
	for _, al := range q.Alerts {
		switch {
		case al.Severity < actions.Warning:
		case al.Acked(now) && al.History.Ack.Snooze:
			snoozed++
		case al.Acked(now):
			acked++
		case al.Severity == actions.Critical:
			crit++
		default:
			warn++
		}
	}
	return crit, warn, acked, snoozed
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
