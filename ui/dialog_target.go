package ui

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/poisonwatch/poisonwatch/actions/ops"
	"github.com/poisonwatch/poisonwatch/codec/mqfmt"
	"github.com/poisonwatch/poisonwatch/model"
	"github.com/poisonwatch/poisonwatch/mqwatch"
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
	// Names are case-sensitive in IBM MQ: what is typed is the name.
	q, qm, _ := strings.Cut(strings.TrimSpace(v), "@")
	return strings.TrimSpace(q), strings.TrimSpace(qm)
}

// knownQueues are the queue names the watcher knows on qm (the latest
// snapshot), empty when qm is not watched.
func knownQueues(st *model.State, qm string) []string {
	s := st.QMgrs[qm]
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
func (d *dialog) targetMatches(c common) []string {
	q, _ := splitTarget(d.typed.Value())
	return model.CompleteNames(q, knownQueues(c.State(), d.targetQMgr()))
}

// completeTarget is tab while a queue is typed: it fills in what every
// matching name shares, or the whole name when one matches.
func (d *dialog) completeTarget(cx common) {
	m := d.targetMatches(cx)
	if len(m) == 0 {
		cx.Flash("no queue on " + d.targetQMgr() + " begins with that")
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
func (d *dialog) chooseTarget(c common) {
	// Enter takes what is typed at once (empty: the original queue): it only
	// dry-runs, so Run has the focus.
	d.askTarget, d.onRun, d.retarget = true, true, true
	d.typed.Prompt = "target queue: "
	d.resize(c, d.w, 0) // the input's width follows its prompt
	d.typed.SetValue(d.req.Target)
	d.typed.Focus()
}

// setTarget takes the typed target into the request.
func (d *dialog) setTarget() {
	q, qm := splitTarget(d.typed.Value())
	if d.parked && (q != d.defined || qm != "") {
		d.parked, d.req.Verify = false, dashboardVerify // another target: its consumer may send them back
	}
	d.req.Target, d.req.TargetQMgr = q, qm
}

// requeueInstead turns a move into a requeue to the same target: requeue
// strips the MQDLH a move would keep.
func (d *dialog) requeueInstead(c common) tea.Cmd {
	d.req.Op = ops.OpRequeue
	d.onRun = false
	return d.planCmd(c)
}

// dlhStays: a move of messages that carry an MQDLH onto a queue that is not
// a dead-letter queue leaves the header on them, where the application
// reading that queue will not expect it.
func (d *dialog) dlhStays(c common) int {
	if d.req.Op != ops.OpMove || d.req.Target == "" || d.parked {
		return 0 // parking keeps the MQDLH on purpose: reason and original destination
	}
	qm := d.req.TargetQMgr
	if qm == "" {
		qm = d.req.QMgr
	}
	if s := c.State().QMgrs[qm]; s != nil {
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
func nearQueues(st *model.State, msgs []mqwatch.Summary, local string) []string {
	seen := map[string]bool{}
	var out []string
	for _, m := range msgs {
		if !m.HasDLH || m.DLHReason != mqrcUnknownObjectName || seen[m.DLHDestQMgr+"/"+m.DLHDestQ] {
			continue
		}
		seen[m.DLHDestQMgr+"/"+m.DLHDestQ] = true
		if s := nearQueue(st, m.DLHDestQ, m.DLHDestQMgr, local); s != "" {
			out = append(out, s)
		}
	}
	return out
}

// nearQueue says which existing queues have a name near dest, a queue that
// did not exist: on destQM when it is watched, else on the local queue
// manager (the line names the one whose queues were searched).
func nearQueue(st *model.State, dest, destQM, local string) string {
	qm, dest := strings.TrimSpace(destQM), strings.TrimSpace(dest)
	if qm == "" || st.QMgrs[qm] == nil {
		qm = local
	}
	near := model.NearNames(dest, knownQueues(st, qm), 3)
	if dest == "" || len(near) == 0 {
		return ""
	}
	return fmt.Sprintf("%s has no %s (2085) but has %s", mqfmt.Sanitize(qm),
		mqfmt.Sanitize(dest), mqfmt.Sanitize(strings.Join(near, ", ")))
}

// targetHintLines go under the target input: the matching queue names, and
// near names for 2085 dead letters.
func (d *dialog) targetHintLines(c common) []string {
	st := c.Styles()
	var out []string
	if m := d.targetMatches(c); len(m) > 0 && strings.TrimSpace(d.typed.Value()) != "" {
		shown := m[:min(len(m), maxShownMatches)]
		more := ""
		if len(m) > len(shown) {
			more = fmt.Sprintf(" (+%d more)", len(m)-len(shown))
		}
		out = append(out, st.Muted.Render("   "+mqfmt.Sanitize(strings.Join(shown, "  "))+more))
	}
	for _, s := range nearQueues(c.State(), d.req.Messages, d.req.QMgr) {
		out = append(out, st.Warning.Render(" suggestion: "+s))
	}
	return append(out, d.createHintLines(c)...)
}

// confirmBindings are the confirmation's keys. While a queue is typed, tab
// completes it and the other switch keys move between Cancel and Run; a
// requeue can be sent to a chosen target; a move that would keep an MQDLH
// can become a requeue.
func (d *dialog) confirmBindings(c common, b func(string, ...string) key.Binding) []binding {
	if d.create != nil {
		return d.create.createBindings(c, func() { d.create = nil }, b)
	}
	if d.emptied != "" { // a colleague took every message: nothing to choose
		return []binding{bind(b("close", "esc", "enter"), func() tea.Cmd { return d.close(c) }, short)}
	}
	toggle := run(func() { d.onRun = !d.onRun })
	var out []binding
	if d.askQueue() {
		out = append(out,
			bind(b("complete the queue name", "tab"), run(func() { d.completeTarget(c) }), short),
			bind(b("switch Cancel/Run", "shift+tab", "left", "right"), toggle, short),
			bind(b("define the typed queue (LIKE the DEADQ) to park in", "ctrl+n"), run(func() { d.openCreate(c) }), short, offWhen(func() string { return d.createOff(c) })))
	} else {
		out = append(out, bind(b("switch Cancel/Run", "tab", "shift+tab", "left", "right"), toggle, short))
	}
	out = append(out,
		bind(b("choose", "enter"), func() tea.Cmd { return d.choose(c) }, short),
		d.escBinding(c, b))
	if d.req.Op == ops.OpRequeue && !d.askTarget {
		out = append(out, bind(b("requeue to another queue", "ctrl+t"), run(func() { d.chooseTarget(c) }), short))
	}
	out = append(out, d.yesKey(c, b)...)
	if !d.askTarget && d.dlhStays(c) > 0 {
		out = append(out, bind(b("requeue instead (strips the MQDLH)", "ctrl+r"), func() tea.Cmd { return d.requeueInstead(c) }, short))
	}
	return out
}

// escBinding: esc steps back one step, as it does everywhere. In a target
// input it leaves what was typed first (as it clears a filter before going
// back), then returns to the dry run the input was reopened over; anywhere
// else in the confirmation it cancels the dialog.
func (d *dialog) escBinding(c common, b func(string, ...string) key.Binding) binding {
	switch {
	case d.askTarget && d.typed.Value() != "":
		return bind(b("clear what is typed", "esc"), run(func() { d.clearTarget(c) }), short)
	case d.askTarget && d.retarget:
		return bind(b("back to the dry run", "esc"), run(func() { d.endRetarget(c) }), short)
	}
	return bind(b("cancel", "esc"), func() tea.Cmd { return d.close(c) }, short)
}

// escSays is what esc does now, for the input's hint line.
func (d *dialog) escSays(c common) string {
	switch {
	case d.askTarget && d.typed.Value() != "":
		return "esc clears what is typed"
	case d.askTarget && d.retarget:
		return "esc goes back to the dry run"
	}
	return "esc cancels"
}

// clearTarget empties the target input: enter then takes nothing (but the
// original queue, for a requeue).
func (d *dialog) clearTarget(c common) {
	d.typed.SetValue("")
	d.onRun = d.req.Op == ops.OpRequeue
}

// planHintLines follow the dry run: the MQDLH warning of a move, near-name
// suggestions for 2085 dead letters, and how to pick another target.
func (d *dialog) planHintLines(c common) []string {
	st := c.Styles()
	var out []string
	if n := d.dlhStays(c); n > 0 {
		out = append(out, st.Warning.Render(fmt.Sprintf(" %s message(s) carry an MQDLH and %s is not a dead-letter queue: a move keeps the header on them;",
			human(int64(n)), mqfmt.Sanitize(d.req.Target))),
			st.Warning.Render(" ctrl+r requeues to "+mqfmt.Sanitize(d.req.Target)+" instead, stripping the MQDLH"))
	}
	if d.req.Op == ops.OpRequeue {
		for _, s := range nearQueues(c.State(), d.req.Messages, d.req.QMgr) {
			out = append(out, st.Warning.Render(" suggestion: "+s+" (ctrl+t requeues there)"))
		}
		if d.req.Target == "" {
			out = append(out, st.Muted.Render(" ctrl+t requeues to another queue"))
		}
	}
	return out
}
