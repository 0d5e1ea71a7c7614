package ui

import (
	"fmt"
	"strings"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	"github.com/poisonwatch/poisonwatch/codec/mqfmt"
	"github.com/poisonwatch/poisonwatch/model"
)

// alertPane lists alerts one finding each, their text wrapped so nothing is
// cut while the pane has room; the cursor's alert opens in full on enter.
type alertPane struct {
	list    []model.Alert
	cursor  int
	top     int
	w, h    int
	showQM  bool // the all-queue-managers view names each alert's
	focused bool
	queueW  int       // the longest queue name, so names are not cut while there is room
	now     time.Time // for "since" and snoozes; set by the screen
}

func alertID(a model.Alert) string {
	return a.QMgr + "\x00" + a.Rule + "\x00" + a.Queue + "\x00" + a.Text
}

// set takes a new list, keeping the cursor on its alert.
func (p *alertPane) set(list []model.Alert) {
	keep := ""
	if p.cursor < len(p.list) && p.focused {
		keep = alertID(p.list[p.cursor])
	}
	if !p.focused {
		// Not being read: the pane shows the most severe alerts, and tab
		// lands on the first of them, not on one that led while warming up.
		p.cursor, p.top = 0, 0
	}
	p.list = list
	p.queueW = 9
	for _, al := range list {
		p.queueW = max(p.queueW, min(ansi.StringWidth(mqfmt.Sanitize(al.Queue)), 48, max(p.w*2/5, 9)))
	}
	for i, al := range list {
		if alertID(al) == keep {
			p.cursor = i
			break
		}
	}
	p.move(0)
}

func (p *alertPane) selected() *model.Alert {
	if p.cursor < len(p.list) {
		return &p.list[p.cursor]
	}
	return nil
}

func (p *alertPane) resize(w, h int) {
	p.w, p.h = w, max(h, 1)
	p.set(p.list) // the queue column depends on the width
}

// move moves the cursor by d and scrolls so its alert is in full view.
func (p *alertPane) move(d int) {
	p.cursor = min(max(p.cursor+d, 0), max(len(p.list)-1, 0))
	p.top = min(p.top, p.cursor)
	for p.top < p.cursor {
		n := 0
		for i := p.top; i <= p.cursor; i++ {
			n += len(p.wrap(i))
		}
		if n <= p.h {
			break
		}
		p.top++
	}
}

func (p *alertPane) prefixWidth() int {
	n := 1 + 5 + 5 + p.queueW + 1
	if p.showQM {
		n += 9
	}
	return n
}

// wrap is alert i's text in lines that fit beside its prefix.
func (p *alertPane) wrap(i int) []string {
	tw := max(p.w-p.prefixWidth(), 12)
	return p.history(i, tw)
}

// view renders the visible alerts, exactly h lines.
func (p *alertPane) view(st *Styles) string {
	var out []string
	for i := p.top; i < len(p.list) && len(out) < p.h; i++ {
		al := p.list[i]
		sel := i == p.cursor && p.focused
		mark := " "
		if sel {
			mark = "▸"
		}
		pre := mark + fit(strings.ToUpper(al.Severity.Label()), 4, false) + " " + fit(al.Rule, 4, false) + " "
		if p.showQM {
			pre += fit(mqfmt.Sanitize(al.QMgr), 8, false) + " "
		}
		pre += fit(mqfmt.Sanitize(al.Queue), p.queueW, false) + " "
		for j, l := range p.wrap(i) {
			if len(out) >= p.h {
				break
			}
			head := strings.Repeat(" ", p.prefixWidth())
			if j == 0 {
				head = pre
			}
			var line string
			switch {
			case sel:
				line = st.Selected.Render(fit(head+l, p.w, false))
			case al.Acked(p.now):
				line = st.Muted.Render(ansi.Truncate(head+l, p.w, "…"))
			default:
				line = ansi.Truncate(st.Level(int(al.Severity)).Render(head)+l, p.w, "…")
			}
			out = append(out, line)
		}
	}
	return fitHeight(strings.Join(out, "\n"), p.h)
}

// position is "3/7": where the cursor is and how many alerts there are.
func (p *alertPane) position() string {
	if len(p.list) == 0 {
		return ""
	}
	return fmt.Sprintf("%d/%d", p.cursor+1, len(p.list))
}

// alertKeys are the keys of a focused alert list.
func (p *alertPane) keys(c common) []binding {
	k := c.Keys()
	none := offIf(func() bool { return p.selected() == nil }, "no alerts")
	noFix := offIf(func() bool { al := p.selected(); return al == nil || al.Fix == "" }, "this alert has no fix to copy")
	return append([]binding{
		bind(k.Up, run(func() { p.move(-1) })),
		bind(k.Down, run(func() { p.move(1) })),
		bind(k.PgUp, run(func() { p.move(-max(p.h/2, 1)) })),
		bind(k.PgDown, run(func() { p.move(max(p.h/2, 1)) })),
		bind(k.Home, run(func() { p.move(-len(p.list)) })),
		bind(k.End, run(func() { p.move(len(p.list)) })),
		bind(k.Enter, func() tea.Cmd { return c.Push(newAlertScreen(*p.selected())) }, short, none),
		bind(k.Copy, func() tea.Cmd { return copyText(c, fixWhat(*p.selected()), p.selected().Fix) }, short, noFix)},
		append(fixKeys(c, p.selected), ackKeys(c, p.selected)...)...)
}
