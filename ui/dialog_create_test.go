package ui

import (
	"errors"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	"github.com/poisonwatch/poisonwatch/actions/ops"
	"github.com/poisonwatch/poisonwatch/codec/mqfmt"
	"github.com/poisonwatch/poisonwatch/internal/doctext"
	"github.com/poisonwatch/poisonwatch/mqwatch"
)

// ctrlN presses ctrl+n and runs what it returns.
func ctrlN(a *App) {
	_, cmd := a.Update(tea.KeyMsg{Type: tea.KeyCtrlN})
	drain(a, cmd)
}

// openParkForm: a move of the first dead letter, PARK.Q typed as the
// target, ctrl+n.
func openParkForm(t *testing.T, a *App) *dialog {
	t.Helper()
	a.Update(snapshotMsg{snap: incidentWith()})
	pressKey(t, a, km.DeadQ, km.Enter, km.Mark, km.Move)
	d := a.actionDialog()
	if d == nil || !d.askTarget {
		t.Fatal("M did not ask for a target")
	}
	typeText(a, "PARK.Q")
	if v := ansi.Strip(a.View()); !strings.Contains(v, "no queue PARK.Q on QM1: ctrl+n defines it") {
		t.Fatalf("no hint that ctrl+n defines the queue:\n%s", v)
	}
	ctrlN(a)
	if d.create == nil {
		t.Fatalf("ctrl+n opened no form:\n%s", a.View())
	}
	return d
}

// TestR10h_ParkDefinesTheTargetThenTheMoveRuns: ctrl+n in the move's
// target input defines the typed queue LIKE the DEADQ with the MAXDEPTH
// typed; the dry run is shown again with the new queue, and Run moves there.
func TestR10h_ParkDefinesTheTargetThenTheMoveRuns(t *testing.T) {
	fake := &fixOps{fakeOps: fakeOps{msg: sampleMessage()}}
	a, src := newTestApp(t, 120, 35, Options{Ops: fake, User: "op1"})
	d := openParkForm(t, a)
	v := ansi.Strip(a.View())
	for _, want := range []string{"DEFINE PARK.Q on QM1: it does not exist", "LIKE: QM1.DEADQ", "MAXDEPTH: 50000",
		"DEFINE QLOCAL(PARK.Q) LIKE(QM1.DEADQ) MAXDEPTH(50000) NOTRIGGER", "sent as MQCMD_COPY_Q; needs +crt on queues (profile @class), +dsp on QM1.DEADQ",
		"copies QM1.DEADQ: MAXMSGL(4194304) DEFPSIST(NO) BOTHRESH(0)"} {
		if !strings.Contains(v, want) {
			t.Errorf("form lacks %q:\n%s", want, v)
		}
	}
	press(a, "tab")
	for range 5 {
		press(a, "backspace")
	}
	typeText(a, "2x0000") // the x is refused: MAXDEPTH takes digits
	press(a, "enter")
	if len(fake.plans) != 1 || fake.plans[0].Steps[0].MQSC != "DEFINE QLOCAL(PARK.Q) LIKE(QM1.DEADQ) MAXDEPTH(20000) NOTRIGGER" {
		t.Fatalf("sent %+v", fake.plans)
	}
	if d.create != nil || d.askTarget || d.req.Target != "PARK.Q" || d.phase != phaseConfirm {
		t.Fatalf("after the define: create=%v askTarget=%v target=%q phase=%v", d.create, d.askTarget, d.req.Target, d.phase)
	}
	if src.refresh == 0 {
		t.Error("no poll asked for after the define")
	}
	if v := ansi.Strip(a.View()); !strings.Contains(v, "defined: DEFINE QLOCAL(PARK.Q) LIKE(QM1.DEADQ) MAXDEPTH(20000)") || !strings.Contains(v, "[ Cancel ]") {
		t.Fatalf("the dry run is not shown again:\n%s", v)
	}
	// Parking keeps the MQDLH (reason and original destination): no
	// warning that it stays, no ctrl+r to strip it; nothing consumes the
	// new queue, so no check for messages coming back.
	if v := ansi.Strip(a.View()); strings.Contains(v, "carry an MQDLH") || strings.Contains(v, "ctrl+r") ||
		!strings.Contains(joinedText(v), "the MQDLH stays (their reason and original destination)") {
		t.Fatalf("the move to a new parking queue warns of its MQDLH:\n%s", v)
	}
	press(a, "y") // one message: y confirms, nothing to type
	if len(fake.runs) != 1 || fake.runs[0].Op != ops.OpMove || fake.runs[0].Target != "PARK.Q" || fake.runs[0].Verify != 0 {
		t.Fatalf("runs %+v", fake.runs)
	}
}

