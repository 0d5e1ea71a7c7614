package ui

import (
	"fmt"
	"sort"
	"strings"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	"github.com/poisonwatch/poisonwatch/codec/mqfmt"
	"github.com/poisonwatch/poisonwatch/model"
)

// alertScreen is one alert in full: the why wrapped (never cut), the rule,
// the MQSC that fixes it (y copies it) and the queue involved (enter opens it).
type alertScreen struct {
	base
	al model.Alert
	// off is the first line shown when the alert is taller than the screen
	// (80x24 with a long why); w, h and total are from the last resize.
	off, w, h, total int
}

func newAlertScreen(al model.Alert) *alertScreen {
	title := "alert " + al.Rule
	if al.Rule == "" {
		title = "alert"
	}
	return &alertScreen{base: base{loc: model.Location{Screen: model.ScreenAlert, QMgr: al.QMgr, Queue: al.Queue, Label: title}}, al: al}
}

func (s *alertScreen) refresh(c common) tea.Cmd {
	s.reload(c)
	s.total = len(s.content(c, s.w))
	s.scroll(0)
	return nil
}

func (s *alertScreen) resize(c common, w, h int) {
	s.w, s.h = w, h
	s.total = len(s.content(c, w))
	s.scroll(0)
}

// scroll moves the alert's text by d lines, within what there is to see.
func (s *alertScreen) scroll(d int)              { s.off = max(min(s.off+d, s.total-s.h), 0) }
func (s *alertScreen) location() *model.Location { return &s.loc }

func (s *alertScreen) bindings(c common) []binding {
	k := *c.Keys()
	sel := func() *model.Alert { return &s.al }
	out := []binding{bind(k.Copy, func() tea.Cmd { return copyText(c, fixWhat(s.al), s.al.Fix) }, short, offIf(func() bool { return s.al.Fix == "" }, "this alert has no fix to copy"))}
	out = append(out, s.scrollKeys(k)...)
	out = append(out, fixKeys(c, sel)...)
	return append(append(out, bind(k.Enter, func() tea.Cmd {
		if s.al.QMgr != c.QMgrName() {
			c.SwitchQMgr(s.al.QMgr)
		}
		return openQueue(c, s.al.Queue)
	}, short, offIf(func() bool { return s.al.Queue == "" }, "this alert names no queue"))),
		ackKeys(c, sel)...)
}

func (s *alertScreen) view(c common, w, h int) string {
	lines := s.content(c, w)
	if len(lines) <= h {
		return fitHeight(strings.Join(lines, "\n"), h)
	}
	off := max(min(s.off, len(lines)-h), 0)
	shown := lines[off : off+h]
	more := fmt.Sprintf(" lines %d–%d of %d", off+1, off+h-1, len(lines))
	if off+h < len(lines) {
		more += " · ↓ j/pgdown for the rest"
	}
	shown[h-1] = c.Styles().Muted.Render(ansi.Truncate(more, w, "…"))
	return strings.Join(shown, "\n")
}

// scrollKeys move an alert taller than the screen; they do nothing when it fits.
func (s *alertScreen) scrollKeys(k KeyMap) []binding {
	fits := offIf(func() bool { return s.total <= s.h }, "the whole alert is on the screen")
	hidden := hideIf(s.total <= s.h)
	return []binding{
		bind(k.Up, run(func() { s.scroll(-1) }), fits, hidden),
		bind(k.Down, run(func() { s.scroll(1) }), fits, hidden),
		bind(k.PgUp, run(func() { s.scroll(-max(s.h-1, 1)) }), fits, hidden),
		bind(k.PgDown, run(func() { s.scroll(max(s.h-1, 1)) }), fits, hidden),
		bind(k.Home, run(func() { s.off = 0 }), fits, hidden),
		bind(k.End, run(func() { s.scroll(s.total) }), fits, hidden),
	}
}

