package ui

import (
	"context"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/poisonwatch/poisonwatch/actions"
	"github.com/poisonwatch/poisonwatch/actions/ops"
	"github.com/poisonwatch/poisonwatch/codec/mqfmt"
	"github.com/poisonwatch/poisonwatch/mqwatch"
)

// fixOps is fakeOps that also applies fixes, recording what it was sent.
type fixOps struct {
	fakeOps
	plans    []actions.FixPlan
	inhibits []string
	fail     error
}

func (o *fixOps) ApplyFix(_ context.Context, _ string, p actions.FixPlan, user string) (ops.FixResult, error) {
	o.plans = append(o.plans, p)
	res := ops.FixResult{Plan: p, Op: ops.OpFix, User: user}
	for _, s := range p.Steps {
		var before, after []string
		for _, d := range s.Diff {
			before, after = append(before, d.Keyword+"("+d.Before+")"), append(after, d.Keyword+"("+d.After+")")
		}
		res.Steps = append(res.Steps, ops.FixStepResult{MQSC: s.MQSC, Applied: o.fail == nil,
			Before: strings.Join(before, " "), After: strings.Join(after, " ")})
		if o.fail != nil {
			res.Steps[len(res.Steps)-1].Reason, res.Steps[len(res.Steps)-1].Error = int32(mqwatch.ReasonOf(o.fail)), ops.DescribeReason(o.fail)
			break
		}
	}
	return res, o.fail
}

func (o *fixOps) SetInhibit(_ context.Context, qm string, q mqwatch.QueueInfo, attr string, disable bool, user string) (ops.FixResult, error) {
	v, was := "ENABLED", "DISABLED"
	if disable {
		v, was = was, v
	}
	o.inhibits = append(o.inhibits, q.Name+" "+attr+"("+v+")")
	mqsc := "ALTER QLOCAL(" + q.Name + ") " + attr + "(" + v + ")"
	p := actions.PlanFix(actions.FixInput{QMgr: mqwatch.QMgrInfo{Name: qm}, Queues: []mqwatch.QueueInfo{q}, ID: attr + ":" + q.Name, Commands: []string{mqsc}})
	return ops.FixResult{Plan: p, Op: ops.OpInhibit, User: user,
		Steps: []ops.FixStepResult{{MQSC: mqsc, Applied: true, Before: attr + "(" + was + ")", After: attr + "(" + v + ")"}}}, o.fail
}

// fixedIncident is the incident after the R1c fix: ORDERS.IN has BOTHRESH
// and a BOQ with room.
func fixedIncident(seq uint64) *mqwatch.Snapshot {
	s := incident(seq, 30)
	s.Queues[0].Info.MaxDepth = 5000
	s.Queues[1].Info.BackoutThresh, s.Queues[1].Info.BackoutQName = 3, "ORDERS.BO"
	return s
}

// TestR1c_FixDialogAppliesInOrderAndChecksTheAlertClears: x on the R1c
// alert shows the BOQ's room first; enter on Cancel (focused first) sends
// nothing; tab, enter applies both in order; the next poll clears it.
func TestR1c_FixDialogAppliesInOrderAndChecksTheAlertClears(t *testing.T) {
	ops := &fixOps{fakeOps: fakeOps{msg: sampleMessage()}}
	a, src := newTestApp(t, 120, 40, Options{Ops: ops, User: "op1"})
	a.Update(snapshotMsg{snap: incident(1, 30)})
	pressKey(t, a, km.Alerts, km.Down, km.Fix)
	v := ansi.Strip(a.View())
	for _, want := range []string{"FIX R1c:ORDERS.IN", "first: ALTER QLOCAL(ORDERS.BO) MAXDEPTH(5000)", "fixes R8b ORDERS.BO: full, 100 of MAXDEPTH 100",
		"then:  ALTER QLOCAL(ORDERS.IN) BOTHRESH(3) BOQNAME(ORDERS.BO)", "+chg on queue ORDERS.BO", "restart the 4 consumer(s) of ORDERS.IN"} {
		if !strings.Contains(v, want) {
			t.Errorf("dialog lacks %q:\n%s", want, v)
		}
	}
	press(a, "enter")
	if len(ops.plans) != 0 || strings.Contains(a.View(), "FIX R1c") {
		t.Fatal("enter on Cancel applied the fix or left the dialog open")
	}
	pressKey(t, a, km.Fix)
	press(a, "tab", "enter")
	if len(ops.plans) != 1 || len(ops.plans[0].Steps) != 2 || ops.plans[0].Steps[0].MQSC != "ALTER QLOCAL(ORDERS.BO) MAXDEPTH(5000)" {
		t.Fatalf("sent %+v", ops.plans)
	}
	if src.refresh == 0 {
		t.Error("no poll asked for after the fix")
	}
	if v := a.View(); !strings.Contains(v, "watching the next polls for R1c:ORDERS.IN to clear (0/3)") {
		t.Fatalf("not verifying:\n%s", v)
	}
	a.Update(snapshotMsg{snap: fixedIncident(2)})
	if v := a.View(); !strings.Contains(v, "R1c ORDERS.IN cleared") {
		t.Fatalf("not cleared:\n%s", v)
	}
}

