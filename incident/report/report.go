// Package report turns a recording into a post-mortem: the alerts' timeline
// (started, acknowledged, cleared), charts of the DEADQ and backout queues,
// every operator action and what came back, the dead letters still there at
// the end grouped as the triage groups them, and the configuration findings
// with their MQSC fixes. It renders HTML (self-contained: inline SVG and
// CSS, no JavaScript) and Markdown.
package report

import (
	"cmp"
	"fmt"
	"slices"
	"time"

	"github.com/poisonwatch/poisonwatch/incident/journal"

	"github.com/poisonwatch/poisonwatch/codec/mqfmt"
	"github.com/poisonwatch/poisonwatch/incident/record"
	"github.com/poisonwatch/poisonwatch/model"
	"github.com/poisonwatch/poisonwatch/mqwatch"
)

// Report is what a post-mortem says.
type Report struct {
	Source   string
	QMgrs    []string
	From, To time.Time
	Alerts   []AlertRow
	// Entries are the journal's entries within the span, in order; Actions
	// the acts they fold into (journal.Acts): what the operators did and
	// what it came to, as the audit view and the room told it.
	Entries   []journal.Entry
	Actions   []journal.Act
	Presence  []record.Presence
	Remaining []Remaining
	Findings  []Finding
	Series    Series
}

// AlertRow is one alert's life within the report's span.
type AlertRow struct {
	QMgr, Rule, Queue string
	Severity          string
	Text              string
	Start             time.Time
	Ack               model.Ack
	Cleared           time.Time // zero: still firing at the end
	Flaps             int
}

// Remaining is a group of dead letters still on a DEADQ at the end.
type Remaining struct {
	QMgr, DeadQ string
	Reason      string // "MQRC_Q_FULL (2053)"
	Explain     string
	Dest        string
	Count       int
	Oldest      time.Time
}

// Finding is a configuration finding at the end, with its fix.
type Finding struct {
	QMgr, Rule, Queue, Severity, Text, Fix string
}

// Series are the figures charted, one point per poll.
type Series struct {
	Depth    map[string][]Point // "QM1 SYSTEM.DEAD.LETTER.QUEUE" → depth
	Fill     map[string][]Point // "QM1 ORDERS.BO" → percent of MAXDEPTH
	Arrivals map[string][]Point // "QM1 MQRC_Q_FULL (2053)" → dead letters a minute
}

// Point is one figure at one time.
type Point struct {
	T time.Time
	V float64
}

// Build reads the recording from its start (the state at from needs what
// came before) and reports on [from, to]; zero times are the recording's
// ends.
func Build(rec *record.Recording, from, to time.Time) *Report {
	frames := rec.Frames()
	r := &Report{Source: rec.Header.Source, QMgrs: rec.Header.QMgrs, From: from, To: to,
		Series: Series{Depth: map[string][]Point{}, Fill: map[string][]Point{}, Arrivals: map[string][]Point{}}}
	if len(frames) == 0 {
		return r
	}
	if r.From.IsZero() {
		r.From = frames[0].Time()
	}
	if r.To.IsZero() {
		r.To = frames[len(frames)-1].Time()
	}
	var now time.Time
	st := model.New(func() time.Time { return now }, max(rec.Header.Interval, time.Second))
	reb := record.NewRebuilder()
	alerts := map[string]*AlertRow{} // by episode ID
	arrivals := map[string]map[time.Time]float64{}
	for _, fr := range frames {
		t := fr.Time()
		if t.After(r.To) {
			continue // frames are written as they happen, nearly but not quite in time order
		}
		in := !t.Before(r.From)
		switch {
		case fr.Poll != nil:
			now = t
			snap := reb.Apply(fr.Poll)
			st.Fold(snap)
			if in {
				r.Series.poll(snap, arrivals)
			}
		case fr.Chunk != nil:
			reb.Chunk(fr.Chunk)
		case fr.Alert != nil:
			r.alert(fr.Alert, alerts, in)
		case fr.Entry != nil && in:
			r.Entries = append(r.Entries, *fr.Entry)
		case fr.Action != nil && in:
			r.Entries = append(r.Entries, fr.Action.AsEntry())
		case fr.Presence != nil && in:
			r.Presence = append(r.Presence, *fr.Presence)
		}
	}
	r.Actions = journal.Acts(r.Entries)
	for k, byMin := range arrivals {
		for m, n := range byMin {
			r.Series.Arrivals[k] = append(r.Series.Arrivals[k], Point{T: m, V: n})
		}
		slices.SortFunc(r.Series.Arrivals[k], func(a, b Point) int { return a.T.Compare(b.T) })
	}
	for _, a := range alerts {
		if !a.Start.After(r.To) && (a.Cleared.IsZero() || !a.Cleared.Before(r.From)) {
			r.Alerts = append(r.Alerts, *a)
		}
	}
	slices.SortFunc(r.Alerts, func(a, b AlertRow) int {
		return cmp.Or(a.Start.Compare(b.Start), cmp.Compare(a.QMgr+a.Rule+a.Queue, b.QMgr+b.Rule+b.Queue))
	})
	r.end(st)
	return r
}

