package ui

import (
	"fmt"
	"strings"
	"time"

	"github.com/charmbracelet/x/ansi"

	"github.com/poisonwatch/poisonwatch/codec/mqfmt"
	"github.com/poisonwatch/poisonwatch/internal/words"
	"github.com/poisonwatch/poisonwatch/model"
)

// detail is the row under the cursor in full: where it is and how it
// reads, what its DEADQ holds and receives, its looping queues, whether
// enter opens it live, then its alerts with their silences.
func (f *remoteFleetScreen) detail(c common, w int) []string {
	st := c.Styles()
	n := f.detailHeight()
	r := f.selected()
	if r == nil || f.grid.Rows == 0 {
		return make([]string, n)
	}
	head, why := f.headLine(r)
	lines := wrapped(st.Info, " ", mqfmt.Sanitize(head), w)
	if len(lines) > 2 {
		lines = append(lines[:1], ansi.Truncate(lines[1], w-1, "")+"…")
	}
	add := func(s string) {
		if len(lines) < n {
			lines = append(lines, ansi.Truncate(s, w, "…"))
		}
	}
	if why != "" {
		add(st.Base.Render("  " + mqfmt.Sanitize(why)))
	}
	if l := reasonsLine(r); l != "" {
		add(st.Base.Render(l))
	}
	if r.Looping > 0 {
		add(st.Danger.Render(fmt.Sprintf("  looping: %s with a head message rolled back %d times or more: %s", words.Count(r.Looping, "input queue"),
			model.LoopBackouts, mqfmt.Sanitize(strings.Join(r.LoopQueues, ", ")))))
	}
	if sourceOf(c.Opts(), r.QMgr) != nil {
		add(st.Muted.Render("  enter: " + mqfmt.Sanitize(r.QMgr) + "'s dashboard, live (a connection of --qmgrs)"))
	} else {
		add(st.Muted.Render("  " + noConnection(r.QMgr)))
	}
	for _, a := range r.Alerts {
		add(alertLine(st, a, f.now))
	}
	for len(lines) < n {
		lines = append(lines, "")
	}
	return lines
}

// headLine says where the row is and how it reads; why adds what the
// operator can do about a row nobody can see.
func (f *remoteFleetScreen) headLine(r *model.RemoteRow) (head, why string) {
	head = r.QMgr + " on " + r.Instance
	if r.Job != "" {
		head += " (job " + r.Job + ")"
	}
	old := ""
	if !r.LastGood.IsZero() {
		old = fmt.Sprintf(", data %s old (last good poll %s)", age(r.Age(f.now).Truncate(time.Second)), r.LastGood.Local().Format(time.TimeOnly))
	}
	switch r.Link {
	case model.RemoteDown:
		return head + ": down, " + r.Why + old, "the exporter's log and `up{instance=\"" + r.Instance + "\"}` say why"
	case model.RemoteNotConnected:
		return head + ": not connected" + old, "its exporter cannot reach it: the reason codes are in poisonwatch_qmgr_poll_errors_by_reason_total{qmgr=\"" + r.QMgr + "\"}"
	case model.RemoteConnecting:
		return head + ": its exporter has not finished a poll yet", ""
	}
	head += ": " + human(int64(r.Queues)) + " queues"
	if r.DeadQ != "" {
		head += fmt.Sprintf(", DEADQ %s %s of %s", r.DeadQ, human(int64(r.DeadDepth)), human(int64(r.DeadMax)))
		if r.DeadRateOK && r.DeadRate >= 0.5 {
			head += fmt.Sprintf(", %s/min arriving", compact(r.DeadRate))
		}
	}
	if r.WorstBOQ != "" {
		head += fmt.Sprintf(", fullest BOQ %s at %.0f%%", r.WorstBOQ, 100*r.WorstFill)
	}
	if r.Link == model.RemoteStale {
		return head + "; stale" + old, "no good poll for three of the exporter's intervals: its watcher is stuck or the queue manager slow"
	}
	return head + old, ""
}

// reasonsLine is what the DEADQ holds by reason, and what arrives.
func reasonsLine(r *model.RemoteRow) string {
	var held, arriving []string
	for _, x := range r.Reasons {
		held = append(held, reasonText(x)+" "+human(int64(x.Value)))
	}
	for _, x := range r.Arriving {
		arriving = append(arriving, reasonText(x)+" "+compact(x.Value)+"/min")
	}
	var parts []string
	if len(held) > 0 {
		parts = append(parts, "DEADQ holds "+strings.Join(held, ", "))
	}
	if len(arriving) > 0 {
		parts = append(parts, "arriving "+strings.Join(arriving, ", "))
	}
	if len(parts) == 0 {
		return ""
	}
	return "  " + strings.Join(parts, "; ")
}

// alertLine is one alert of the row: severity, rule, queue, the rule's
// words, and who holds it (a silence, an inhibition, an acknowledgement).
func alertLine(st *Styles, a model.RemoteAlert, now time.Time) string {
	text := fmt.Sprintf("  %s %s %s", strings.ToUpper(a.Severity.Label()), a.Rule, a.Queue)
	if a.Count > 1 {
		text += fmt.Sprintf(" ×%d", a.Count)
	}
	switch s := a.Silence; {
	case s != nil:
		by := s.By
		if by == "" {
			by = "silence " + s.ID
		}
		text += " · silenced by " + by
		if !s.Ends.IsZero() {
			text += " for " + age(s.Ends.Sub(now).Truncate(time.Minute))
		}
		if s.Comment != "" {
			text += ": " + s.Comment
		}
	case a.Inhibited:
		text += " · inhibited"
	case a.Acked:
		text += " · acknowledged"
	default:
		if words := model.RuleText(a.Rule); words != "" {
			text += " · " + words
		}
	}
	style := st.Level(int(a.Severity))
	if a.Held() {
		style = st.Muted
	}
	return style.Render(mqfmt.Sanitize(text))
}

// remoteBadge is the header's word on a remote fleet: how many queue
// managers, how they read, their alerts nobody holds.
func remoteBadge(st *Styles, fl *model.RemoteFleet) string {
	if fl == nil {
		return st.Muted.Render("Prometheus: asking…")
	}
	up, stale, bad, waiting := fl.RemoteCounts()
	out := st.Muted.Render(fmt.Sprintf("fleet %s:", human(int64(len(fl.Rows))))) + " " + st.OK.Render(fmt.Sprintf("● %d", up))
	if stale > 0 {
		out += " " + st.Warning.Render(fmt.Sprintf("◌ %d stale", stale))
	}
	if bad > 0 {
		out += " " + st.Danger.Render(fmt.Sprintf("✖ %d down", bad))
	}
	if waiting > 0 {
		out += " " + st.Muted.Render(fmt.Sprintf("%d connecting…", waiting))
	}
	var crit, warn, held int
	for i := range fl.Rows {
		crit, warn, held = crit+fl.Rows[i].Crit, warn+fl.Rows[i].Warn, held+fl.Rows[i].Held
	}
	if crit+warn > 0 {
		out = st.Danger.Render(fmt.Sprintf("⚠ %d crit %d warn", crit, warn)) + "  " + out
	}
	if held > 0 {
		out += " " + st.Muted.Render(fmt.Sprintf("✓%d held", held))
	}
	return out
}
