package ui

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	"github.com/poisonwatch/poisonwatch/actions"
	"github.com/poisonwatch/poisonwatch/actions/ops"
	"github.com/poisonwatch/poisonwatch/codec/mqfmt"
	"github.com/poisonwatch/poisonwatch/model"
	"github.com/poisonwatch/poisonwatch/mqwatch"
)

// inhibitWhy is what stopping gets does to the consumers: they are told
// why, not surprised (IBM: MQRC_GET_INHIBITED on MQGET; JMS listeners
// retry the get, an MDB's activation may pause after its failures).
const inhibitWhy = "consumers get MQRC_GET_INHIBITED (2016): JMS listeners retry, MDBs may pause"

// putInhibitWhy is the same for PUT, on request (p in the dialog): senders
// get MQRC_PUT_INHIBITED, and a channel's MCA retries and then dead-letters
// what it cannot put.
const putInhibitWhy = "producers get MQRC_PUT_INHIBITED (2051): JMS senders get an exception, channels retry (MRRTY) then dead-letter with 2051"

// inhibitDialog is the one-line confirmation of GET(DISABLED) or
// GET(ENABLED) on a queue in a poison loop (R1c) or with stuck poison (R8c).
type inhibitDialog struct {
	base
	qm      string
	q       mqwatch.QueueInfo
	attr    string // GET, or PUT on request
	disable bool
	apply   bool
	running bool
	outcome string
	seq     int
	// pred is the change gate's dry run of the change shown ("" until it
	// answers); predBad marks a refusal.
	pred    string
	predBad bool
}

// inhibitTarget is the queue I acts on: one with a loop or stuck poison,
// or one whose gets are off (to turn them on again).
func inhibitTarget(state *model.State, qm, queue string) (mqwatch.QueueInfo, string) {
	qs := state.QMgr(qm)
	st := qs.Queues[queue]
	if st == nil {
		return mqwatch.QueueInfo{}, "no queue here"
	}
	if st.View.Info.InhibitGet || st.View.Info.InhibitPut {
		return st.View.Info, ""
	}
	for _, al := range qs.Alerts {
		if al.Queue == queue && (al.Rule == "R1c" || al.Rule == "R8c") {
			return st.View.Info, ""
		}
	}
	return mqwatch.QueueInfo{}, "I stops gets on a queue in a poison loop (R1c) or with stuck poison (R8c)"
}

// inhibitOff turns I off where it cannot act, and keeps it out of help
// where it never applies (a DEADQ's messages), so help at 80x24 lists what
// works.
func inhibitOff(c common, qm string, queue func() string) func(*binding) {
	o := c.Opts()
	return func(b *binding) {
		_, notHere := inhibitTarget(c.State(), qm, queue())
		b.hide = o.ReadOnly || notHere != ""
		b.off = func() string {
			_, ok := o.Ops.(FixOps)
			_, why := inhibitTarget(c.State(), qm, queue())
			switch {
			case o.ReadOnly:
				return cmpOr(o.ReadOnlyWhy, "read-only: GET/PUT inhibit is off")
			case !ok:
				return "no connection for changes"
			}
			return why
		}
	}
}

// inhibitOffAlert is inhibitOff for the alert under a list's cursor.
func inhibitOffAlert(c common, al func() *model.Alert) func(*binding) {
	return func(b *binding) {
		b.hide = c.Opts().ReadOnly
		if x := al(); x != nil {
			_, notHere := inhibitTarget(c.State(), x.QMgr, x.Queue)
			b.hide = b.hide || notHere != ""
		}
		b.off = func() string {
			x := al()
			if x == nil {
				return "no alert"
			}
			var inner binding
			inhibitOff(c, x.QMgr, func() string { return x.Queue })(&inner)
			return inner.off()
		}
	}
}

// inhibitKey is I on the dashboard's queue under the cursor.
func inhibitKey(c common, qm string, q func() *model.QueueState) binding {
	name := func() string {
		if s := q(); s != nil {
			return s.View.Info.Name
		}
		return ""
	}
	return bind(c.Keys().Inhibit, func() tea.Cmd { return openInhibit(c, qm, name()) }, inhibitOff(c, qm, name))
}

