package ui

import (
	"fmt"
	"strings"
	"time"

	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/bubbles/textinput"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	"github.com/poisonwatch/poisonwatch/codec/mqfmt"
	"github.com/poisonwatch/poisonwatch/model"
)

// AckRoom is a war room that takes acknowledgements: it decides who may
// acknowledge (not a viewer), writes it in the shared book under the
// session's own name, and tells every session.
type AckRoom interface {
	// MayAcknowledge says why this session may not acknowledge, nil if it may.
	MayAcknowledge() error
	// Acknowledge records ack (its By is the room's to set) of the alert
	// with key k in b and announces it to every session.
	Acknowledge(b *model.AlertBook, k string, ack model.Ack) (model.Episode, error)
}

// snoozes are Z's choices; 0 is until the alert clears.
var snoozes = []struct {
	label string
	d     time.Duration
}{{"15m", 15 * time.Minute}, {"1h", time.Hour}, {"4h", 4 * time.Hour}, {"until it clears", 0}}

// alertBadge is the header's count of alerts nobody acknowledged or
// snoozed, with the acknowledged and the snoozed ones beside it, apart:
// "⚠ 2 crit 1 warn  ✓3 acked  1 snoozed".
func alertBadge(st *Styles, now time.Time, qs []*model.QMgrState) string {
	c, w := alertCounts(now, qs...)
	acked, snoozed := 0, 0
	for _, q := range qs {
		_, _, k, z := q.AlertCounts(now)
		acked, snoozed = acked+k, snoozed+z
	}
	out := ""
	if c+w > 0 {
		out = st.paint(&st.Danger, fmt.Sprintf("⚠ %d crit %d warn", c, w))
	}
	if acked > 0 {
		out = strings.TrimSpace(out + " " + st.Muted.Render(fmt.Sprintf("✓%d acked", acked)))
	}
	if snoozed > 0 {
		out = strings.TrimSpace(out + " " + st.Muted.Render(fmt.Sprintf("%d snoozed", snoozed)))
	}
	return out
}

// alertLife is what the lists say of an alert's history: "since 20:41
// (12m), flapped 2×".
func alertLife(al model.Alert, now time.Time) string {
	s := model.Since(al.History.Start, now)
	if n := al.History.Flaps; n > 0 && s != "" {
		s += fmt.Sprintf(", flapped %d×", n)
	}
	return s
}

// ackKeys are K and Z on the alert sel returns: they open the
// acknowledgement dialog.
func ackKeys(c common, sel func() *model.Alert) []binding {
	k, o := c.Keys(), c.Opts()
	off := offWhen(func() string {
		al := sel()
		switch {
		case al == nil:
			return "no alert here"
		case o.Playback != nil:
			return "a playback is read-only: acknowledgements are as they were"
		case al.History.Start.IsZero():
			return "this alert has not been seen by a poll yet"
		}
		if r, ok := o.Room.(AckRoom); ok {
			if err := r.MayAcknowledge(); err != nil {
				return err.Error()
			}
		}
		return ""
	})
	return []binding{
		bind(k.Ack, func() tea.Cmd { return c.Push(newAckScreen(*sel(), false)) }, off),
		bind(k.Snooze, func() tea.Cmd { return c.Push(newAckScreen(*sel(), true)) }, off),
	}
}

// ackScreen asks for the note of an acknowledgement (K) or the length of a
// snooze (Z): enter records it, esc leaves the alert as it was.
type ackScreen struct {
	base
	al     model.Alert
	snooze bool
	choice int
	note   textinput.Model
}

func newAckScreen(al model.Alert, snooze bool) *ackScreen {
	ti := textinput.New()
	ti.Prompt = "note: "
	ti.Placeholder = "optional, one line"
	ti.CharLimit = 120
	ti.Focus()
	label := "acknowledge"
	if snooze {
		label = "snooze"
	}
	return &ackScreen{base: base{loc: model.Location{Screen: model.ScreenDialog, QMgr: al.QMgr, Queue: al.Queue, Label: label}},
		al: al, snooze: snooze, note: ti}
}

