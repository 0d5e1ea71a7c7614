package ui

import (
	"fmt"
	"strings"
	"time"

	"github.com/charmbracelet/bubbles/help"
	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"

	"github.com/poisonwatch/poisonwatch/actions"
	"github.com/poisonwatch/poisonwatch/codec/mqfmt"
	"github.com/poisonwatch/poisonwatch/model"
)

// Minimum usable terminal size.
const (
	minWidth  = 60
	minHeight = 16
)

func (a *App) setSize(w, h int) {
	a.width, a.height = w, h
	a.help.Width = w
	for _, s := range a.stack {
		if r, ok := s.(resizer); ok {
			r.resize(a, w, a.bodyHeight())
		}
	}
}

// bodyHeight is what is left for a screen after header, crumbs and footer.
func (a *App) bodyHeight() int { return max(a.height-3-a.room.height(), 1) }

// View renders exactly the terminal's height, no wider than its width.
func (a *App) View() string {
	if a.width < minWidth || a.height < minHeight {
		msg := fmt.Sprintf("poisonwatch needs at least %dx%d; this terminal is %dx%d", minWidth, minHeight, a.width, a.height)
		return fill(ansi.Wrap(msg, max(a.width, 1), ""), a.width, a.height)
	}
	if f, ok := a.sharedFrame(); ok {
		return f
	}
	header := a.headerView()
	crumbs := a.crumbsView()
	footer := a.footerView()
	bodyH := bodyRows(a.height, header, footer)
	var body string
	switch {
	case a.showHelp:
		body = a.helpView(bodyH)
	default:
		body = a.top().view(a, a.width, bodyH)
	}
	if a.pal.active {
		body = a.pal.view(&a.st, a.width, bodyH)
	}
	return compose(a.width, a.height, header, crumbs, body, footer, bodyH)
}

// bodyRows is what the screen gets of h rows under header and crumbs and
// above footer.
func bodyRows(h int, header, footer string) int {
	return h - lipgloss.Height(header) - 1 - lipgloss.Height(footer)
}

// compose stacks a frame's parts into exactly w×h.
func compose(w, h int, header, crumbs, body, footer string, bodyH int) string {
	return fill(lipgloss.JoinVertical(lipgloss.Left, header, crumbs, fitHeight(body, bodyH), footer), w, h)
}

// fill pads or cuts s to exactly w×h.
func fill(s string, w, h int) string {
	lines := strings.Split(s, "\n")
	if len(lines) > h {
		lines = lines[:h]
	}
	for len(lines) < h {
		lines = append(lines, "")
	}
	for i, l := range lines {
		if lipgloss.Width(l) > w {
			lines[i] = ansi.Truncate(l, w, "")
		}
	}
	return strings.Join(lines, "\n")
}

func fitHeight(s string, h int) string {
	lines := strings.Split(s, "\n")
	if len(lines) > h {
		lines = lines[:h]
	}
	for len(lines) < h {
		lines = append(lines, "")
	}
	return strings.Join(lines, "\n")
}

// headerView: queue managers, connection, data age, RO/RW, alert count, freeze.
func (a *App) headerView() string {
	st := &a.st
	now := a.opt.Now()
	// Badges first: on a narrow screen the queue managers are cut, never the
	// read-only badge, the alert count or the frozen banner.
	parts := []string{st.paint(&st.Header, " poisonwatch ")}
	switch {
	case a.actionDialog().holds():
		parts = append(parts, st.Banner.Render(" FROZEN while the dialog is open "))
	case a.sess.frozen:
		parts = append(parts, st.Banner.Render(" FROZEN — f resumes "))
	}
	if a.sess.warming {
		parts = append(parts, st.Info.Render("◌ filling in history…"))
	}
	if b := a.playback.badge(&a.st); b != "" {
		parts = append(parts, b)
	}
	if a.opt.ReadOnly {
		parts = append(parts, st.paint(&st.BadgeRO, "[RO]"))
	} else {
		parts = append(parts, st.paint(&st.BadgeRW, "[RW]"))
	}
	if a.opt.WarRoom {
		parts = append(parts, st.paint(&st.BadgeRO, "[masked]"))
	}
	_, onFleet := a.top().(*fleetScreen)
	remote, onRemote := a.top().(*remoteFleetScreen)
	var counted []*model.QMgrState
	switch {
	case onFleet:
		counted = a.all()
	case onRemote:
		// The fleet's alerts are Prometheus's, counted in its badge.
		parts = append(parts, remoteBadge(&a.st, remote.fleet))
	default:
		counted = []*model.QMgrState{a.current()}
	}
	if a.sess.warming {
		// The alerts of a history half made ("⚠ 0 crit 3 warn" while the
		// loop has not reached BOTHRESH yet) would mislead: not counted yet.
		parts = append(parts, st.Muted.Render("alerts starting"))
	} else if b := alertBadge(st, now, counted); b != "" {
		parts = append(parts, b)
	}
	switch {
	case onRemote && len(a.state.Order) > fleetFirstAbove:
		// Prometheus's fleet is on view: the connections' own count would
		// read as a second fleet.
	case len(a.state.Order) > fleetFirstAbove:
		// Fifty badges would not fit: the queue manager on view, and how
		// the fleet answers (m shows it).
		if !onFleet {
			parts = append(parts, a.qmgrBadge(a.qm, now))
		}
		parts = append(parts, a.fleetBadge(now))
	default:
		full := parts
		for _, name := range a.state.Order {
			full = append(full, a.qmgrBadge(name, now))
		}
		if ansi.StringWidth(strings.Join(full, "  ")) > a.width {
			// Too narrow for every badge in full: a healthy queue manager's
			// data age goes first, so each one's alert count stays in view.
			for _, name := range a.state.Order {
				parts = append(parts, a.compactBadge(name, now))
			}
		} else {
			parts = full
		}
	}
	line := ansi.Truncate(strings.Join(parts, "  "), a.width, "…")
	if a.opt.Room != nil {
		line += "\n" + a.room.presence(&a.st, a.look, a.width)
	}
	return line
}