// TestR10h_ParkRefused: read-only (a war-room viewer's screen) turns ctrl+n
// off with the reason; a define the command server refuses (2035 without
// +crt, the viewer refused by the room's server, a queue defined meanwhile)
// keeps the form open with IBM's reason and moves nothing.
func TestR10h_ParkRefused(t *testing.T) {
	ops := &fixOps{fakeOps: fakeOps{msg: sampleMessage()}}
	a, _ := newTestApp(t, 120, 35, Options{Ops: ops})
	a.Update(snapshotMsg{snap: incidentWith()})
	pressKey(t, a, km.DeadQ, km.Enter, km.Mark, km.Move)
	typeText(a, "PARK.Q")
	a.opt.ReadOnly, a.opt.ReadOnlyWhy = true, "viewers cannot act: ask an operator"
	ctrlN(a)
	if d := a.actionDialog(); d.create != nil || !strings.Contains(a.View(), "viewers cannot act: ask an operator") {
		t.Fatalf("ctrl+n read-only: %v\n%s", d.create, a.View())
	}
	a.opt.ReadOnly = false
	for _, tc := range []struct {
		err  error
		want string
	}{
		{mqwatch.NewError("MQCMD_COPY_Q", "PARK.Q", mqfmt.RCNotAuthorized), "not defined: MQRC_NOT_AUTHORIZED (2035)"},
		{errors.New("viewers cannot change anything: ask the driver"), "not defined: viewers cannot change anything"},
		{mqwatch.NewError("MQCMD_COPY_Q", "PARK.Q", mqfmt.Reason(4001)), "not defined: MQRCCF_OBJECT_ALREADY_EXISTS"},
	} {
		ops.fail = tc.err
		ctrlN(a)
		press(a, "enter")
		d := a.actionDialog()
		if v := ansi.Strip(a.View()); d.create == nil || !strings.Contains(v, tc.want) {
			t.Errorf("%v: form closed or reason missing (%q):\n%s", tc.err, tc.want, v)
		}
		press(a, "esc")
		if d.create != nil || !d.askTarget || d.req.Target != "" || len(ops.runs) != 0 {
			t.Fatalf("esc after a refusal: %+v", d.req)
		}
	}
	// A queue that exists is picked with enter, not defined.
	press(a, "ctrl+u")
	typeText(a, "ORDERS.BO")
	ctrlN(a)
	if d := a.actionDialog(); d.create != nil || !strings.Contains(a.View(), "ORDERS.BO exists: enter picks it") {
		t.Fatalf("ctrl+n on an existing queue:\n%s", a.View())
	}
}

// TestParkScreens: the define form at 80x24 and 200x60.
func TestParkScreens(t *testing.T) {
	for _, size := range []struct{ w, h int }{{80, 24}, {200, 60}} {
		t.Run("park_define_"+itoa(size.w)+"x"+itoa(size.h), func(t *testing.T) {
			a, _ := newTestApp(t, size.w, size.h, Options{Ops: &fixOps{fakeOps: fakeOps{msg: sampleMessage()}}})
			openParkForm(t, a)
			v := a.View()
			checkFrame(t, v, size.w, size.h)
			golden(t, v)
		})
	}
}

