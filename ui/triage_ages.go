package ui

import (
	"fmt"

	"github.com/charmbracelet/x/ansi"

	"github.com/poisonwatch/poisonwatch/codec/mqfmt"
	"github.com/poisonwatch/poisonwatch/model"
)

// agesLine counts the queue's messages by how long they have waited, in
// amber once the oldest is past the queue manager's threshold (R8f), and
// says how many on a DEADQ have no MQDLH (R8g: listed last). The triage
// shows it under its title once a message has waited over an hour or
// lacks an MQDLH: an incident being worked needs neither said.
func (t *triageScreen) agesLine(c common, w int) string {
	b, noDLH, ok := t.ages()
	if !ok {
		return ""
	}
	st := c.Styles()
	var txt string
	style := st.Muted
	if b.OverHour > 0 || t.forgotten(b) {
		txt = fmt.Sprintf(" waiting: %s > 1 h · %s > 1 day · %s > 1 week · oldest %s",
			human(int64(b.OverHour)), human(int64(b.OverDay)), human(int64(b.OverWeek)), age(t.now.Sub(b.Oldest)))
		if t.forgotten(b) {
			txt += " (R8f: over " + model.LimitText(t.q.Unattended()) + ")"
			style = st.Warning
		}
	}
	if noDLH > 0 {
		if txt != "" {
			txt += " ·"
		}
		txt += fmt.Sprintf(" %s without MQDLH, listed last (R8g)", human(int64(noDLH)))
	}
	return ansi.Truncate(style.Render(txt), w, "…") + "\n"
}

// ages are the queue's age bands and its messages without an MQDLH;
// false when there is nothing to say of them.
func (t *triageScreen) ages() (b model.AgeBands, noDLH int, ok bool) {
	if t.q == nil {
		return b, 0, false
	}
	if qs := t.q.Queues[t.loc.Queue]; qs != nil {
		b = qs.Ages
	}
	noDLH = t.withoutDLH()
	return b, noDLH, b.OverHour > 0 || t.forgotten(b) || noDLH > 0
}

// forgotten says the oldest message is past the queue manager's R8f
// threshold, as the alert does.
func (t *triageScreen) forgotten(b model.AgeBands) bool {
	limit := t.q.Unattended()
	return limit > 0 && !b.Oldest.IsZero() && t.now.Sub(b.Oldest) > limit
}

// agesLines is the height agesLine takes.
func (t *triageScreen) agesLines() int {
	if _, _, ok := t.ages(); ok {
		return 1
	}
	return 0
}

// withoutDLH is how many messages of a DEADQ have no MQDLH.
func (t *triageScreen) withoutDLH() int {
	if t.q.Snap == nil {
		return 0
	}
	gs := t.q.Groups[t.loc.Queue]
	if gs == nil || !gs.IsDLQ {
		return 0
	}
	n := 0
	for _, g := range gs.Groups(model.DimReason) {
		if g.Key.Reason == 0 {
			n += g.Count
		}
	}
	return n
}

// noDLHExplain is what to do about the group k of messages without an
// MQDLH under the cursor of a DEADQ grouped by reason (R8g); "" elsewhere.
func (t *triageScreen) noDLHExplain(k model.GroupKey) string {
	if t.q == nil || !t.isDLQ || t.dim != model.DimReasonDest && t.dim != model.DimReason {
		return ""
	}
	return mqfmt.Sanitize(t.q.NoDLHAdvice(t.loc.Queue, k))
}
