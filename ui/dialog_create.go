package ui

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/bubbles/textinput"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	"github.com/poisonwatch/poisonwatch/actions"
	"github.com/poisonwatch/poisonwatch/actions/ops"
	"github.com/poisonwatch/poisonwatch/codec/mqfmt"
	"github.com/poisonwatch/poisonwatch/model"
	"github.com/poisonwatch/poisonwatch/mqwatch"
)

// Park instead of retry (R10h): in a move's or requeue's target input, a
// queue that does not exist is defined with ctrl+n, LIKE the DEADQ (or a
// queue the operator names) with the MAXDEPTH they give, through the fix's
// path (the command server, its authority checks, the audit line); then the
// dry run is shown again with the new queue as the target.

// createStep is the define form over a dialog's target input (or a rules
// table's FWD queue).
type createStep struct {
	name, qmgr string
	then       string                 // what happens once it is defined, for the hint
	done       func(c common) tea.Cmd // the queue is defined: back to the owner
	like       textinput.Model
	depth      textinput.Model
	onDepth    bool // MAXDEPTH has the focus (LIKE has it first)
	problem    string
	running    bool
	seq        int
}

// createOff says why ctrl+n does nothing for what is typed, "" when it
// defines the queue.
func (d *dialog) createOff(c common) string {
	q, _ := splitTarget(d.typed.Value())
	qm := d.targetQMgr()
	return newQueueOff(c, q, qm)
}

// newQueueOff says why q on qm cannot be defined, "" when it can.
func newQueueOff(c common, q, qm string) string {
	s := c.State().QMgrs[qm]
	if r := defineOff(c.Opts()); r != "" {
		return r
	}
	switch {
	case q == "":
		return "type the new queue's name first"
	case s == nil || s.Snap == nil:
		return mqfmt.Sanitize(qm) + " is not watched: define the queue there with runmqsc"
	case queueKnown(c.State(), qm, q):
		return mqfmt.Sanitize(q) + " exists: enter picks it"
	}
	return ""
}

func queueKnown(st *model.State, qm, q string) bool {
	for _, n := range knownQueues(st, qm) {
		if n == q {
			return true
		}
	}
	return false
}

// openCreate is ctrl+n in a target input: once defined, the queue is the
// target and the dry run is shown again.
func (d *dialog) openCreate(cx common) {
	q, _ := splitTarget(d.typed.Value())
	c := newCreate(cx.State(), q, d.targetQMgr())
	c.then = "the dry run of the " + string(d.req.Op) + " to it is shown again"
	c.done = func(cx common) tea.Cmd {
		if d.create != c {
			return nil // the form was left meanwhile
		}
		// The form is still open, so its dialog is on view: esc leaves the
		// form before anything closes the dialog.
		d.create = nil
		d.req.Target, d.req.TargetQMgr = c.name, ""
		if c.qmgr != d.req.QMgr {
			d.req.TargetQMgr = c.qmgr
		}
		d.askTarget, d.onRun, d.retarget = false, false, false
		// A queue defined to park in: nothing consumes it, so nothing can
		// come back from it, and the 30 s check would only hold the
		// dashboard (R10f).
		d.parked, d.defined, d.req.Verify = true, c.name, 0
		return d.planCmd(cx)
	}
	d.create = c
}

// newCreate is the form for queue name on qm, LIKE its DEADQ with its
// MAXDEPTH; qm is watched.
func newCreate(st *model.State, name, qm string) *createStep {
	c := &createStep{name: name, qmgr: qm, like: textinput.New(), depth: textinput.New()}
	c.like.Prompt, c.depth.Prompt = "LIKE: ", "MAXDEPTH: "
	snap := st.QMgrs[c.qmgr].Snap
	c.like.SetValue(snap.QMgr.DeadQ)
	c.depth.SetValue("5000") // IBM MQ's default for a new local queue
	for _, v := range snap.Queues {
		if v.Info.Name == snap.QMgr.DeadQ && v.Info.MaxDepth > 0 {
			c.depth.SetValue(strconv.Itoa(int(v.Info.MaxDepth)))
		}
	}
	c.like.Width, c.depth.Width = 48, 12
	c.like.Focus()
	c.like.CursorEnd()
	return c
}

// createPlan is the define the form says, checked.
func (c *createStep) createPlan(cx common) (actions.FixPlan, error) {
	n, err := strconv.Atoi(strings.TrimSpace(c.depth.Value()))
	if err != nil {
		return actions.FixPlan{}, fmt.Errorf("MAXDEPTH %q is not a number", c.depth.Value())
	}
	snap := cx.State().QMgrs[c.qmgr].Snap
	qs := make([]mqwatch.QueueInfo, 0, len(snap.Queues))
	for _, v := range snap.Queues {
		qs = append(qs, v.Info)
	}
	return actions.ParkPlan(actions.ParkInput{QMgr: snap.QMgr, Queues: qs, Name: c.name, Like: c.like.Value(), MaxDepth: n})
}

// defineOff says why no queue can be defined here, "" when one can.
func defineOff(o *Options) string {
	if o.ReadOnly {
		return cmpOr(o.ReadOnlyWhy, "read-only: queues cannot be defined")
	}
	if _, ok := o.Ops.(FixOps); !ok {
		return "no connection for defining queues"
	}
	return ""
}

