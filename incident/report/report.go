// Package report turns a recording into a post-mortem: the alerts' timeline
// (started, acknowledged, cleared), charts of the DEADQ and backout queues
// (a panel per queue manager, broken where no poll was made), every
// operator action and how it ended, who was in the war room, the dead
// letters still there at the end grouped as the triage groups them, the
// configuration findings with their MQSC fixes, and the text of the rules
// cited. It renders HTML (self-contained: inline SVG and CSS, no
// JavaScript) and Markdown, both from one list of sections (sections.go).
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
)

// Report is what a post-mortem says.
type Report struct {
	Source   string
	QMgrs    []string
	From, To time.Time
	Interval time.Duration // the recording's poll interval; 0 when it did not say
	Alerts   []AlertRow
	Actions  []ActionRow
	// Entries are the journal's entries in the span, as recorded: the
	// timeline and Actions are made of them.
	Entries   []journal.Entry
	People    []Person // who was in the war room (a serve recording)
	Remaining []Remaining
	Findings  []Finding
	Series    Series
	Timeline  []Moment      // what happened, in time order (timeline.go)
	Gaps      []Gap         // times with no figures; the charts break there
	BreakAt   time.Duration // how long between polls breaks a line (0: never)
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

// Build reads the recording from its start (the state at from needs what
// came before) and reports on [from, to]; zero times are the recording's
// ends.
func Build(rec *record.Recording, from, to time.Time) *Report {
	frames := rec.Frames()
	r := &Report{Source: rec.Header.Source, QMgrs: rec.Header.QMgrs, From: from, To: to, Interval: rec.Header.Interval}
	c := newCollector()
	if len(frames) == 0 {
		for _, a := range journal.Acts(r.Entries) {
			if a.Kind != journal.Ack && a.Kind != journal.Snooze { // the alerts' rows say those
				r.Actions = append(r.Actions, ActionRow{a})
			}
		}
		r.Series = c.series()
		return r
	}
	first, last := Span(rec)
	if r.From.IsZero() {
		r.From = first
	}
	if r.To.IsZero() {
		r.To = last
	}
	var now time.Time
	st := model.New(func() time.Time { return now }, max(rec.Header.Interval, time.Second))
	reb := record.NewRebuilder()
	alerts := map[string]*AlertRow{} // by episode ID
	var room []record.Presence
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
				c.poll(snap)
			}
		case fr.Chunk != nil:
			reb.Chunk(fr.Chunk)
		case fr.Alert != nil:
			r.alert(fr.Alert, alerts, in)
		case fr.Entry != nil && in:
			r.Entries = append(r.Entries, *fr.Entry)
		case fr.Action != nil && in:
			r.Entries = append(r.Entries, legacyEntry(*fr.Action))
		case fr.Presence != nil:
			room = append(room, *fr.Presence) // who joined before from may still be there
		}
	}
	for _, p := range people(room, r.From) {
		r.People = append(r.People, *p)
	}
	for _, a := range journal.Acts(r.Entries) {
		if a.Kind != journal.Ack && a.Kind != journal.Snooze { // the alerts' rows say those
			r.Actions = append(r.Actions, ActionRow{a})
		}
	}
	r.Series = c.series()
	r.BreakAt = breakAfter(r.Interval, c.polls)
	r.Gaps = c.gaps(r.BreakAt)
	for _, a := range alerts {
		if !a.Start.After(r.To) && (a.Cleared.IsZero() || !a.Cleared.Before(r.From)) {
			r.Alerts = append(r.Alerts, *a)
		}
	}
	slices.SortFunc(r.Alerts, func(a, b AlertRow) int {
		return cmp.Or(a.Start.Compare(b.Start), cmp.Compare(a.QMgr+a.Rule+a.Queue, b.QMgr+b.Rule+b.Queue))
	})
	r.end(st)
	r.Timeline = r.timeline()
	return r
}

// Span is the recording's first and last time. Frames are written as
// things happen, nearly but not quite in time order (an action is written
// when it ends, stamped when it started), so the last frame is not
// always the latest.
func Span(rec *record.Recording) (first, last time.Time) {
	for i, fr := range rec.Frames() {
		t := fr.Time()
		if i == 0 || t.Before(first) {
			first = t
		}
		if t.After(last) {
			last = t
		}
	}
	return first, last
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