// content is the alert's lines at width w, before fitting them to a height.
func (s *alertScreen) content(c common, w int) []string {
	st := c.Styles()
	al := s.al
	wrap := func(text string) []string {
		return strings.Split(ansi.Wrap(mqfmt.Sanitize(text), max(w-4, 20), " "), "\n")
	}
	lines := []string{st.Level(int(al.Severity)).Render(" " + strings.ToUpper(al.Severity.Label()) + " " + al.Rule + "  " +
		mqfmt.Sanitize(al.QMgr) + " " + mqfmt.Sanitize(al.Queue)), ""}
	add := func(title string, body []string, style func(string) string) {
		lines = append(lines, st.Title.Render(" "+title))
		for _, l := range body {
			lines = append(lines, "   "+style(l))
		}
		lines = append(lines, "")
	}
	plain := func(s string) string { return s }
	add("Why", wrap(al.Text), plain)
	if life := s.lifeLines(c); len(life) > 0 {
		add("History (K acknowledges, Z snoozes)", life, plain)
	}
	switch {
	case al.Advice():
		add("Fix (advice; y copies it)", wrap(al.Fix), plain)
	case al.Fix != "":
		add("Fix (MQSC; y copies it, x applies it)", fixLines(al, wrap), func(s string) string { return st.Accent.Render(s) })
		if len(al.Notes) > 0 {
			var notes []string
			for _, n := range al.Notes {
				notes = append(notes, wrap(n)...)
			}
			add("Before it takes effect", notes, plain)
		}
	default:
		add("Fix", []string{"no MQSC command fixes this: see the rule"}, func(s string) string { return st.Muted.Render(s) })
	}
	if len(al.Queues) > 0 {
		add(fmt.Sprintf("Queues (%d)", len(al.Queues)), wrap(strings.Join(al.Queues, ", ")), plain)
	}
	if al.Queue != "" {
		add("Queue", []string{mqfmt.Sanitize(al.Queue) + " on " + mqfmt.Sanitize(al.QMgr) + "  (enter opens it)"}, plain)
	}
	if r := model.RuleText(al.Rule); r != "" {
		add("Rule "+al.Rule, wrap(r), func(s string) string { return st.Muted.Render(s) })
	}
	return lines
}

// alertList is every queue manager's alerts in one list, most severe first.
type alertList struct {
	base
	filterText
	pane alertPane
}

func newAlertList() *alertList {
	s := &alertList{base: base{loc: model.Location{Screen: model.ScreenAlerts, Label: "all alerts"}}}
	s.pane.showQM, s.pane.focused = true, true
	return s
}

func (s *alertList) refresh(c common) tea.Cmd {
	var all []model.Alert
	for _, name := range c.State().Order {
		for _, al := range c.State().QMgrs[name].Alerts {
			if strings.Contains(strings.ToLower(al.QMgr+" "+al.Queue+" "+al.Rule+" "+al.Text), strings.ToLower(s.text)) {
				all = append(all, al)
			}
		}
	}
	now := c.Opts().Now()
	sort.SliceStable(all, func(i, j int) bool {
		if ai, aj := all[i].Acked(now), all[j].Acked(now); ai != aj {
			return aj // acknowledged after the rest, never hidden
		}
		return all[i].Severity > all[j].Severity
	})
	s.pane.now = now
	s.pane.set(all)
	return nil
}

func (s *alertList) resize(_ common, w, h int) { s.pane.resize(w, h-1) }
func (s *alertList) scroll(d int)              { s.pane.move(d) }
func (s *alertList) bindings(c common) []binding {
	return s.pane.keys(c)
}

func (s *alertList) view(c common, w, h int) string {
	title := section(c.Styles(), "Alerts of every queue manager, most severe first "+s.pane.position(), w, true)
	if len(s.pane.list) == 0 {
		return title + "\n" + c.Styles().OK.Render(" no alerts on any queue manager")
	}
	return title + "\n" + s.pane.view(c.Styles())
}

// fixLines shows a fix in the order it must run: the commands that fix the
// findings it would otherwise make worse first, each with the finding, then
// its own ("first: ... then: ...").
func fixLines(al model.Alert, wrap func(string) []string) []string {
	cmds := strings.Split(al.Fix, "\n")
	if al.FixFirst == 0 {
		var out []string
		for _, c := range cmds {
			out = append(out, wrap(c)...)
		}
		return out
	}
	var out []string
	for i, c := range cmds {
		label := "then:  "
		if i < al.FixFirst {
			label = "first: "
		}
		out = append(out, wrap(label+c)...)
		if i < al.FixFirst && i < len(al.After) {
			out = append(out, wrap("       (fixes "+al.After[i]+")")...)
		}
	}
	return out
}

// fixWhat names what y copies of an alert's fix: MQSC, or advice.
func fixWhat(al model.Alert) string {
	if al.Advice() {
		return "advice"
	}
	return "MQSC fix"
}
