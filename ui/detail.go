package ui

import (
	"strings"

	"github.com/charmbracelet/bubbles/viewport"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	"github.com/poisonwatch/poisonwatch/actions/dlqrules"
	"github.com/poisonwatch/poisonwatch/actions/ops"
	"github.com/poisonwatch/poisonwatch/codec/mqfmt"
	"github.com/poisonwatch/poisonwatch/model"
	"github.com/poisonwatch/poisonwatch/mqwatch"
)

// detailScreen shows one message of the queue its location names: MQMD,
// RFH2, DLH, body and route tabs. The body is fetched when the screen opens,
// never for a whole list.
type detailScreen struct {
	base
	sum     mqwatch.Summary
	msg     *mqwatch.Message
	err     error
	seq     int
	tab     int
	reveal  bool
	warRoom bool
	st      *Styles
	route   []string
	rule    string // the loaded rules table's verdict, "" without one
	// ruleFails: the engine predicts the rule's action would fail.
	ruleFails bool
	// verdict is the prediction for the message read whole, when the
	// queue's (from summaries) was not sure of it.
	verdict    *dlqrules.Verdict
	verdictErr error
	loading    bool
	vp         viewport.Model
	w          int
	// gone says what removed the message from its queue ("discarded by your
	// run"), "" while it is there as far as this session knows.
	gone string
	// dlhWhy explains the MQDLH reason with whose queue was full.
	dlhWhy string
	// recorded: a playback's message, never read; its tabs come from sum.
	recorded bool
}

var detailTabs = []string{"MQMD", "RFH2", "DLH", "Body", "Route"}

// openMessage pushes the message screen for s, a message of the queue at
// loc; its body is fetched.
func openMessage(c common, loc model.Location, s mqwatch.Summary) tea.Cmd {
	o := c.Opts()
	q := c.State().QMgr(loc.QMgr)
	d := &detailScreen{base: base{loc: model.Location{Screen: model.ScreenMessage, QMgr: loc.QMgr, Queue: loc.Queue, Msg: s.Key()}},
		sum: s, seq: c.Session().nextSeq(), warRoom: o.WarRoom, loading: o.Ops != nil, route: q.Route(loc.Queue, &s), st: c.Styles()}
	if s.HasDLH {
		d.tab = 2
		d.dlhWhy = q.DLHReasonText(s.DLHReason, s.DLHDestQ, s.DLHDestQMgr, s.DLHPutAppl)
	}
	d.recorded = o.Playback != nil
	cmd := c.Push(d)
	if o.Ops == nil {
		d.loading = false
		if !d.recorded {
			d.err = errNoOps
		}
		d.render()
		return cmd
	}
	ops, qm, queue, seq, ctx := o.Ops, loc.QMgr, loc.Queue, d.seq, o.Ctx
	return tea.Batch(cmd, func() tea.Msg {
		m, err := ops.Fetch(ctx, qm, queue, s)
		return fetchedMsg{seq: seq, msg: m, err: err}
	})
}

type constErr string

func (e constErr) Error() string { return string(e) }

const errNoOps = constErr("no connection for reading messages")

// receive takes the message read for this screen (wherever it is in the
// stack) and the rules verdict of it read whole; and notes a run or an
// edit of this session that took its message (goneMsg).
func (d *detailScreen) receive(c common, msg tea.Msg) (tea.Cmd, bool) {
	rules := c.Session().rules
	switch m := msg.(type) {
	case fetchedMsg:
		if m.seq != d.seq {
			return nil, false
		}
		d.loading, d.err = false, m.err
		if m.err == nil {
			d.msg = &m.msg
		}
		cmd := rules.predictMessage(c, d)
		d.rule, d.ruleFails = rules.messageRule(c, d)
		d.render()
		return cmd, true
	case messageVerdictMsg:
		if m.seq != d.seq || rules == nil || rules.t != m.tab {
			return nil, false
		}
		d.verdict, d.verdictErr = m.v, m.err
		d.rule, d.ruleFails = rules.messageRule(c, d)
		d.render()
		return nil, true
	case goneMsg:
		if why, ok := m.why[d.sum.Key()]; ok && d.loc.QMgr == m.qmgr && d.loc.Queue == m.queue {
			d.gone = why
		}
	}
	return nil, false
}

func (d *detailScreen) refresh(c common) tea.Cmd {
	d.st = c.Styles()
	d.rule, d.ruleFails = c.Session().rules.messageRule(c, d)
	d.render()
	return nil
}

func (d *detailScreen) resize(c common, w, h int) {
	d.w = w
	d.vp.Width, d.vp.Height = w, max(h-2, 1)
	d.st = c.Styles()
	d.render()
}

func (d *detailScreen) scroll(n int) { scrollViewport(&d.vp, n) }