// TestR8b_FixDialogSaysStillFiringAfterThreePolls: a fix whose alert
// persists over the polls says so; a refused one says why, with the reason.
func TestR8b_FixDialogSaysStillFiringAfterThreePolls(t *testing.T) {
	ops := &fixOps{fakeOps: fakeOps{msg: sampleMessage()}}
	a, _ := newTestApp(t, 120, 40, Options{Ops: ops})
	a.Update(snapshotMsg{snap: incident(1, 30)})
	pressKey(t, a, km.Alerts, km.Fix)
	press(a, "tab", "enter")
	for seq := uint64(2); seq <= 4; seq++ {
		a.Update(snapshotMsg{snap: incident(seq, 30)})
	}
	if v := a.View(); !strings.Contains(v, "still firing: R8b:ORDERS.BO") {
		t.Fatalf("%s", v)
	}
	ops.fail = mqwatch.NewError("MQCMD_CHANGE_Q", "ORDERS.BO", mqfmt.RCNotAuthorized)
	pressKey(t, a, km.Back, km.Fix)
	press(a, "tab", "enter")
	if v := a.View(); !strings.Contains(v, "not applied: MQRC_NOT_AUTHORIZED (2035)") || !strings.Contains(v, "✗") {
		t.Fatalf("%s", v)
	}
}

// TestFixRefusedReadOnlyAndForViewers: x is off in read-only mode and for a
// war-room viewer, with the reason flashed; no dialog opens.
func TestFixRefusedReadOnlyAndForViewers(t *testing.T) {
	for _, o := range []Options{{ReadOnly: true}, {ReadOnly: true, ReadOnlyWhy: "viewers cannot act: ask an operator"}} {
		ops := &fixOps{fakeOps: fakeOps{msg: sampleMessage()}}
		o.Ops = ops
		a, _ := newTestApp(t, 120, 40, o)
		a.Update(snapshotMsg{snap: incident(1, 30)})
		pressKey(t, a, km.Alerts, km.Fix)
		if _, open := a.top().(*fixDialog); open || len(ops.plans) != 0 {
			t.Fatal("a fix dialog opened read-only")
		}
		want := cmpOr(o.ReadOnlyWhy, "read-only: fixes are off")
		if !strings.Contains(a.View(), want) {
			t.Errorf("flash lacks %q:\n%s", want, a.View())
		}
	}
}

// TestFixDialogScreens: the dialog at 80x24 and 200x60, before and after.
func TestFixDialogScreens(t *testing.T) {
	for _, size := range []struct{ w, h int }{{80, 24}, {200, 60}} {
		for _, tc := range []struct {
			name string
			keys []string
			snap bool
		}{
			{"fix_confirm", []string{"a", "j", "x"}, false},
			{"fix_cleared", []string{"a", "j", "x", "tab", "enter"}, true},
		} {
			t.Run(tc.name+"_"+itoa(size.w)+"x"+itoa(size.h), func(t *testing.T) {
				a, _ := newTestApp(t, size.w, size.h, Options{Ops: &fixOps{fakeOps: fakeOps{msg: sampleMessage()}}})
				a.Update(snapshotMsg{snap: incident(1, 300)})
				press(a, tc.keys...)
				if tc.snap {
					a.Update(snapshotMsg{snap: fixedIncident(2)})
				}
				v := a.View()
				checkFrame(t, v, size.w, size.h)
				golden(t, v)
			})
		}
	}
}

// TestR8b_FixCheckGoesOnAfterTheDialogCloses: esc while the dialog watches
// the polls does not lose the answer: the flash says it.
func TestR8b_FixCheckGoesOnAfterTheDialogCloses(t *testing.T) {
	ops := &fixOps{fakeOps: fakeOps{msg: sampleMessage()}}
	a, _ := newTestApp(t, 120, 40, Options{Ops: ops})
	a.Update(snapshotMsg{snap: incident(1, 30)})
	pressKey(t, a, km.Alerts, km.Down, km.Fix)
	press(a, "tab", "enter", "esc")
	if _, open := a.top().(*fixDialog); open {
		t.Fatal("esc left the dialog open")
	}
	a.Update(snapshotMsg{snap: fixedIncident(2)})
	if v := a.View(); !strings.Contains(v, "R1c ORDERS.IN cleared") {
		t.Fatalf("no flash after the dialog closed:\n%s", v)
	}
}

// planningFixOps answers the change gate's dry run: the first step would
// be refused for want of authority.
type planningFixOps struct{ fixOps }

func (o *planningFixOps) PlanFix(_ context.Context, _ string, p actions.FixPlan, _ string) (ops.FixResult, error) {
	res := ops.FixResult{Plan: p, DryRun: true}
	for i, s := range p.Steps {
		r := ops.FixStepResult{MQSC: s.MQSC, Prediction: "would apply"}
		if i == 0 {
			r.Predicted, r.Prediction = int32(mqfmt.RCNotAuthorized), "MQRC_NOT_AUTHORIZED (2035): op1 lacks +chg on ORDERS.BO"
		}
		res.Steps = append(res.Steps, r)
	}
	return res, nil
}

// TestR10h_FixDialogShowsTheChangeGatesDryRun: x asks the change gate what
// the command server would answer before Apply, and shows it per step.
func TestR10h_FixDialogShowsTheChangeGatesDryRun(t *testing.T) {
	o := &planningFixOps{fixOps{fakeOps: fakeOps{msg: sampleMessage()}}}
	a, _ := newTestApp(t, 120, 40, Options{Ops: o, User: "op1"})
	a.Update(snapshotMsg{snap: incident(1, 30)})
	pressKey(t, a, km.Alerts, km.Down, km.Fix)
	v := ansi.Strip(a.View())
	for _, want := range []string{"dry run: MQRC_NOT_AUTHORIZED (2035): op1 lacks +chg on ORDERS.BO", "dry run: would apply"} {
		if !strings.Contains(v, want) {
			t.Errorf("dialog lacks %q:\n%s", want, v)
		}
	}
	if len(o.plans) != 0 {
		t.Fatalf("the dry run sent %d plans", len(o.plans))
	}
}
