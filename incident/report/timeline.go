package report

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/poisonwatch/poisonwatch/codec/mqfmt"
	"github.com/poisonwatch/poisonwatch/incident/journal"
)

// Moment is one line of the timeline: an alert fired, was acknowledged or
// cleared; an act was done, or what came back after it was seen.
type Moment struct {
	At   time.Time
	Kind string // fired, acked, cleared, an act's kind (run, fix, ...), came back
	What string // the sentence, sanitised
	// Detail is a fix's changes (MQSC, before → after), one per line.
	Detail []string
	// Bad: it fired, failed, or its messages came back.
	Bad bool
}

// timeline puts the incident in time order, as a post-mortem tells it:
// alert fired → acknowledged (by, note) → fix applied (by, MQSC, before →
// after) → cleared, with every run and what came back after it.
func (r *Report) timeline() []Moment {
	var out []Moment
	in := func(t time.Time) bool { return !t.Before(r.From) && !t.After(r.To) }
	for _, a := range r.Alerts {
		what := strings.TrimSpace(a.Rule + " " + a.Queue + " (" + a.QMgr + ")")
		if in(a.Start) {
			out = append(out, Moment{At: a.Start, Kind: "fired", Bad: true, What: fmt.Sprintf("%s %s fired: %s", a.Severity, what, a.Text)})
		}
		if a.Ack.By != "" && in(a.Ack.At) {
			verb := "acknowledged"
			if a.Ack.Snooze {
				verb = "snoozed"
			}
			m := fmt.Sprintf("%s %s %s", a.Ack.By, verb, what)
			if a.Ack.Note != "" {
				m += fmt.Sprintf(": %q", a.Ack.Note)
			}
			out = append(out, Moment{At: a.Ack.At, Kind: "acked", What: m})
		}
		if !a.Cleared.IsZero() && in(a.Cleared) {
			out = append(out, Moment{At: a.Cleared, Kind: "cleared", What: what + " cleared" + clearedBy(a, r.Entries)})
		}
	}
	for _, e := range r.Entries {
		if k := e.Kind; k == journal.Join || k == journal.Leave || (k == journal.Ack || k == journal.Snooze) && r.ackedInRows(e) {
			continue // the war room's section and the alerts' acknowledgements say those
		}
		m := Moment{At: e.At, Kind: string(e.Kind), What: e.Sentence(),
			Bad: e.Status == journal.Failed || e.Status == journal.Returned || e.Status == journal.Refused}
		m.Detail = append(m.Detail, actionView(ActionRow{journal.Act{Entry: e}}).Changes...)
		out = append(out, m)
	}
	for i := range out {
		out[i].What = mqfmt.Sanitize(out[i].What)
	}
	slices.SortStableFunc(out, func(a, b Moment) int { return cmp.Compare(a.At.UnixNano(), b.At.UnixNano()) })
	return out
}

// clearedBy names the last act on the alert's queue before it cleared,
// when there was one in the few minutes before: what most likely cleared
// it, as the operator will want to know.
func clearedBy(a AlertRow, entries []journal.Entry) string {
	var last *journal.Entry
	for i := range entries {
		e := &entries[i]
		if !e.Kind.IsAct() || e.Kind == journal.Ack || e.Kind == journal.Snooze || e.At.After(a.Cleared) || a.Cleared.Sub(e.At) > 10*time.Minute {
			continue
		}
		if e.QMgr == a.QMgr && (e.Queue == a.Queue || e.Target == a.Queue || e.Alert != "" && strings.Contains(e.Alert, a.Queue)) {
			last = e
		}
	}
	if last == nil {
		return ""
	}
	return fmt.Sprintf(", %s after %s's %s at %s", a.Cleared.Sub(last.At).Round(time.Second), last.Who(), last.Op, last.At.Format("15:04:05"))
}

// ackedInRows says an acknowledgement of the journal is already a moment
// of the timeline, as the acknowledgement of an alert row.
func (r *Report) ackedInRows(e journal.Entry) bool {
	for _, a := range r.Alerts {
		if a.Ack.By != "" && a.Ack.By == e.Who() && a.Ack.Note == e.Note && a.QMgr == e.QMgr && a.Queue == e.Queue {
			return true
		}
	}
	return false
}
