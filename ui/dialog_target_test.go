package ui

import (
	"sort"
	"strings"
	"testing"

	"github.com/poisonwatch/poisonwatch/actions/ops"
	"github.com/poisonwatch/poisonwatch/mqwatch"
)

// incidentWith is the incident with extra queues defined on QM1.
func incidentWith(names ...string) *mqwatch.Snapshot {
	s := incident(1, 30)
	for _, n := range names {
		s.Queues = append(s.Queues, view(n, 0, 5000, 0, "", mqwatch.RoleInput, 0))
	}
	sort.Slice(s.Queues, func(i, j int) bool { return s.Queues[i].Info.Name < s.Queues[j].Info.Name })
	return s
}

// TestDialogRequeueToChosenTarget: ctrl+t in a requeue's confirmation asks
// for a target; tab completes from the queues the watcher knows, the matches
// show under the input, and the request carries the chosen target (the
// engine then strips the MQDLH as --to does).
func TestDialogRequeueToChosenTarget(t *testing.T) {
	fake := &fakeOps{msg: sampleMessage()}
	a, _ := newTestApp(t, 120, 35, Options{Ops: fake})
	a.Update(snapshotMsg{snap: incidentWith()})
	pressKey(t, a, km.DeadQ, km.Enter, km.Mark, km.Requeue)
	press(a, "ctrl+t")
	d := a.actionDialog()
	if d == nil || !d.askTarget {
		t.Fatal("ctrl+t did not ask for a target")
	}
	press(a, "o", "r", "d")
	if v := a.View(); !strings.Contains(v, "ORDERS.BO  ORDERS.IN") {
		t.Fatalf("matching names not shown under the input:\n%s", v)
	}
	press(a, "tab")
	if got := d.typed.Value(); got != "ORDERS." {
		t.Fatalf("tab completed to %q, want the common prefix ORDERS.", got)
	}
	press(a, "I", "tab")
	if got := d.typed.Value(); got != "ORDERS.IN" {
		t.Fatalf("tab completed to %q, want ORDERS.IN", got)
	}
	press(a, "enter")
	if d.askTarget || d.req.Target != "ORDERS.IN" || d.req.Op != ops.OpRequeue {
		t.Fatalf("after enter: askTarget=%v req=%+v", d.askTarget, d.req)
	}
	press(a, "tab", "enter")
	if len(fake.runs) != 1 || fake.runs[0].Op != ops.OpRequeue || fake.runs[0].Target != "ORDERS.IN" || fake.runs[0].TargetQMgr != "" {
		t.Fatalf("runs = %+v", fake.runs)
	}
}

// TestDialogRequeueTargetOtherQMgr: QUEUE@QMGR names the target's queue
// manager, as --to-qmgr does; an empty answer keeps the original queue.
func TestDialogRequeueTargetOtherQMgr(t *testing.T) {
	ops := &fakeOps{msg: sampleMessage()}
	a, _ := newTestApp(t, 120, 35, Options{Ops: ops})
	a.Update(snapshotMsg{snap: incidentWith()})
	pressKey(t, a, km.DeadQ, km.Enter, km.Mark, km.Requeue)
	press(a, "ctrl+t", "INVOICES.IN@QM2", "enter")
	if r := a.actionDialog().req; r.Target != "INVOICES.IN" || r.TargetQMgr != "QM2" {
		t.Fatalf("req target = %q@%q", r.Target, r.TargetQMgr)
	}
	press(a, "ctrl+t")
	for range len("INVOICES.IN@QM2") {
		press(a, "backspace")
	}
	press(a, "enter")
	if r := a.actionDialog().req; r.Target != "" || r.TargetQMgr != "" || a.actionDialog().askTarget {
		t.Fatalf("empty answer: req target = %q@%q askTarget=%v", r.Target, r.TargetQMgr, a.actionDialog().askTarget)
	}
}

// TestDialog2085SuggestsNearQueue: dead letters for a queue that does not
// exist (2085) get the existing queues with a near name suggested.
func TestDialog2085SuggestsNearQueue(t *testing.T) {
	a, _ := newTestApp(t, 140, 35, Options{Ops: &fakeOps{msg: sampleMessage()}})
	a.Update(snapshotMsg{snap: incidentWith("INVOICES.IN")})
	pressKey(t, a, km.DeadQ, km.Enter, km.Mark, km.Requeue)
	v := a.View()
	if !strings.Contains(v, "QM1 has no INVOICE.IN (2085) but has INVOICES.IN") {
		t.Fatalf("no near-name suggestion in the requeue dialog:\n%s", v)
	}
	press(a, "ctrl+t")
	if !strings.Contains(a.View(), "but has INVOICES.IN") {
		t.Fatalf("no suggestion under the target input:\n%s", a.View())
	}
}