func (s *ackScreen) resize(_ common, w, _ int) {
	s.note.Width = max(w-12, 10)
}

func (s *ackScreen) typeKey(_ common, k tea.KeyMsg) tea.Cmd {
	s.note, _ = s.note.Update(k)
	return nil
}

func (s *ackScreen) bindings(c common) []binding {
	k := *c.Keys()
	verb := "acknowledge"
	if s.snooze {
		verb = "snooze"
	}
	out := []binding{
		bind(key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", verb)), func() tea.Cmd { return s.acknowledge(c) }, short),
		bind(key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "cancel")), c.Pop, short),
	}
	if s.snooze {
		out = append(out, bind(k.Tab, run(func() { s.choice = (s.choice + 1) % len(snoozes) }), short))
	}
	return out
}

func (s *ackScreen) view(c common, w, h int) string {
	st := c.Styles()
	verb := "Acknowledge"
	if s.snooze {
		verb = "Snooze"
	}
	al := s.al
	lines := []string{section(st, verb+" an alert", w, true), "",
		st.Level(int(al.Severity)).Render(" " + strings.ToUpper(al.Severity.Label()) + " " + al.Rule + "  " + mqfmt.Sanitize(al.QMgr) + " " + mqfmt.Sanitize(al.Queue))}
	for _, l := range strings.Split(ansi.Wrap(mqfmt.Sanitize(al.Text), max(w-4, 20), " "), "\n") {
		lines = append(lines, "   "+l)
	}
	if life := alertLife(al, c.Opts().Now()); life != "" {
		lines = append(lines, st.Muted.Render("   "+life))
	}
	lines = append(lines, "")
	if s.snooze {
		var cs []string
		for i, c := range snoozes {
			if i == s.choice {
				cs = append(cs, st.Selected.Render("["+c.label+"]"))
			} else {
				cs = append(cs, " "+c.label+" ")
			}
		}
		lines = append(lines, " for: "+strings.Join(cs, " ")+st.Muted.Render("  (tab changes)"))
	}
	lines = append(lines, " "+s.note.View(), "",
		st.Muted.Render(" enter: "+strings.ToLower(verb)+" (dimmed and listed after the rest, never hidden) · esc: cancel"))
	for i := range lines {
		lines[i] = ansi.Truncate(lines[i], w, "…")
	}
	return fitHeight(strings.Join(lines, "\n"), h)
}

// acknowledge records the screen's acknowledgement, through the war room
// when there is one so that every session sees it.
func (s *ackScreen) acknowledge(c common) tea.Cmd {
	now := c.Opts().Now()
	ack := model.Ack{By: c.Opts().User, At: now, Note: strings.TrimSpace(mqfmt.Sanitize(s.note.Value())), Snooze: s.snooze}
	if s.snooze && snoozes[s.choice].d > 0 {
		ack.Until = now.Add(snoozes[s.choice].d)
	}
	var ep model.Episode
	var err error
	if r, ok := c.Opts().Room.(AckRoom); ok {
		ep, err = r.Acknowledge(c.State().Book, s.al.Key(), ack)
	} else {
		var known bool
		if ep, known = c.State().Book.Acknowledge(s.al.Key(), ack); !known {
			err = fmt.Errorf("this alert has cleared: there is nothing to acknowledge")
		} else {
			c.Session().journal.Append(ep.AckEntry(now))
		}
	}
	cmd := c.Pop()
	if err != nil {
		c.Flash(err.Error())
		return cmd
	}
	c.Flash(ep.AckSentence())
	c.Reannotate()
	return tea.Batch(cmd, c.Refresh())
}