func openInhibit(c common, qm, queue string) tea.Cmd {
	q, why := inhibitTarget(c.State(), qm, queue)
	if why != "" {
		return nil
	}
	d := &inhibitDialog{qm: qm, q: q, attr: "GET", disable: !q.InhibitGet}
	d.loc = model.Location{Screen: model.ScreenDialog, QMgr: qm, Queue: queue, Label: "GET " + map[bool]string{true: "off", false: "on"}[d.disable] + " " + queue}
	return tea.Batch(c.Push(d), d.predict(c))
}

// predict asks the change gate what the command server would answer to
// the change the dialog shows (R10h); p asks again for the other attribute.
func (d *inhibitDialog) predict(c common) tea.Cmd {
	fp, ok := c.Opts().Ops.(FixPlanner)
	if !ok || c.Opts().ReadOnly {
		return nil
	}
	d.pred, d.predBad = "", false
	p := ops.InhibitPlan(d.q, d.qm, d.attr, d.disable)
	qm, user, ctx, attr := d.qm, c.Opts().User, c.Opts().Ctx, d.attr
	return func() tea.Msg {
		res, err := fp.PlanFix(ctx, qm, p, user)
		return inhibitPredictedMsg{d: d, attr: attr, res: res, err: err}
	}
}

type inhibitPredictedMsg struct {
	d    *inhibitDialog
	attr string
	res  ops.FixResult
	err  error
}

func (d *inhibitDialog) typeKey(common, tea.KeyMsg) tea.Cmd { return nil }

// awaiting: closed while the change is sent, the dialog still takes its
// answer (the journal, who set it, the flash).
func (d *inhibitDialog) awaiting() bool { return d.running }

// receive takes the change gate's dry run and the command server's
// answer, each carrying the dialog that asked.
func (d *inhibitDialog) receive(c common, msg tea.Msg) (tea.Cmd, bool) {
	switch m := msg.(type) {
	case inhibitPredictedMsg:
		if m.d != d {
			return nil, false
		}
		d.predicted(m)
		return nil, true
	case inhibitResultMsg:
		if m.d != d {
			return nil, false
		}
		d.changed(c, m)
		return nil, true
	}
	return nil, false
}

func (d *inhibitDialog) predicted(m inhibitPredictedMsg) {
	if d.attr != m.attr || d.running || d.outcome != "" {
		return // p switched the attribute since: its own answer comes
	}
	switch {
	case m.err != nil:
		d.pred = "dry run failed, nothing predicted: " + ops.DescribeReason(m.err)
	case len(m.res.Steps) == 1:
		d.pred, d.predBad = "dry run: "+cmpOr(m.res.Steps[0].Prediction, "would apply"), m.res.Steps[0].Predicted != 0
	}
}

func (d *inhibitDialog) bindings(c common) []binding {
	b := func(help string, keys ...string) key.Binding {
		return key.NewBinding(key.WithKeys(keys...), key.WithHelp(keys[0], help))
	}
	if d.running || d.outcome != "" {
		return []binding{bind(b("close", "esc", "enter"), func() tea.Cmd {
			if d.running {
				c.Session().watch(d) // the answer still comes to it
			}
			return c.Pop()
		}, short)}
	}
	return []binding{
		bind(b("switch Cancel / Apply", "tab", "left", "right", "shift+tab"), run(func() { d.apply = !d.apply }), short),
		bind(b("GET or PUT", "p"), func() tea.Cmd {
			d.attr = map[string]string{"GET": "PUT", "PUT": "GET"}[d.attr]
			d.disable = !map[string]bool{"GET": d.q.InhibitGet, "PUT": d.q.InhibitPut}[d.attr]
			d.loc.Label = d.attr + " " + map[bool]string{true: "off", false: "on"}[d.disable] + " " + d.q.Name
			return d.predict(c)
		}, short),
		bind(b("choose", "enter"), func() tea.Cmd {
			if !d.apply {
				return cancelled(c)
			}
			return d.start(c)
		}, short),
		bind(b("cancel", "esc"), func() tea.Cmd { return cancelled(c) }, short),
	}
}

func (d *inhibitDialog) start(c common) tea.Cmd {
	fx, ok := c.Opts().Ops.(FixOps)
	if !ok {
		return nil
	}
	d.running = true
	d.seq++
	seq, qm, q, attr, dis, user, ctx := d.seq, d.qm, d.q, d.attr, d.disable, c.Opts().User, c.Opts().Ctx
	return func() tea.Msg {
		res, err := fx.SetInhibit(ctx, qm, q, attr, dis, user)
		return inhibitResultMsg{d: d, seq: seq, res: res, err: err}
	}
}