// TestDialogMoveKeepsDLHWarns: moving messages with an MQDLH onto a queue
// that is not a DEADQ warns that the header stays and offers requeue on
// ctrl+r; onto the DEADQ it does not warn.
func TestDialogMoveKeepsDLHWarns(t *testing.T) {
	fake := &fakeOps{msg: sampleMessage()}
	a, _ := newTestApp(t, 140, 35, Options{Ops: fake})
	a.Update(snapshotMsg{snap: incidentWith()})
	pressKey(t, a, km.DeadQ, km.Enter, km.Mark, km.Move)
	press(a, "ORDERS.IN", "enter")
	v := a.View()
	if !strings.Contains(v, "carry an MQDLH and ORDERS.IN is not a dead-letter queue") || !strings.Contains(v, "ctrl+r requeues to ORDERS.IN") {
		t.Fatalf("no MQDLH warning on a move to an input queue:\n%s", v)
	}
	press(a, "ctrl+r")
	if r := a.actionDialog().req; r.Op != ops.OpRequeue || r.Target != "ORDERS.IN" {
		t.Fatalf("ctrl+r: req = %+v", r)
	}
	press(a, "y") // one message: y confirms the requeue
	if len(fake.runs) != 1 || fake.runs[0].Op != ops.OpRequeue || fake.runs[0].Target != "ORDERS.IN" {
		t.Fatalf("runs = %+v", fake.runs)
	}

	press(a, "esc")
	pressKey(t, a, km.Mark, km.Move)
	press(a, "QM1.DEADQ", "enter")
	if v := a.View(); strings.Contains(v, "carry an MQDLH") || strings.Contains(v, "ctrl+r") {
		t.Fatalf("a move onto the DEADQ warns:\n%s", v)
	}
}

// TestTriage2085GroupSuggestsNearQueue: the 2085 group's detail line names
// the existing queue with a near name.
func TestTriage2085GroupSuggestsNearQueue(t *testing.T) {
	a, _ := newTestApp(t, 200, 35, Options{})
	a.Update(snapshotMsg{snap: incidentWith("INVOICES.IN")})
	pressKey(t, a, km.DeadQ)
	if v := a.View(); !strings.Contains(v, "QM1 has no INVOICE.IN (2085) but has INVOICES.IN") {
		t.Fatalf("no suggestion on the 2085 group:\n%s", v)
	}
}

// TestDialogEscInTargetReturnsToDryRun: esc in the target input reopened
// over a dry run steps back one step at a time: it clears what was typed,
// then goes back to that result with its target unchanged; the next esc
// pops the dialog to exactly the screen it was opened from.
func TestDialogEscInTargetReturnsToDryRun(t *testing.T) {
	ops := &fakeOps{msg: sampleMessage()}
	a, _ := newTestApp(t, 120, 35, Options{Ops: ops})
	a.Update(snapshotMsg{snap: incidentWith()})
	pressKey(t, a, km.DeadQ, km.Enter, km.Mark, km.Requeue)
	crumbs := strings.Join(a.crumbs(), " › ")
	d := a.actionDialog()
	plan := d.plan.Summary
	press(a, "ctrl+t", "o", "r", "d", "esc")
	if a.actionDialog() != d || !d.askTarget || d.typed.Value() != "" || !strings.Contains(a.View(), "esc goes back to the dry run") {
		t.Fatalf("first esc: dialog %v, askTarget %v, typed %q; want the input left empty, still open:\n%s",
			a.actionDialog() == d, d.askTarget, d.typed.Value(), a.View())
	}
	press(a, "esc")
	switch {
	case a.actionDialog() != d:
		t.Fatal("esc in the target input closed the dialog")
	case d.askTarget || d.phase != phaseConfirm || d.req.Target != "" || d.plan.Summary != plan:
		t.Fatalf("after esc: askTarget=%v phase=%v target=%q plan %q (was %q)", d.askTarget, d.phase, d.req.Target, d.plan.Summary, plan)
	case !strings.Contains(a.View(), plan[:30]) || strings.Contains(a.View(), "target queue"):
		t.Fatalf("the dry run's result is not back on screen:\n%s", a.View())
	}
	press(a, "esc")
	if a.actionDialog() != nil || strings.Join(a.crumbs(), " › ")+" › requeue" != crumbs {
		t.Fatalf("third esc: dialog %v, crumbs %q (dialog was %q)", a.actionDialog() != nil, a.crumbs(), crumbs)
	}
	if len(ops.runs) != 0 {
		t.Fatalf("esc ran something: %+v", ops.runs)
	}
}

// TestDialogEscInNewTargetStepsBack: in a move's target input, esc leaves
// what was typed first; only an empty input's esc closes the dialog.
func TestDialogEscInNewTargetStepsBack(t *testing.T) {
	a, _ := newTestApp(t, 120, 35, Options{Ops: &fakeOps{msg: sampleMessage()}})
	a.Update(snapshotMsg{snap: incidentWith()})
	press(a, "d", "enter", "space", "M", "O", "R", "D")
	d := a.actionDialog()
	if d == nil || d.typed.Value() != "ORD" {
		t.Fatalf("M did not open a target input with ORD typed:\n%s", a.View())
	}
	press(a, "esc")
	if a.actionDialog() != d || d.typed.Value() != "" || !d.askTarget || d.onRun {
		t.Fatalf("first esc: dialog %v, typed %q, askTarget %v, onRun %v; want the input cleared, the dialog open on Cancel",
			a.actionDialog() == d, d.typed.Value(), d.askTarget, d.onRun)
	}
	press(a, "esc")
	if a.actionDialog() != nil {
		t.Fatal("esc in an empty target input did not close the dialog")
	}
}

// TestR10h_TargetNamesAreNotFolded: IBM MQ names are case-sensitive, so the
// queue typed (a parking queue ctrl+n defines included) is the queue named.
func TestR10h_TargetNamesAreNotFolded(t *testing.T) {
	for _, tc := range []struct{ in, q, qm string }{
		{"orders.lc", "orders.lc", ""},
		{" park.q@QM1 ", "park.q", "QM1"},
		{"ORDERS.IN@qm2", "ORDERS.IN", "qm2"},
	} {
		if q, qm := splitTarget(tc.in); q != tc.q || qm != tc.qm {
			t.Errorf("splitTarget(%q) = %q@%q, want %q@%q", tc.in, q, qm, tc.q, tc.qm)
		}
	}
}