// startCreate sends the define; its answer comes back as createdMsg, to
// the form itself, which awaits it among the session's watching whatever
// becomes of its owner: a define sent is journaled when it answers.
func (c *createStep) startCreate(cx common) tea.Cmd {
	if r := defineOff(cx.Opts()); r != "" {
		c.problem = r
		return nil
	}
	p, err := c.createPlan(cx)
	if err != nil {
		c.problem = err.Error()
		return nil
	}
	fx := cx.Opts().Ops.(FixOps)
	c.running, c.problem = true, ""
	c.seq++
	cx.Session().watch(c)
	ctx, seq, qm, user := cx.Opts().Ctx, c.seq, c.qmgr, cx.Opts().User
	return func() tea.Msg {
		res, err := fx.ApplyFix(ctx, qm, p, user)
		return createdMsg{c: c, seq: seq, res: res, err: err}
	}
}

// createdMsg is the command server's answer to a define.
type createdMsg struct {
	c   *createStep
	seq int
	res ops.FixResult
	err error
}

func (c *createStep) awaiting() bool { return c.running }

// receive: defined, the form's owner takes the queue; refused, the form
// stays with IBM's reason.
func (c *createStep) receive(cx common, msg tea.Msg) (tea.Cmd, bool) {
	m, ok := msg.(createdMsg)
	if !ok || m.c != c {
		return nil, false
	}
	if m.seq != c.seq {
		return nil, true
	}
	c.running = false
	cx.Session().journalFix(m.res)
	if m.err != nil {
		c.problem = "not defined: " + ops.DescribeReason(m.err)
		cx.Flash(c.problem)
		return nil, true
	}
	if len(m.res.Plan.Steps) > 0 {
		cx.Flash("defined: " + mqfmt.Sanitize(m.res.Plan.Steps[0].MQSC))
	}
	pollNow(cx.Opts(), c.qmgr)
	return c.done(cx), true
}

// createBindings are the form's keys; leave closes it.
func (c *createStep) createBindings(cx common, leave func(), b func(string, ...string) key.Binding) []binding {
	if c.running {
		return []binding{bind(b("back (the define already sent stands)", "esc"), run(leave), short)}
	}
	return []binding{
		bind(b("switch LIKE / MAXDEPTH", "tab", "shift+tab", "up", "down"), run(func() { c.toggle() }), short),
		bind(b("define the queue", "enter"), func() tea.Cmd { return c.startCreate(cx) }, short),
		bind(b("back, nothing defined", "esc"), run(leave), short),
	}
}

func (c *createStep) toggle() {
	c.onDepth = !c.onDepth
	if c.onDepth {
		c.like.Blur()
		c.depth.Focus()
		c.depth.CursorEnd()
	} else {
		c.depth.Blur()
		c.like.Focus()
		c.like.CursorEnd()
	}
}

// typeKey types into the focused field: LIKE is a queue name, MAXDEPTH
// digits only.
func (c *createStep) typeKey(k tea.KeyMsg) {
	if c.running {
		return
	}
	if c.onDepth {
		if k.Type == tea.KeyRunes && strings.Trim(string(k.Runes), "0123456789") != "" {
			return
		}
		c.depth, _ = c.depth.Update(k)
	} else {
		c.like, _ = c.like.Update(k)
	}
	c.problem = ""
}

// createLines draw the form: the MQSC it sends, the authority it needs and
// what the LIKE queue gives the new one.
func (c *createStep) createLines(cx common, width int) []string {
	st := cx.Styles()
	w := max(width-2, 20)
	out := []string{st.Title.Render(" DEFINE " + mqfmt.Sanitize(c.name) + " on " + mqfmt.Sanitize(c.qmgr) + ": it does not exist"), ""}
	out = append(out, " "+c.like.View(), " "+c.depth.View(), "")
	if p, err := c.createPlan(cx); err == nil {
		s := p.Steps[0]
		out = append(out, " "+st.Info.Render(mqfmt.Sanitize(s.MQSC)),
			st.Muted.Render(" sent as "+s.PCF+"; needs "+mqfmt.Sanitize(s.Authority)))
		out = append(out, c.likeLines(cx, w)...)
	} else if c.problem == "" {
		out = append(out, st.Warning.Render(" "+mqfmt.Sanitize(err.Error())))
	}
	switch {
	case c.running:
		out = append(out, "", st.Muted.Render(" defining through the command server…"))
	case c.problem != "":
		for _, l := range strings.Split(ansi.Wrap(mqfmt.Sanitize(c.problem), w-2, " "), "\n") {
			out = append(out, st.Danger.Render(" ✗ "+l))
		}
	}
	hint := " enter defines the queue (audited), then " + c.then + "; esc goes back"
	out = append(out, "")
	for _, l := range strings.Split(ansi.Wrap(hint, w, " "), "\n") {
		out = append(out, st.Muted.Render(" "+strings.TrimPrefix(l, " ")))
	}
	return out
}

// likeLines say what the new queue takes from the one it is LIKE.
func (c *createStep) likeLines(cx common, width int) []string {
	like := strings.TrimSpace(c.like.Value())
	for _, v := range cx.State().QMgrs[c.qmgr].Snap.Queues {
		if q := v.Info; q.Name == like {
			n, _ := strconv.Atoi(c.depth.Value())
			var out []string
			for _, l := range strings.Split(ansi.Wrap(mqfmt.Sanitize(actions.LikeCopies(q, n)), width-2, " "), "\n") {
				out = append(out, cx.Styles().Muted.Render(" "+l))
			}
			return out
		}
	}
	return nil
}

// createHintLines go under a target input whose queue does not exist.
func (d *dialog) createHintLines(c common) []string {
	q, _ := splitTarget(d.typed.Value())
	if q == "" || !d.askQueue() || d.createOff(c) != "" {
		return nil
	}
	return wrapped(c.Styles().Warning, " ", "no queue "+mqfmt.Sanitize(q)+" on "+mqfmt.Sanitize(d.targetQMgr())+": ctrl+n defines it (LIKE the DEADQ, to park the messages)", d.w)
}