// compactBadge is qmgrBadge without a healthy queue manager's data age,
// but for the one on view.
func (a *App) compactBadge(name string, now time.Time) string {
	q := a.state.QMgrs[name]
	if q.Snap == nil || !q.Snap.Connected || a.sess.warming || q.Stale(now) || name == a.qm {
		return a.qmgrBadge(name, now) // the one on view keeps its data age: how old is what I see?
	}
	label := name
	if name == a.qm {
		label = "▸" + name
	}
	out := a.st.OK.Render(label + " ●")
	if c, w := alertCounts(now, q); c+w > 0 && name != a.qm {
		out += a.st.Danger.Render(fmt.Sprintf(" ⚠%d/%d", c, w))
	}
	return out + a.doctorBadge(name)
}

// qmgrBadge shows one queue manager's connection state and data age.
func (a *App) qmgrBadge(name string, now time.Time) string {
	st := &a.st
	q := a.state.QMgrs[name]
	label := name
	if name == a.qm {
		label = "▸" + name
	}
	var out string
	switch {
	case q.Snap == nil:
		out = st.Muted.Render(label + " connecting…")
	case !q.Snap.Connected:
		out = st.Danger.Render(fmt.Sprintf("%s ✖ %s (data %s old)", label, shortErr(q.Snap.Err), age(q.Age(now))))
	case a.sess.warming:
		out = st.OK.Render(label+" ●") + st.Muted.Render(" warming up")
	case a.sess.frozen || a.actionDialog().holds():
		// Held on purpose: the data is old because the picture stands still,
		// not because the queue manager stopped answering.
		out = st.OK.Render(label+" ●") + st.Muted.Render(" held")
	case q.Stale(now):
		out = st.Warning.Render(fmt.Sprintf("%s ● stale %s", label, age(q.Age(now))))
	default:
		out = st.paint(&st.OK, label+" ●") + st.paint(&st.Muted, " "+age(q.Age(now).Truncate(time.Second))+" ago")
	}
	if c, w := alertCounts(now, q); c+w > 0 && name != a.qm {
		out += st.Danger.Render(fmt.Sprintf(" ⚠%d/%d", c, w)) // trouble on a queue manager not on screen
	}
	return out + a.doctorBadge(name)
}

// alertCounts counts queue managers' critical and warning alerts that
// nobody acknowledged: what the header shows everywhere (info findings are
// in the alert lists only, acknowledged ones beside: ackedBadge).
func alertCounts(now time.Time, qs ...*model.QMgrState) (crit, warn int) {
	for _, q := range qs {
		for _, al := range q.Alerts {
			if al.Acked(now) {
				continue
			}
			switch al.Severity {
			case actions.Critical:
				crit++
			case actions.Warning:
				warn++
			}
		}
	}
	return crit, warn
}

// all returns every queue manager's state, in the order of their names.
func (a *App) all() []*model.QMgrState {
	out := make([]*model.QMgrState, 0, len(a.state.Order))
	for _, name := range a.state.Order {
		out = append(out, a.state.QMgrs[name])
	}
	return out
}

// fleetBadge counts the queue managers by how they answer: "fleet 50: ● 47
// ◌ 1 ✖ 2"; the symbols say it without colour.
func (a *App) fleetBadge(now time.Time) string {
	st := &a.st
	var up, stale, down, waiting int
	for _, q := range a.all() {
		switch {
		case q.Snap == nil:
			waiting++
		case !q.Snap.Connected:
			down++
		case q.Stale(now) && !a.sess.warming && !a.sess.frozen && !a.actionDialog().holds():
			stale++
		default:
			up++
		}
	}
	out := st.Muted.Render(fmt.Sprintf("fleet %d:", len(a.state.Order))) + " " + st.OK.Render(fmt.Sprintf("● %d", up))
	if stale > 0 {
		out += " " + st.Warning.Render(fmt.Sprintf("◌ %d stale", stale))
	}
	if down > 0 {
		out += " " + st.Danger.Render(fmt.Sprintf("✖ %d down", down))
	}
	if waiting > 0 {
		out += " " + st.Muted.Render(fmt.Sprintf("%d connecting…", waiting))
	}
	return out
}