// TestParkedMoveScreens: the dry run of a move to the queue just defined
// to park in keeps the MQDLH without a warning, says there is no
// come-back check, and takes y for one message.
func TestParkedMoveScreens(t *testing.T) {
	for _, size := range dialogSizes {
		t.Run(itoa(size.w)+"x"+itoa(size.h), func(t *testing.T) {
			a, _ := newTestApp(t, size.w, size.h, Options{Ops: &fixOps{fakeOps: fakeOps{msg: sampleMessage()}}})
			openParkForm(t, a)
			press(a, "enter")
			v := a.View()
			if j := joinedText(v); strings.Contains(j, "carry an MQDLH") || !strings.Contains(j, "the MQDLH stays (their reason and original destination)") ||
				!strings.Contains(j, "y confirms") {
				t.Fatalf("the parked move's dry run:\n%s", v)
			}
			checkFrame(t, v, size.w, size.h)
			golden(t, v)
		})
	}
}

// TestReadmeListsTheParkKey: ctrl+n is a dialog key, not in the KeyMap
// TestReadmeListsEveryKey walks, so it is checked here.
func TestReadmeListsTheParkKey(t *testing.T) {
	section, err := doctext.SectionExact("..", "Keys")
	if err != nil || !strings.Contains(section, "| `ctrl+n` in a target input |") {
		t.Fatalf("README Keys section lacks ctrl+n (%v)", err)
	}
}

// TestR10h_RulesDialogDefinesAMissingFWDQ: W warns when a group forwards
// to a queue that does not exist and ctrl+n defines it LIKE the DEADQ; in
// read-only mode the warning stays and ctrl+n says why it is off.
func TestR10h_RulesDialogDefinesAMissingFWDQ(t *testing.T) {
	ops := &fixOps{fakeOps: fakeOps{msg: sampleMessage()}}
	a, _ := newTestApp(t, 120, 35, Options{Ops: ops})
	a.Update(snapshotMsg{snap: incident(1, 300)})
	pressKey(t, a, km.DeadQ, km.WriteRules)
	press(a, "l", "right")
	typeText(a, "PARKING.Q")
	press(a, "enter")
	want := "FWDQ PARKING.Q does not exist on QM1: runmqdlq could not forward (2085); ctrl+n defines it"
	if v := ansi.Strip(a.View()); !strings.Contains(v, want) {
		t.Fatalf("no warning %q:\n%s", want, v)
	}
	ctrlN(a)
	if v := ansi.Strip(a.View()); !strings.Contains(v, "DEFINE QLOCAL(PARKING.Q) LIKE(QM1.DEADQ) MAXDEPTH(50000) NOTRIGGER") ||
		!strings.Contains(v, "then the table forwards to it") {
		t.Fatalf("no define form:\n%s", v)
	}
	press(a, "enter")
	if len(ops.plans) != 1 || ops.plans[0].Steps[0].MQSC != "DEFINE QLOCAL(PARKING.Q) LIKE(QM1.DEADQ) MAXDEPTH(50000) NOTRIGGER" {
		t.Fatalf("sent %+v", ops.plans)
	}
	v := ansi.Strip(a.View())
	if strings.Contains(v, "does not exist") || !strings.Contains(v, "ACTION(FWD) FWDQ('PARKING.Q')") {
		t.Fatalf("after the define:\n%s", v)
	}

	ro, _ := newTestApp(t, 120, 35, Options{Ops: ops, ReadOnly: true})
	ro.Update(snapshotMsg{snap: incident(1, 300)})
	pressKey(t, ro, km.DeadQ, km.WriteRules)
	press(ro, "l", "right")
	typeText(ro, "OTHER.Q")
	press(ro, "enter")
	ctrlN(ro)
	v = ansi.Strip(ro.View())
	if !strings.Contains(v, "FWDQ OTHER.Q does not exist on QM1: runmqdlq could not forward (2085)") || strings.Contains(v, "ctrl+n defines it") ||
		!strings.Contains(v, "read-only: queues cannot be defined") || len(ops.plans) != 1 {
		t.Fatalf("read-only:\n%s", v)
	}
}