// oldestLine names the queue manager's oldest alert nobody acknowledged,
// for the fleet view's detail.
func oldestLine(st *Styles, r *model.FleetRow, now time.Time, w int) string {
	al := r.Oldest
	if al == nil {
		return ""
	}
	text := fmt.Sprintf(" oldest unacknowledged: %s %s %s", strings.TrimSpace(al.Rule+" "+al.Queue), model.Since(al.History.Start, now), al.Text)
	return ansi.Truncate(st.Level(int(al.Severity)).Render(mqfmt.Sanitize(text)), w, "…")
}

// history adds an alert's life to its wrapped text: since when it fires,
// and who acknowledged it.
func (p *alertPane) history(i int, tw int) []string {
	al := p.list[i]
	text := mqfmt.Sanitize(al.Text)
	if life := alertLife(al, p.now); life != "" {
		// No break inside "since 20:41 (12m)": it wraps as one.
		text += " · " + strings.ReplaceAll(life, " ", "\u00a0")
	}
	lines := strings.Split(ansi.Wrap(text, tw, " "), "\n")
	if al.Acked(p.now) {
		lines = append(lines, strings.Split(ansi.Wrap("↳ "+mqfmt.Sanitize(al.History.Ack.Line()), tw, " "), "\n")...)
	}
	return lines
}

// ackedCount is the alerts pane's count: "3", "3, 2 acked" or "3, 1 acked,
// 1 snoozed" (a snooze is not an acknowledgement).
func ackedCount(list []model.Alert, now time.Time) string {
	acked, snoozed := 0, 0
	for _, al := range list {
		switch {
		case al.Acked(now) && al.History.Ack.Snooze:
			snoozed++
		case al.Acked(now):
			acked++
		}
	}
	out := fmt.Sprint(len(list) - acked - snoozed)
	if acked > 0 {
		out += fmt.Sprintf(", %d acked", acked)
	}
	if snoozed > 0 {
		out += fmt.Sprintf(", %d snoozed", snoozed)
	}
	return out
}

// reload takes the alert's latest history from the state, when it still
// fires: an acknowledgement shows at once.
func (s *alertScreen) reload(c common) {
	q := c.State().QMgrs[s.al.QMgr]
	if q == nil {
		return
	}
	k := s.al.Key()
	for _, al := range q.Alerts {
		if al.Key() == k {
			s.al = al
			return
		}
	}
	if ep, ok := c.State().Book.Episode(k); ok {
		s.al.History = ep
	}
}

// lifeLines are the detail's history: since, flaps, cleared, who
// acknowledged.
func (s *alertScreen) lifeLines(c common) []string {
	ep, now := s.al.History, c.Opts().Now()
	if ep.Start.IsZero() {
		return nil
	}
	out := []string{"firing " + model.Since(ep.Start, now)}
	if !ep.Cleared.IsZero() {
		out[0] = fmt.Sprintf("fired at %s, clear since %s", ep.Start.In(now.Location()).Format("15:04:05"), ep.Cleared.In(now.Location()).Format("15:04:05"))
	}
	if ep.Flaps > 0 {
		out = append(out, fmt.Sprintf("flapped %d× (cleared and fired again within %s)", ep.Flaps, model.Span(model.FlapWindow)))
	}
	switch {
	case ep.Ack.Active(now):
		out = append(out, mqfmt.Sanitize(ep.Ack.Line()))
	case ep.Ack.By != "":
		out = append(out, mqfmt.Sanitize(ep.Ack.Line())+" (over)")
	default:
		out = append(out, "nobody has acknowledged it")
	}
	return out
}

// oldestCell is the fleet's column of the alert firing longest that nobody
// acknowledged: "20:41 (12m)".
func oldestCell(st *Styles, r *model.FleetRow, now time.Time) Cell {
	if r.Oldest == nil {
		return Cell{Text: "-", Style: &st.Muted}
	}
	return Cell{Text: strings.TrimPrefix(model.Since(r.Oldest.History.Start, now), "since "), Style: levelStyle(st, int(r.Oldest.Severity))}
}