type inhibitResultMsg struct {
	d   *inhibitDialog
	seq int
	res ops.FixResult
	err error
}

// changed takes the command server's answer; who set GET or PUT off is
// the journal's to remember (the engine wrote the inhibit to it).
func (d *inhibitDialog) changed(c common, m inhibitResultMsg) {
	if m.seq != d.seq {
		return
	}
	d.running = false
	s := c.Session()
	s.journalFix(m.res)
	switch {
	case m.err != nil:
		d.outcome = "not changed: " + ops.DescribeReason(m.err)
	case d.disable:
		d.outcome = fmt.Sprintf("%s OFF on %s %s: I again enables it", d.attr, d.q.Name, s.inhibitedBy(d.qm, d.q.Name, d.attr))
	default:
		d.outcome = d.attr + " ENABLED on " + d.q.Name
	}
	c.Flash(d.outcome)
	pollNow(c.Opts(), d.qm)
}

func (d *inhibitDialog) view(c common, w, h int) string {
	st := c.Styles()
	kind := "QLOCAL"
	if d.q.Type == mqwatch.QAlias {
		kind = "QALIAS"
	}
	verb, btn, why := "DISABLED", " Disable "+d.attr+" ", inhibitWhy
	if d.attr == "PUT" {
		why = putInhibitWhy
	}
	if !d.disable {
		verb, btn, why = "ENABLED", " Enable "+d.attr+" ", "consumers get the messages again, the poison ones too: fix the cause first"
		if d.attr == "PUT" {
			why = "producers and channels put to the queue again"
		}
		if by := c.Session().inhibitedBy(d.qm, d.q.Name, d.attr); by != "" {
			why = d.attr + " was disabled " + by + "; " + why
		}
	}
	verb = "ALTER " + kind + "(%s) " + d.attr + "(" + verb + ")"
	cmd := fmt.Sprintf(verb, mqfmt.Sanitize(actions.MQSCName(d.q.Name)))
	lines := []string{ansi.Truncate(st.Title.Render(" "+cmd+" on "+mqfmt.Sanitize(d.qm)+"   (needs +chg on queue "+mqfmt.Sanitize(d.q.Name)+")"), w, "…")}
	for _, l := range strings.Split(ansi.Wrap(why, max(w-2, 20), " "), "\n") {
		lines = append(lines, " "+l)
	}
	if d.pred != "" && !d.running && d.outcome == "" {
		style := st.Muted
		if d.predBad {
			style = st.Danger
		}
		lines = append(lines, ansi.Truncate(style.Render(" "+mqfmt.Sanitize(d.pred)), w, "…"))
	}
	switch {
	case d.running:
		lines = append(lines, "", st.Info.Render(" sending the change…"))
	case d.outcome != "":
		lines = append(lines, "", " "+mqfmt.Sanitize(d.outcome))
	default:
		lines = append(lines, "", ansi.Truncate(" "+buttons(st, "Cancel", strings.TrimSpace(btn), d.apply)+"   tab switches · p: GET or PUT · esc cancels", w, "…"))
	}
	return fitHeight(strings.Join(lines, "\n"), h)
}

// inhibitLabel is what a queue row's TYPE says when gets or puts are off.
func inhibitLabel(q mqwatch.QueueInfo) string {
	switch {
	case q.InhibitGet && q.InhibitPut:
		return "G+P OFF"
	case q.InhibitGet:
		return "GET OFF"
	case q.InhibitPut:
		return "PUT OFF"
	}
	return ""
}

// inhibitNote leads a queue screen's status line while gets or puts are
// off: which, who set it from here and when, and that I turns it back on.
func inhibitNote(c common, q mqwatch.QueueInfo, qm string) string {
	var out string
	for _, attr := range []string{"GET", "PUT"} {
		if (attr == "GET" && !q.InhibitGet) || (attr == "PUT" && !q.InhibitPut) {
			continue
		}
		note := " " + attr + " OFF"
		if by := c.Session().inhibitedBy(qm, q.Name, attr); by != "" {
			note += " " + by
		}
		out += c.Styles().Danger.Render(note+" (I enables it)") + " "
	}
	return out
}