func (r *Report) alert(ev *record.AlertEvent, rows map[string]*AlertRow, in bool) {
	ep := ev.Episode
	id := ep.ID()
	a := rows[id]
	if a == nil {
		a = &AlertRow{QMgr: ep.QMgr, Rule: ep.Rule, Queue: ep.Queue, Severity: ep.Sev.Label(), Start: ep.Start}
		rows[id] = a
	}
	a.Text = ep.Text
	a.Flaps = ep.Flaps
	switch ev.Kind {
	case "acked", "snoozed":
		a.Ack = ep.Ack
	case "flapped":
		a.Cleared = time.Time{}
	case "cleared", "ended":
		a.Cleared = ep.Cleared
	}
}

// poll adds one snapshot's figures.
func (s *Series) poll(snap *mqwatch.Snapshot, arrivals map[string]map[time.Time]float64) {
	if !snap.Connected {
		return
	}
	for _, v := range snap.Queues {
		name := snap.QMgrName + " " + v.Info.Name
		switch v.Role {
		case mqwatch.RoleDeadQ:
			s.Depth[name] = append(s.Depth[name], Point{snap.Time, float64(v.Status.Depth)})
		case mqwatch.RoleBOQ:
			s.Depth[name] = append(s.Depth[name], Point{snap.Time, float64(v.Status.Depth)})
			if v.Info.MaxDepth > 0 {
				s.Fill[name] = append(s.Fill[name], Point{snap.Time, 100 * float64(v.Status.Depth) / float64(v.Info.MaxDepth)})
			}
		}
	}
	d, ok := snap.Deltas[snap.QMgr.DeadQ]
	if !ok || d.Resync {
		return // a first read: what was there, not what arrived
	}
	minute := snap.Time.Truncate(time.Minute)
	for i := range d.Added {
		k := snap.QMgrName + " " + reasonName(d.Added[i].DLHReason)
		if arrivals[k] == nil {
			arrivals[k] = map[time.Time]float64{}
		}
		arrivals[k][minute]++
	}
}

// end reads the state at the report's end: dead letters left, findings.
func (r *Report) end(st *model.State) {
	for _, name := range st.Order {
		q := st.QMgrs[name]
		if q.Snap == nil {
			continue
		}
		dq := q.Snap.QMgr.DeadQ
		if gs := q.Groups[dq]; gs != nil {
			for _, g := range gs.Groups(model.DimReasonDest) {
				rc := mqfmt.Reason(g.Key.Reason)
				dest := g.Key.DestQ
				if g.Key.DestQMgr != "" {
					dest += " (" + g.Key.DestQMgr + ")"
				}
				r.Remaining = append(r.Remaining, Remaining{QMgr: name, DeadQ: dq, Reason: reasonName(g.Key.Reason), Explain: rc.Explain(),
					Dest: dest, Count: g.Count, Oldest: g.Oldest})
			}
		}
		seen := map[string]bool{}
		add := func(al model.Alert) {
			seen[al.Key()] = true
			r.Findings = append(r.Findings, Finding{QMgr: name, Rule: al.Rule, Queue: al.Queue, Severity: al.Severity.Label(), Text: al.Text, Fix: al.Fix})
		}
		for _, al := range q.Findings() {
			add(al)
		}
		for _, al := range q.Alerts {
			if al.Fix != "" && !seen[al.Key()] {
				add(al) // a live alert with a fix (a full queue) is one too
			}
		}
	}
	slices.SortStableFunc(r.Remaining, func(a, b Remaining) int { return cmp.Compare(b.Count, a.Count) })
}

// reasonName is "MQRC_Q_FULL (2053)".
func reasonName(code int32) string { return fmt.Sprintf("%s (%d)", mqfmt.Reason(code), code) }