func shortErr(err error) string {
	if err == nil {
		return "disconnected"
	}
	s := err.Error()
	if i := strings.Index(s, ": "); i >= 0 && strings.Contains(s[i:], "MQRC_") {
		s = s[i+2:]
	}
	return s
}

func (a *App) crumbsView() string {
	var extra string
	if f := filterOf(a.top()); a.filter.active || (f != nil && *f != "") {
		extra += a.st.Accent.Render("  " + a.filter.view(*f))
	}
	if q, ok := a.top().(*queueScreen); ok && q.mf.status() != "" {
		extra += a.st.Warning.Render("  " + q.mf.status())
	}
	if n := a.sess.marks.Len(); n > 0 {
		extra += a.st.Marked.Render(fmt.Sprintf("  %s marked", human(int64(n))))
	}
	if a.flash != "" && !a.flashInFooter() {
		extra += "  " + a.st.Info.Render(mqfmt.Sanitize(a.flash))
	}
	// The crumbs give way to what was just said (a flash, the marks), down
	// to the name of the screen on view.
	room := max(a.width-ansi.StringWidth(extra), 24)
	return ansi.Truncate(a.st.paint(&a.st.Muted, fitCrumbs(a.crumbs(), room))+extra, a.width, "…")
}

func (a *App) footerView() string {
	if a.flashInFooter() {
		// Until the next key: a long flash (a colleague's run with its
		// targets) is worth more than the key hints, which ? still shows;
		// wrapped (at slashes too: a file's path) onto up to three rows.
		rows := pathLines(a.width, a.st.Info, "", a.flash, "")
		if len(rows) > maxFlashRows {
			rows = rows[:maxFlashRows]
			rows[maxFlashRows-1] = ansi.Truncate(rows[maxFlashRows-1], a.width-1, "") + "…"
		}
		return strings.Join(rows, "\n")
	}
	return ansi.Truncate(a.help.ShortHelpView(footerKeys(a.help, a.shortHelp(), a.width, a.keys.Fleet, a.keys.Help, a.keys.Quit)), a.width, "")
}

// footerKeys fits the footer's keys into w columns: help and quit always
// show, last, and the screen's keys give way from the end; whoever is lost
// needs "? help" more than the tenth key.
func footerKeys(h help.Model, ks []key.Binding, w int, last ...key.Binding) []key.Binding {
	var keep, rest []key.Binding
	for _, k := range ks {
		isLast := false
		for _, l := range last {
			isLast = isLast || (len(k.Keys()) > 0 && len(l.Keys()) > 0 && k.Keys()[0] == l.Keys()[0])
		}
		if isLast {
			keep = append(keep, k)
		} else {
			rest = append(rest, k)
		}
	}
	h.Width = 0 // measure, not cut
	for len(rest) > 0 && ansi.StringWidth(h.ShortHelpView(append(rest[:len(rest):len(rest)], keep...))) > w {
		rest = rest[:len(rest)-1]
	}
	return append(rest[:len(rest):len(rest)], keep...)
}

// maxFlashRows is how many rows a long flash takes from the screen above.
const maxFlashRows = 3

// flashInFooter: a flash too long to stand beside the breadcrumb takes the
// footer's whole width instead of being cut.
func (a *App) flashInFooter() bool {
	return a.flash != "" && ansi.StringWidth(mqfmt.Sanitize(a.flash))+2 > a.width-24
}

// fitCrumbs joins the breadcrumb into w cells: the screen on view keeps its
// full name, the ones before it are shortened first, so the crumb always
// says where the operator is.
func fitCrumbs(crumbs []string, w int) string {
	for i := range crumbs {
		crumbs[i] = mqfmt.Sanitize(crumbs[i])
	}
	join := func() string { return strings.Join(crumbs, " › ") }
	for cut := 24; cut >= 4 && ansi.StringWidth(join()) > w; cut -= 4 {
		for i := 1; i < len(crumbs)-1; i++ {
			crumbs[i] = ansi.Truncate(crumbs[i], cut, "…")
		}
	}
	// Still too long (a deep stack): the oldest crumbs fold into "…".
	for len(crumbs) > 2 && ansi.StringWidth(join()) > w {
		crumbs = append([]string{"…"}, crumbs[2:]...)
	}
	return ansi.Truncate(join(), w, "…")
}
