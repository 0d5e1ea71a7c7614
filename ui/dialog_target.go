package ui

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/poisonwatch/poisonwatch/actions/ops"
	"github.com/poisonwatch/poisonwatch/model"
	"github.com/poisonwatch/poisonwatch/mqwatch"
	"github.com/poisonwatch/poisonwatch/mqwatch/mqfmt"
)

// mqrcUnknownObjectName is MQRC_UNKNOWN_OBJECT_NAME: the dead letter's
// destination queue does not exist.
const mqrcUnknownObjectName = 2085

// maxShownMatches caps the completion list under the target input.
const maxShownMatches = 6

// askQueue: the dialog is asking for a target queue (not a file path), so
// tab completes queue names.
func (d *dialog) askQueue() bool { return d.askTarget && d.req.Op != ops.OpExport }

// splitTarget reads "QUEUE" or "QUEUE@QMGR": '@' is not a valid character in
// an MQ object name, so it cannot be part of the queue's name.
func splitTarget(v string) (queue, qmgr string) {
	v = strings.ToUpper(strings.TrimSpace(v))
	q, qm, _ := strings.Cut(v, "@")
	return strings.TrimSpace(q), strings.TrimSpace(qm)
}

// knownQueues are the queue names the watcher knows on qm (the latest
// snapshot), empty when qm is not watched.
func (a *App) knownQueues(qm string) []string {
	s := a.state.QMgrs[qm]
	if s == nil || s.Snap == nil {
		return nil
	}
	names := make([]string, 0, len(s.Snap.Queues))
	for _, q := range s.Snap.Queues {
		names = append(names, q.Info.Name)
	}
	return names
}

// targetQMgr is the queue manager a typed target is on: the one after '@',
// else the source's.
func (d *dialog) targetQMgr() string {
	if _, qm := splitTarget(d.typed.Value()); qm != "" {
		return qm
	}
	return d.req.QMgr
}

// targetMatches are the known queues that the typed name begins.
func (a *App) targetMatches(d *dialog) []string {
	q, _ := splitTarget(d.typed.Value())
	return model.CompleteNames(q, a.knownQueues(d.targetQMgr()))
}

// completeTarget is tab while a queue is typed: it fills in what every
// matching name shares, or the whole name when one matches.
func (a *App) completeTarget(d *dialog) {
	m := a.targetMatches(d)
	if len(m) == 0 {
		a.flash = "no queue on " + d.targetQMgr() + " begins with that"
		return
	}
	c := model.CommonPrefix(m)
	if _, qm := splitTarget(d.typed.Value()); qm != "" {
		c += "@" + qm
	}
	d.typed.SetValue(c)
	d.typed.CursorEnd()
}

// chooseTarget reopens the target input: requeue then goes where the operator
// types (an empty answer keeps the original queue).
func (a *App) chooseTarget(d *dialog) {
	// Enter takes what is typed at once (empty: the original queue): it only
	// dry-runs, so Run has the focus.
	d.askTarget, d.onRun, d.retarget = true, true, true
	d.typed.Prompt = "target queue: "
	d.resize(a, a.width, 0) // the input's width follows its prompt
	d.typed.SetValue(d.req.Target)
	d.typed.Focus()
}

// setTarget takes the typed target into the request.
func (d *dialog) setTarget() {
	q, qm := splitTarget(d.typed.Value())
	d.req.Target, d.req.TargetQMgr = q, qm
}

// requeueInstead turns a move into a requeue to the same target: requeue
// strips the MQDLH a move would keep.
func (a *App) requeueInstead(d *dialog) tea.Cmd {
	d.req.Op = ops.OpRequeue
	d.onRun = false
	return a.planCmd(d)
}

// dlhStays: a move of messages that carry an MQDLH onto a queue that is not
// a dead-letter queue leaves the header on them, where the application
// reading that queue will not expect it.
func (a *App) dlhStays(d *dialog) int {
	if d.req.Op != ops.OpMove || d.req.Target == "" {
		return 0
	}
	qm := d.req.TargetQMgr
	if qm == "" {
		qm = d.req.QMgr
	}
	if s := a.state.QMgrs[qm]; s != nil {
		if q := s.Queues[d.req.Target]; q != nil && q.View.Role == mqwatch.RoleDeadQ {
			return 0
		}
	}
	n := 0
	for _, m := range d.req.Messages {
		if m.HasDLH {
			n++
		}
	}
	return n
}

// nearQueues suggests, for dead letters whose destination did not exist
// (2085), the existing queues with a near name: "QM2 has INVOICES.IN".
func (a *App) nearQueues(msgs []mqwatch.Summary, local string) []string {
	seen := map[string]bool{}
	var out []string
	for _, m := range msgs {
		if !m.HasDLH || m.DLHReason != mqrcUnknownObjectName || seen[m.DLHDestQMgr+"/"+m.DLHDestQ] {
			continue
		}
		seen[m.DLHDestQMgr+"/"+m.DLHDestQ] = true
		if s := a.nearQueue(m.DLHDestQ, m.DLHDestQMgr, local); s != "" {
			out = append(out, s)
		}
	}
	return out
}

