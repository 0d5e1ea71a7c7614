package ui

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/poisonwatch/poisonwatch/incident/journal"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	"github.com/poisonwatch/poisonwatch/actions"
	"github.com/poisonwatch/poisonwatch/actions/ops"
	"github.com/poisonwatch/poisonwatch/codec/mqfmt"
	"github.com/poisonwatch/poisonwatch/model"
	"github.com/poisonwatch/poisonwatch/mqwatch"
)

// FixOps applies fixes and GET/PUT inhibits (R10h) through the queue
// manager's command server. main's engines implement it next to
// Operations; without it the x and I keys say so.
type FixOps interface {
	ApplyFix(ctx context.Context, qmgr string, p actions.FixPlan, user string) (ops.FixResult, error)
	SetInhibit(ctx context.Context, qmgr string, q mqwatch.QueueInfo, attr string, disable bool, user string) (ops.FixResult, error)
}

// FixPlanner is the change gate's dry run (R10h): each step's answer
// predicted from the objects as they are and the user's authorities,
// nothing sent. The fix dialog shows it before Apply when the engines
// offer it.
type FixPlanner interface {
	PlanFix(ctx context.Context, qmgr string, p actions.FixPlan, user string) (ops.FixResult, error)
}

// verifyPolls is how many polls after a fix the dialog waits for its alert
// to clear before it says the alert still fires.
const verifyPolls = 3

type fixPhase int

const (
	fixConfirm fixPhase = iota
	fixRunning
	fixVerifying
	fixDone
)

// fixDialog shows an alert's fix as MQSC and as attributes before → after,
// the authority it needs and the findings it affects; on Apply it sends the
// changes, then watches the next polls for the alert to clear.
type fixDialog struct {
	base
	al      model.Alert
	plan    actions.FixPlan
	affects []model.Alert
	phase   fixPhase
	apply   bool // the Apply button has focus (Cancel has it first)
	res     ops.FixResult
	err     error
	// pred is the change gate's dry run, once it answered; predErr why
	// it could not run.
	pred    *ops.FixResult
	predErr error
	seq     int
	polls   int    // polls folded since the fix was applied
	lastSeq uint64 // the snapshot the last refresh saw
	outcome string
	cancel  context.CancelFunc
	// left: closed while the fix was being sent.
	left bool
	// before holds the alerts firing when the fix was applied; now, the
	// ones on the queues it touched that fire since (a loop's stuck
	// messages show as R8c once BOTHRESH is set).
	before map[string]bool
	now    []string
	// sent is when the command server answered the fix.
	sent time.Time
}

// fixKeys are x and I on the alert sel returns: they open the fix and
// the inhibit dialogs.
func fixKeys(c common, sel func() *model.Alert) []binding {
	k := c.Keys()
	return []binding{
		bind(k.Fix, func() tea.Cmd { return openFix(c, sel()) }, short, fixKeyOff(c.Opts(), sel)),
		bind(k.Inhibit, func() tea.Cmd { al := sel(); return openInhibit(c, al.QMgr, al.Queue) }, inhibitOffAlert(c, sel)),
	}
}

func openFix(c common, al *model.Alert) tea.Cmd {
	if al == nil {
		return nil
	}
	qs := c.State().QMgr(al.QMgr)
	d := &fixDialog{al: *al, plan: qs.FixPlan(*al), affects: qs.NeedsFirst(*al)}
	d.loc = model.Location{Screen: model.ScreenDialog, QMgr: al.QMgr, Queue: al.Queue, Label: "fix " + al.ID()}
	return tea.Batch(c.Push(d), d.predict(c))
}

// predict asks the change gate what the command server would answer to
// each step, before the operator chooses Apply.
func (d *fixDialog) predict(c common) tea.Cmd {
	fp, ok := c.Opts().Ops.(FixPlanner)
	if !ok || len(d.plan.Steps) == 0 || len(d.plan.CopyOnly) > 0 || c.Opts().ReadOnly {
		return nil
	}
	qm, plan, user, ctx := d.al.QMgr, d.plan, c.Opts().User, c.Opts().Ctx
	return func() tea.Msg {
		res, err := fp.PlanFix(ctx, qm, plan, user)
		return fixPredictedMsg{d: d, res: res, err: err}
	}
}

