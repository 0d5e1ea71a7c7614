package model

import (
	"fmt"
	"time"

	"github.com/poisonwatch/poisonwatch/actions"
	"github.com/poisonwatch/poisonwatch/internal/words"
	"github.com/poisonwatch/poisonwatch/mqwatch"
)

// DefaultUnattendedAfter is how long the oldest dead letter of a DEADQ or
// BOQ may wait before R8f says it was forgotten, unless the queue manager's
// settings say otherwise (QMgrState.UnattendedAfter).
const DefaultUnattendedAfter = 24 * time.Hour

// The age bands the triage and the exporter count: a dead letter handled
// within the hour is an incident being worked; one older than a day or a
// week was forgotten.
const (
	ageHour = time.Hour
	ageDay  = 24 * time.Hour
	ageWeek = 7 * ageDay
)

func init() {
	ruleText["R8f"] = "A dead letter waiting on the DEADQ or a BOQ longer than the queue manager's threshold (1 day unless set) was forgotten: " +
		"its application is missing it. Triage the oldest groups first: requeue what can go back, park what needs its owner, archive and discard the rest."
}

// AgeBands count the messages of a DEADQ or BOQ by how long they have been
// there (QueuedAt: dead-lettered, or put for a BOQ), each band counting
// the older ones too.
type AgeBands struct {
	OverHour, OverDay, OverWeek int
	// Oldest is the QueuedAt of the oldest message; zero when none has a
	// valid time.
	Oldest time.Time
}

// Unattended is the threshold of R8f on q: its own, else the default; 0
// turns the alert off (the bands are still counted).
func (q *QMgrState) Unattended() time.Duration {
	if q.UnattendedAfter != 0 {
		return max(q.UnattendedAfter, 0)
	}
	return DefaultUnattendedAfter
}

// ageHist counts an inventory's messages per minute of QueuedAt, kept up
// to date with what changed between inventories (mqwatch.Inventory.Since),
// so a poll of a million-message DEADQ that a requeue drains costs the
// messages that left and came, not a million.
type ageHist struct {
	inv    *mqwatch.Inventory
	perMin map[int64]int
}

// update brings the counts to inv.
func (h *ageHist) update(inv *mqwatch.Inventory) {
	dropped, kept, ok := inv.Since(h.inv)
	if !ok || h.inv == nil || h.perMin == nil {
		h.perMin = map[int64]int{}
		h.add(inv, 0, inv.Len(), 1)
		h.inv = inv
		return
	}
	h.add(h.inv, 0, dropped, -1)
	h.add(h.inv, dropped+kept, h.inv.Len(), -1)
	h.add(inv, kept, inv.Len(), 1)
	h.inv = inv
}

// add counts sign times the messages of positions [from, to) of inv.
func (h *ageHist) add(inv *mqwatch.Inventory, from, to, sign int) {
	for i := from; i < to; i++ {
		t := inv.QueuedAt(i)
		if t.IsZero() {
			continue
		}
		m := t.Unix() / 60
		if h.perMin[m] += sign; h.perMin[m] <= 0 {
			delete(h.perMin, m)
		}
	}
}

// bands counts the messages by age at now. A minute's messages count as
// over a band once the whole minute is: a band is never early.
func (h *ageHist) bands(now time.Time) AgeBands {
	var b AgeBands
	for m, n := range h.perMin {
		age := now.Sub(time.Unix((m+1)*60, 0))
		if age > ageHour {
			b.OverHour += n
		}
		if age > ageDay {
			b.OverDay += n
		}
		if age > ageWeek {
			b.OverWeek += n
		}
	}
	return b
}

// foldAges counts the age bands of every inventoried queue (the DEADQ and
// the BOQs) of snap.
func (q *QMgrState) foldAges(snap *mqwatch.Snapshot) {
	if q.ages == nil {
		q.ages = map[string]*ageHist{}
	}
	for name, inv := range snap.Inventories {
		h := q.ages[name]
		if h == nil {
			h = &ageHist{}
			q.ages[name] = h
		}
		h.update(inv)
		if qs := q.Queues[name]; qs != nil {
			qs.Ages = h.bands(snap.Time)
			// To the second, as the triage's age ranges say it.
			qs.Ages.Oldest = q.Groups[name].oldest()
		}
	}
	for name := range q.ages {
		if _, ok := snap.Inventories[name]; !ok {
			delete(q.ages, name)
		}
	}
}

// unattendedAlert is R8f on a DEADQ or BOQ whose oldest message has waited
// longer than the queue manager's threshold.
func (q *QMgrState) unattendedAlert(qs *QueueState, now time.Time, add addFunc) {
	role, limit, b := qs.View.Role, q.Unattended(), qs.Ages
	if role != mqwatch.RoleDeadQ && role != mqwatch.RoleBOQ || limit <= 0 || b.Oldest.IsZero() {
		return
	}
	waited := now.Sub(b.Oldest)
	if waited <= limit {
		return
	}
	add(actions.Warning, "R8f", qs.View.Info.Name, "dead letters left unattended: the oldest has waited %s (over %s here); %s",
		Span(waited), LimitText(limit), b.Sentence())
}

// LimitText says a threshold as it was likely set: "1 day", "36 h", "10 min".
func LimitText(d time.Duration) string {
	switch {
	case d >= ageDay && d%ageDay == 0:
		return words.Count(int(d/ageDay), "day")
	case d >= time.Hour && d%time.Hour == 0:
		return fmt.Sprintf("%d h", d/time.Hour)
	case d >= time.Minute && d%time.Minute == 0:
		return fmt.Sprintf("%d min", d/time.Minute)
	}
	return Span(d)
}

// Sentence says the bands: "40 over 1 h, 12 over 1 day, none over 1 week".
func (b AgeBands) Sentence() string {
	count := func(n int) string {
		if n == 0 {
			return "none"
		}
		return words.Count(n, "message")
	}
	return fmt.Sprintf("%s over 1 h, %s over 1 day, %s over 1 week", count(b.OverHour), count(b.OverDay), count(b.OverWeek))
}
