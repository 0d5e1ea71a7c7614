package ui

import (
	"strings"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	"github.com/poisonwatch/poisonwatch/model"
	"github.com/poisonwatch/poisonwatch/mqwatch"
)

// detailScreen shows one message: MQMD, RFH2, DLH, body and route tabs. The
// body is fetched when the screen opens, never for a whole list.
type detailScreen struct {
	sum     mqwatch.Summary
	msg     *mqwatch.Message
	err     error
	seq     int
	tab     int
	offset  int
	reveal  bool
	warRoom bool
	st      *Styles
	lines   []string
	route   []string
	loading bool
}

var detailTabs = []string{"MQMD", "RFH2", "DLH", "Body", "Route"}

func (a *App) openMessage(s mqwatch.Summary) tea.Cmd {
	top := a.nav.Top()
	a.nav.Push(model.Location{Screen: model.ScreenMessage, QMgr: a.qm, Queue: top.Queue, Msg: s.Key()})
	d := &a.detail
	d.seq++
	*d = detailScreen{sum: s, seq: d.seq, tab: d.tab, warRoom: a.opt.WarRoom, loading: a.opt.Ops != nil, route: a.routeLines(top.Queue, &s)}
	if d.sum.HasDLH && d.tab == 0 {
		d.tab = 2
	}
	if a.opt.Ops == nil {
		d.err = errNoOps
		return nil
	}
	ops, qm, queue, seq, ctx := a.opt.Ops, a.qm, top.Queue, d.seq, a.opt.Ctx
	return func() tea.Msg {
		m, err := ops.Fetch(ctx, qm, queue, s)
		return fetchedMsg{seq: seq, msg: m, err: err}
	}
}

type constErr string

func (e constErr) Error() string { return string(e) }

const errNoOps = constErr("no connection for reading messages")

func (a *App) onFetched(m fetchedMsg) {
	d := &a.detail
	if m.seq != d.seq {
		return // the operator moved on; drop the stale result
	}
	d.loading = false
	d.err = m.err
	if m.err == nil {
		d.msg = &m.msg
	}
}

func (a *App) detailKey(k tea.KeyMsg) tea.Cmd {
	d := &a.detail
	h := a.bodyHeight() - 2
	switch {
	case key.Matches(k, a.keys.NextTab), key.Matches(k, a.keys.Tab):
		d.tab, d.offset = (d.tab+1)%len(detailTabs), 0
	case key.Matches(k, a.keys.PrevTab):
		d.tab, d.offset = (d.tab+len(detailTabs)-1)%len(detailTabs), 0
	case key.Matches(k, a.keys.Down):
		d.offset = min(d.offset+1, max(len(d.lines)-h, 0))
	case key.Matches(k, a.keys.Up):
		d.offset = max(d.offset-1, 0)
	case key.Matches(k, a.keys.PgDown):
		d.offset = min(d.offset+h, max(len(d.lines)-h, 0))
	case key.Matches(k, a.keys.PgUp):
		d.offset = max(d.offset-h, 0)
	case key.Matches(k, a.keys.Home):
		d.offset = 0
	case key.Matches(k, a.keys.Reveal):
		if a.opt.WarRoom {
			d.reveal = !d.reveal
		}
	case key.Matches(k, a.keys.Copy):
		return a.copyMsgID(d.sum.MsgId)
	default:
		return a.actionKey(k, a.nav.Top())
	}
	return nil
}

func (d *detailScreen) view(w, h int) string {
	var tabs []string
	for i, t := range detailTabs {
		if i == d.tab {
			tabs = append(tabs, d.st.TabOn.Render(t))
		} else {
			tabs = append(tabs, d.st.Tab.Render(t))
		}
	}
	head := strings.Join(tabs, " ") + d.st.Muted.Render("  MsgId "+msgIDHex(d.sum.MsgId))
	switch {
	case d.loading && d.tab != 4:
		d.lines = []string{d.st.Muted.Render(" reading the message…")}
	case d.err != nil && d.tab != 4:
		d.lines = []string{d.st.Danger.Render(" cannot read the message: " + d.err.Error())}
	default:
		d.lines = d.render(w)
	}
	end := min(d.offset+h-2, len(d.lines))
	body := d.lines[min(d.offset, end):end]
	for i, l := range body {
		body[i] = ansi.Truncate(l, w, "…")
	}
	more := ""
	if len(d.lines) > h-2 {
		more = d.st.Muted.Render(" (j/k, pgup/pgdn to scroll)")
	}
	return ansi.Truncate(head+more, w, "") + "\n\n" + strings.Join(body, "\n")
}