// nearQueue says which existing queues have a name near dest, a queue that
// did not exist: on destQM when it is watched, else on the local queue
// manager (the line names the one whose queues were searched).
func (a *App) nearQueue(dest, destQM, local string) string {
	qm, dest := strings.TrimSpace(destQM), strings.TrimSpace(dest)
	if qm == "" || a.state.QMgrs[qm] == nil {
		qm = local
	}
	near := model.NearNames(dest, a.knownQueues(qm), 3)
	if dest == "" || len(near) == 0 {
		return ""
	}
	return fmt.Sprintf("%s has no %s (2085) but has %s", mqfmt.Sanitize(qm),
		mqfmt.Sanitize(dest), mqfmt.Sanitize(strings.Join(near, ", ")))
}

// targetHintLines go under the target input: the matching queue names, and
// near names for 2085 dead letters.
func (a *App) targetHintLines(d *dialog) []string {
	st := &a.st
	var out []string
	if m := a.targetMatches(d); len(m) > 0 && strings.TrimSpace(d.typed.Value()) != "" {
		shown := m[:min(len(m), maxShownMatches)]
		more := ""
		if len(m) > len(shown) {
			more = fmt.Sprintf(" (+%d more)", len(m)-len(shown))
		}
		out = append(out, st.Muted.Render("   "+mqfmt.Sanitize(strings.Join(shown, "  "))+more))
	}
	for _, s := range a.nearQueues(d.req.Messages, d.req.QMgr) {
		out = append(out, st.Warning.Render(" suggestion: "+s))
	}
	return append(out, a.createHintLines(d)...)
}

// confirmBindings are the confirmation's keys. While a queue is typed, tab
// completes it and the other switch keys move between Cancel and Run; a
// requeue can be sent to a chosen target; a move that would keep an MQDLH
// can become a requeue.
func (a *App) confirmBindings(d *dialog, b func(string, ...string) key.Binding) []binding {
	if d.create != nil {
		return a.createBindings(d.create, func() { d.create = nil }, b)
	}
	toggle := run(func() { d.onRun = !d.onRun })
	var out []binding
	if d.askQueue() {
		out = append(out,
			bind(b("complete the queue name", "tab"), run(func() { a.completeTarget(d) }), short),
			bind(b("switch Cancel/Run", "shift+tab", "left", "right"), toggle, short),
			bind(b("define the typed queue (LIKE the DEADQ) to park in", "ctrl+n"), run(func() { a.openCreate(d) }), short, offWhen(func() string { return a.createOff(d) })))
	} else {
		out = append(out, bind(b("switch Cancel/Run", "tab", "shift+tab", "left", "right"), toggle, short))
	}
	out = append(out,
		bind(b("choose", "enter"), func() tea.Cmd { return a.choose(d) }, short),
		a.escBinding(d, b))
	if d.req.Op == ops.OpRequeue && !d.askTarget {
		out = append(out, bind(b("requeue to another queue", "ctrl+t"), run(func() { a.chooseTarget(d) }), short))
	}
	if !d.askTarget && a.dlhStays(d) > 0 {
		out = append(out, bind(b("requeue instead (strips the MQDLH)", "ctrl+r"), func() tea.Cmd { return a.requeueInstead(d) }, short))
	}
	return out
}

// escBinding: esc in a target input reopened over a dry run goes back to that
// result; anywhere else in the confirmation it cancels the dialog.
func (a *App) escBinding(d *dialog, b func(string, ...string) key.Binding) binding {
	if d.askTarget && d.retarget {
		return bind(b("back to the dry run", "esc"), run(func() { a.endRetarget(d) }), short)
	}
	return bind(b("cancel", "esc"), a.closeDialog, short)
}

// planHintLines follow the dry run: the MQDLH warning of a move, near-name
// suggestions for 2085 dead letters, and how to pick another target.
func (a *App) planHintLines(d *dialog) []string {
	st := &a.st
	var out []string
	if n := a.dlhStays(d); n > 0 {
		out = append(out, st.Warning.Render(fmt.Sprintf(" %s message(s) carry an MQDLH and %s is not a dead-letter queue: a move keeps the header on them;",
			human(int64(n)), mqfmt.Sanitize(d.req.Target))),
			st.Warning.Render(" ctrl+r requeues to "+mqfmt.Sanitize(d.req.Target)+" instead, stripping the MQDLH"))
	}
	if d.req.Op == ops.OpRequeue {
		for _, s := range a.nearQueues(d.req.Messages, d.req.QMgr) {
			out = append(out, st.Warning.Render(" suggestion: "+s+" (ctrl+t requeues there)"))
		}
		if d.req.Target == "" {
			out = append(out, st.Muted.Render(" ctrl+t requeues to another queue"))
		}
	}
	return out
}