// render puts the current tab's lines into the viewport.
func (d *detailScreen) render() {
	var lines []string
	switch {
	case d.loading && d.tab != 4:
		lines = []string{d.st.Muted.Render(" reading the message…")}
	case d.err != nil && d.tab != 4:
		lines = []string{d.st.Danger.Render(" cannot read the message: " + mqfmt.Sanitize(d.err.Error()))}
	case d.msg == nil && d.tab != 4:
		lines = d.summaryLines() // a playback's message: no fetch to wait for
	default:
		lines = d.lines(d.w)
	}
	var out []string
	for _, l := range lines {
		if d.tab == 2 || d.tab == 4 {
			// The DLH's explanations and the route's reasoning are sentences:
			// wrapped, never cut, since their end is the conclusion.
			out = append(out, wrapIndented(l, d.w)...)
			continue
		}
		out = append(out, ansi.Truncate(l, d.w, "…"))
	}
	d.vp.SetContent(strings.Join(out, "\n"))
}

func (d *detailScreen) setTab(t int) {
	d.tab = (t + len(detailTabs)) % len(detailTabs)
	d.render()
	d.vp.GotoTop()
}

func (d *detailScreen) bindings(c common) []binding {
	k := *c.Keys()
	v := &d.vp
	out := append(viewportKeys(k, v),
		bind(k.NextTab, run(func() { d.setTab(d.tab + 1) }), short),
		bind(k.Tab, run(func() { d.setTab(d.tab + 1) })),
		bind(k.PrevTab, run(func() { d.setTab(d.tab - 1) })),
		bind(k.Copy, func() tea.Cmd { return copyMsgID(c, d.sum.MsgId) }, short),
		bind(k.Reveal, run(func() { d.reveal = !d.reveal; d.render() }), offIf(func() bool { return !d.warRoom }, "nothing is masked (only --war-room masks bodies and user properties)"),
			hideIf(!d.warRoom)),
	)
	acts := actionKeys(c, func() ([]mqwatch.Summary, int) {
		return []mqwatch.Summary{d.sum}, 0 // the message on screen, whatever is marked
	}, d.loc)
	for i := range acts {
		off := acts[i].off
		acts[i].off = func() string {
			if d.gone != "" {
				return "this message is no longer on " + d.loc.Queue + ": " + d.gone
			}
			return off()
		}
	}
	return append(append(out, acts...), d.editBinding(c))
}

// goneBy tells every open message screen of the run's queue that the run
// removed its message (goneMsg), so the screen never passes a message that
// has left for one that is still there.
func goneBy(res ops.OpResult) tea.Cmd {
	req := res.Plan.Request
	removed := map[mqwatch.Key]string{}
	for _, it := range res.Items {
		switch {
		case !it.Removed(req.Op):
		case req.Op == ops.OpDiscard:
			removed[it.Msg.Key()] = "discarded (archived) by your run"
		default:
			removed[it.Msg.Key()] = req.Op.PastTense() + " to " + it.Target + " by your run"
		}
	}
	gone := goneMsg{qmgr: req.QMgr, queue: req.Queue, why: removed}
	return func() tea.Msg { return gone }
}

func (d *detailScreen) view(_ common, w, h int) string {
	var tabs []string
	for i, t := range detailTabs {
		if i == d.tab {
			tabs = append(tabs, d.st.TabOn.Render("["+t+"]"))
		} else {
			tabs = append(tabs, d.st.Tab.Render(" "+t+" "))
		}
	}
	head := strings.Join(tabs, "")
	if d.vp.TotalLineCount() > d.vp.Height {
		head += d.st.Muted.Render("  " + scrollPos(d.vp))
	}
	// The MsgId has a line of its own: 48 hex digits are never cut.
	id := d.st.Muted.Render(ansi.Truncate(" MsgId "+msgIDHex(d.sum.MsgId), w, "…"))
	if d.gone != "" {
		// The line that says gone takes the viewport's first row, so the
		// screen keeps its height.
		gone := d.st.Danger.Render(ansi.Truncate(" ✗ GONE: "+mqfmt.Sanitize(d.gone)+" (shown as last read)", w, "…"))
		return ansi.Truncate(head, w, "…") + "\n" + id + "\n" + gone + "\n" + fitHeight(d.vp.View(), max(d.vp.Height-1, 0))
	}
	return ansi.Truncate(head, w, "…") + "\n" + id + "\n" + d.vp.View()
}

// scrollPos says which lines of a viewport show: "lines 1-20 of 57".
func scrollPos(v viewport.Model) string {
	first := v.YOffset + 1
	last := min(v.YOffset+v.Height, v.TotalLineCount())
	return "lines " + itoa(first) + "-" + itoa(last) + " of " + itoa(v.TotalLineCount())
}

// wrapIndented wraps a line at w cells, continuation lines indented as far
// as the line's own leading blanks plus two.
func wrapIndented(l string, w int) []string {
	if ansi.StringWidth(l) <= w || w < 20 {
		return []string{ansi.Truncate(l, w, "…")}
	}
	plain := ansi.Strip(l)
	indent := strings.Repeat(" ", min(len(plain)-len(strings.TrimLeft(plain, " "))+2, w/2))
	parts := strings.Split(ansi.Wrap(l, w, " "), "\n")
	for i := 1; i < len(parts); i++ {
		parts[i] = ansi.Truncate(indent+strings.TrimLeft(parts[i], " "), w, "…")
	}
	return parts
}