// fixPredictedMsg is the change gate's dry run of the dialog's plan.
type fixPredictedMsg struct {
	d   *fixDialog
	res ops.FixResult
	err error
}

// fixOff says why x does nothing for an alert: no fix, read-only or a
// viewer, or no engine that applies fixes.
func fixOff(o *Options, al *model.Alert) string {
	_, ok := o.Ops.(FixOps)
	switch {
	case al == nil:
		return "no alert"
	case al.Fix == "" || al.Advice():
		return "this alert has no MQSC fix" // advice is followed by hand: nothing to send
	case o.ReadOnly:
		return cmpOr(o.ReadOnlyWhy, "read-only: fixes are off")
	case !ok:
		return "no connection for fixes"
	}
	return ""
}

// fixKeyOff turns x off, hiding it from help in read-only mode as the
// other action keys are.
func fixKeyOff(o *Options, al func() *model.Alert) func(*binding) {
	return func(b *binding) {
		b.hide = o.ReadOnly
		b.off = func() string { return fixOff(o, al()) }
	}
}

func cmpOr(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

func (d *fixDialog) typeKey(common, tea.KeyMsg) tea.Cmd { return nil }

// awaiting: closed while it applies the fix or checks for its alert to
// clear, the dialog still takes its answer and the polls; the flash says
// how it ended.
func (d *fixDialog) awaiting() bool { return d.phase == fixRunning || d.phase == fixVerifying }

// receive takes the change gate's dry run and the fix's answer, each
// carrying the dialog that asked, and the polls while it watches closed.
func (d *fixDialog) receive(c common, msg tea.Msg) (tea.Cmd, bool) {
	switch m := msg.(type) {
	case polledMsg:
		return d.refresh(c), false
	case fixPredictedMsg:
		if m.d != d {
			return nil, false
		}
		if d.phase == fixConfirm {
			d.pred, d.predErr = &m.res, m.err
		}
		return nil, true
	case fixResultMsg:
		if m.d != d {
			return nil, false
		}
		d.applied(c, m)
		return nil, true
	}
	return nil, false
}

// refresh counts the polls since the fix and looks for its alert.
func (d *fixDialog) refresh(c common) tea.Cmd {
	if d.phase != fixVerifying {
		return nil
	}
	qs := c.State().QMgr(d.al.QMgr)
	if qs.Snap == nil || qs.Snap.Seq == d.lastSeq || qs.Snap.Partial() {
		return nil
	}
	d.lastSeq = qs.Snap.Seq
	d.polls++
	for _, al := range qs.Alerts {
		if al.ID() == d.al.ID() {
			if d.polls >= verifyPolls {
				d.phase, d.outcome = fixDone, "still firing: "+al.ID()+" "+al.Text
				c.Flash(d.outcome)
			}
			return nil
		}
	}
	d.phase, d.outcome = fixDone, fmt.Sprintf("%s %s cleared", d.al.Rule, cmpOr(d.al.Queue, d.al.QMgr))
	c.Flash(d.outcome)
	d.newAlerts(qs)
	// What cleared the alert is part of the record: the journal says so,
	// completing the fix (the audit view, the room, the report).
	c.Session().journal.Append(journal.Entry{At: qs.Snap.Time, Kind: journal.Cleared, Ref: d.res.Entry, User: d.res.User,
		QMgr: d.al.QMgr, Queue: d.al.Queue, Alert: d.al.Key(),
		Text: fmt.Sprintf("%s %s cleared %s after the fix", d.al.Rule, cmpOr(d.al.Queue, d.al.QMgr), qs.Snap.Time.Sub(d.sent).Round(time.Second))})
	return nil
}

// newAlerts notes the alerts on the queues the fix touched that were not
// firing before it.
func (d *fixDialog) newAlerts(qs *model.QMgrState) {
	touched := map[string]bool{}
	for _, s := range d.plan.Steps {
		touched[s.Change.Queue] = true
	}
	for _, al := range qs.Alerts {
		if touched[al.Queue] && !d.before[al.ID()] {
			d.now = append(d.now, al.ID()+" "+al.Text)
		}
	}
}

func (d *fixDialog) bindings(c common) []binding {
	b := func(help string, keys ...string) key.Binding {
		return key.NewBinding(key.WithKeys(keys...), key.WithHelp(keys[0], help))
	}
	closeIt := func() tea.Cmd {
		switch {
		case d.phase == fixConfirm:
			return cancelled(c)
		case d.phase == fixVerifying:
			c.Session().watch(d) // the flash will say how it ended
		case d.cancel != nil:
			d.cancel()
			if d.phase == fixRunning {
				d.left = true
				c.Session().watch(d) // what was sent before the stop is journaled
			}
		}
		return c.Pop()
	}
	if d.phase != fixConfirm {
		return []binding{bind(b("close", "esc", "enter"), closeIt, short)}
	}
	blocked := offIf(func() bool { return len(d.plan.CopyOnly) > 0 || len(d.plan.Steps) == 0 }, "this fix has commands that are copy-only: run it in runmqsc")
	return []binding{
		bind(b("switch Cancel / Apply", "tab", "left", "right", "shift+tab"), run(func() { d.apply = !d.apply }), short, blocked),
		bind(b("choose", "enter"), func() tea.Cmd {
			if !d.apply {
				return closeIt()
			}
			return d.start(c)
		}, short),
		bind(b("cancel", "esc"), closeIt, short),
	}
}

// start applies the plan on a command of its own.
func (d *fixDialog) start(c common) tea.Cmd {
	fx, ok := c.Opts().Ops.(FixOps)
	if !ok || len(d.plan.CopyOnly) > 0 {
		return nil
	}
	ctx, cancel := context.WithCancel(c.Opts().Ctx)
	d.cancel, d.phase = cancel, fixRunning
	d.seq++
	seq, qm, plan, user := d.seq, d.al.QMgr, d.plan, c.Opts().User
	return func() tea.Msg {
		res, err := fx.ApplyFix(ctx, qm, plan, user)
		return fixResultMsg{d: d, seq: seq, res: res, err: err}
	}
}

// fixResultMsg is the command server's answer to a fix.
type fixResultMsg struct {
	d   *fixDialog
	seq int
	res ops.FixResult
	err error
}

// applied takes the command server's answer; the polls that follow say
// whether the alert clears.
func (d *fixDialog) applied(c common, m fixResultMsg) {
	if m.seq != d.seq {
		return
	}
	d.res, d.err, d.sent = m.res, m.err, c.Opts().Now()
	c.Session().journalFix(m.res)
	if m.err != nil {
		d.phase, d.outcome = fixDone, "not applied: "+ops.DescribeReason(m.err)
		c.Flash(d.outcome)
		return
	}
	d.phase = fixVerifying
	qs := c.State().QMgr(d.al.QMgr)
	if qs.Snap != nil {
		d.lastSeq = qs.Snap.Seq
	}
	d.before = map[string]bool{}
	for _, al := range qs.Alerts {
		d.before[al.ID()] = true
	}
	pollNow(c.Opts(), d.al.QMgr) // the operator is waiting for the answer
	if d.left {
		d.phase = fixDone // stopped by the operator: nobody waits for the check
	}
}

func (d *fixDialog) view(c common, w, h int) string {
	st := c.Styles()
	wrap := func(s string, indent int) []string {
		var out []string
		for _, l := range strings.Split(ansi.Wrap(mqfmt.Sanitize(s), max(w-indent-1, 20), " "), "\n") {
			out = append(out, strings.Repeat(" ", indent)+l)
		}
		return out
	}
	lines := []string{st.Level(int(d.al.Severity)).Render(" FIX " + d.al.ID() + " on " + mqfmt.Sanitize(d.al.QMgr))}
	lines = append(lines, wrap(d.al.Text, 1)...)
	lines = append(lines, "", st.Title.Render(fmt.Sprintf(" MQSC, sent as PCF in this order (%d)", len(d.plan.Steps))))
	lines = append(lines, d.stepLines(st, wrap)...)
	lines = append(lines, fixTable(d.plan, w)...)
	lines = append(lines, d.effectLines(st, wrap)...)
	lines = append(lines, "", d.footer(st, w))
	return fitHeight(strings.Join(lines, "\n"), h)
}
