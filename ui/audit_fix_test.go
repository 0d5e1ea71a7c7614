package ui

import (
	"fmt"
	"strings"
	"testing"

	"github.com/poisonwatch/poisonwatch/incident/journal"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/exp/teatest"

	"github.com/poisonwatch/poisonwatch/actions"
	"github.com/poisonwatch/poisonwatch/actions/ops"
	"github.com/poisonwatch/poisonwatch/mqwatch"
)

// startFixFlow is startFlow with an engine that also applies fixes and
// inhibits, at the given size.
func startFixFlow(t *testing.T, w, h int, o Options) (*flow, *fixOps) {
	t.Helper()
	ops := &fixOps{fakeOps: fakeOps{msg: sampleMessage()}}
	o.Ops = ops
	a, src := newTestApp(t, w, h, o)
	src.ch = make(chan *mqwatch.Snapshot)
	tm := teatest.NewTestModel(t, a, teatest.WithInitialTermSize(w, h))
	f := &flow{t: t, tm: tm, src: src, ops: &ops.fakeOps}
	t.Cleanup(func() {
		_ = tm.Quit()
		tm.WaitFinished(t, teatest.WithFinalTimeout(flowWait))
		close(src.ch)
	})
	return f, ops
}

// TestR10h_FlowFixAndInhibitInTheAuditView: on the incident, x applies the
// R8b fix and I stops gets on the looping ORDERS.IN; the session's audit
// view (A) lists both beside the message operations, with who, when and
// each change before → after, and enter shows a fix's steps with the
// queue manager's PCF answer.
func TestR10h_FlowFixAndInhibitInTheAuditView(t *testing.T) {
	for _, size := range [][2]int{{80, 24}, {200, 60}} {
		t.Run(fmt.Sprintf("%dx%d", size[0], size[1]), func(t *testing.T) {
			f, fake := startFixFlow(t, size[0], size[1], Options{User: "op1"})
			f.feed(incident(1, 30))
			f.waitFor("QM1.DEADQ")
			f.keys("a", "x", "tab", "enter")
			f.waitFor("R8b:ORDERS.BO to clear")
			f.keys("esc", "esc", "j", "I", "tab", "enter")
			f.waitFor("GET OFF on ORDERS.IN by op1")
			f.keys("esc", "A")
			f.waitFor("Audit: 2 acts")
			f.tm.Send(tea.WindowSizeMsg{Width: size[0], Height: size[1]})
			f.keys("down", "enter")
			f.waitFor("sent as PCF")
			a := f.quit()
			if len(fake.plans) != 1 || len(fake.inhibits) != 1 {
				t.Fatalf("sent %d fixes, %v inhibits", len(fake.plans), fake.inhibits)
			}
			acts := journal.Acts(a.sess.journal.Entries())
			if len(acts) != 2 {
				t.Fatalf("%d acts in the audit view, want the fix and the inhibit", len(acts))
			}
			fx, in := acts[0], acts[1]
			if in.Kind != journal.Inhibit || in.Who() != "op1" || in.Queue != "ORDERS.IN" || in.QMgr != "QM1" ||
				stepChange(in.Steps[0]) != "GET(ENABLED→DISABLED)" {
				t.Errorf("inhibit: %s by %s on %s/%s: %+v", in.Kind, in.Who(), in.QMgr, in.Queue, in.Steps)
			}
			if fx.Kind != journal.Fix || fx.Queue != "ORDERS.BO" || stepChange(fx.Steps[0]) != "MAXDEPTH(100→5000)" {
				t.Errorf("fix: %s on %s: %+v", fx.Kind, fx.Queue, fx.Steps)
			}
			v := a.View()
			checkFrame(t, v, size[0], size[1])
			golden(t, v)
			a.Pop()
			list := a.View()
			checkFrame(t, list, size[0], size[1])
			for _, want := range []string{"inhibit", "GET(ENABLED→DISABLED)", "fix", "MAXDEPTH(100→5000)", "ORDERS.IN", "ORDERS.BO"} {
				if !strings.Contains(list, want) {
					t.Errorf("the audit view lacks %q:\n%s", want, list)
				}
			}
			t.Run("list", func(t *testing.T) { golden(t, list) })
		})
	}
}

// TestAuditFixShowsARefusalWithItsReason: a fix the queue manager refused
// is listed as failed with IBM's reason, and a change that stopped a
// plan says the later steps were not sent.
func TestAuditFixShowsARefusalWithItsReason(t *testing.T) {
	ops := &fixOps{fakeOps: fakeOps{msg: sampleMessage()}}
	a, _ := newTestApp(t, 120, 35, Options{Ops: ops, User: "op1"})
	a.Update(snapshotMsg{snap: incident(1, 30)})
	ops.fail = mqwatch.NewError("MQCMD_CHANGE_Q", "ORDERS.BO", 2035)
	press(a, "a", "x", "tab", "enter", "esc", "A")
	v := a.View()
	if !strings.Contains(v, "✗ MQRC_NOT_AUTHORIZED (2035)") || !strings.Contains(v, "enter: its messages or changes") {
		t.Fatalf("the refused fix is not listed with its reason:\n%s", v)
	}
	press(a, "enter")
	if v := a.View(); !strings.Contains(v, "MQRC_NOT_AUTHORIZED (2035)") || !strings.Contains(v, "MQSC: ALTER QLOCAL(ORDERS.BO) MAXDEPTH(5000)") {
		t.Fatalf("the fix's steps:\n%s", v)
	}
}

func TestStepChangeWritesEachAttributeOnce(t *testing.T) {
	for _, tc := range []struct {
		step journal.Step
		want string
	}{
		{journal.Step{Before: "MAXDEPTH(100)", After: "MAXDEPTH(5000)"}, "MAXDEPTH(100→5000)"},
		{journal.Step{Before: "BOTHRESH(0) BOQNAME((blank))", After: "BOTHRESH(3) BOQNAME(ORDERS.BO)"}, "BOTHRESH(0→3) BOQNAME((blank)→ORDERS.BO)"},
		{journal.Step{MQSC: "DEFINE QLOCAL(PARK) LIKE(QM1.DEADQ) MAXDEPTH(5000)"}, "DEFINE QLOCAL(PARK) LIKE(QM1.DEADQ) MAXDEPTH(5000)"},
	} {
		if got := stepChange(tc.step); got != tc.want {
			t.Errorf("stepChange(%+v) = %q, want %q", tc.step, got, tc.want)
		}
	}
}

// TestRoomMembersFixesReachEveryonesAuditView: in the war room, a fix
// another member applied is listed in this session's audit view, as their
// message operations are.
func TestRoomMembersFixesReachEveryonesAuditView(t *testing.T) {
	j := journal.New()
	room := newFakeRoom()
	a, _ := newTestApp(t, 120, 35, Options{Room: room, WarRoom: true, Journal: j})
	a.Update(snapshotMsg{snap: incident(1, 40)})
	a.Update(roomMsg{st: RoomState{Self: 2, Members: []Member{alice, bob}}, ok: true})
	fix := ops.FixResult{Op: ops.OpInhibit, User: "alice (ssh key SHA256:x)",
		Plan:  actions.PlanFix(actions.FixInput{QMgr: mqwatch.QMgrInfo{Name: "QM1"}, ID: "GET:ORDERS.IN", Commands: []string{"ALTER QLOCAL(ORDERS.IN) GET(DISABLED)"}}),
		Steps: []ops.FixStepResult{{MQSC: "ALTER QLOCAL(ORDERS.IN) GET(DISABLED)", Applied: true, Before: "GET(ENABLED)", After: "GET(DISABLED)"}}}
	j.Append(ops.FixEntry(&fix, clock)) // alice's engine writes it to the room's journal
	press(a, "A")
	v := a.View()
	for _, want := range []string{"Audit: 1 act in this room", "inhibit", "alice", "ORDERS.IN", "GET(ENABLED→DISABLED)"} {
		if !strings.Contains(v, want) {
			t.Errorf("the audit view lacks %q:\n%s", want, v)
		}
	}
	if strings.Contains(v, "ssh key") {
		t.Errorf("the audit view names the key, not the person:\n%s", v)
	}
}
