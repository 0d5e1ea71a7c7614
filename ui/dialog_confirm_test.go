package ui

import (
	"context"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	"github.com/poisonwatch/poisonwatch/actions/ops"
)

// dialogSizes are the sizes the dialog goldens are rendered at: usable at
// 80x24, and the size the tries were made at.
var dialogSizes = []struct{ w, h int }{{80, 24}, {120, 35}}

// TestR10f_DialogSaysWhyCancelKeepsTheFocus: the count typed while messages
// would come back leaves Cancel focused, and the dialog says why (enter
// would otherwise close it with no word); letters are not typed into the
// count; every cancel flashes that nothing changed.
func TestR10f_DialogSaysWhyCancelKeepsTheFocus(t *testing.T) {
	for _, size := range dialogSizes {
		t.Run(itoa(size.w)+"x"+itoa(size.h), func(t *testing.T) {
			fake := &fakeOps{msg: sampleMessage(), comeBack: 2}
			a, _ := newTestApp(t, size.w, size.h, Options{Ops: fake})
			a.Update(snapshotMsg{snap: incident(1, 300)})
			pressKey(t, a, km.DeadQ, km.Enter, km.Mark, km.Mark, km.Mark, km.Requeue)
			d := a.actionDialog()
			press(a, "3", "x")
			if d.typed.Value() != "3" || !strings.Contains(a.View(), "the count is typed in digits: 3") {
				t.Fatalf("count input %q after 3 then x:\n%s", d.typed.Value(), a.View())
			}
			if d.onRun || !strings.Contains(joinedText(a.View()), "Cancel keeps the focus: 2 message(s) would come back (R10f), so enter does not run") {
				t.Fatalf("the dialog does not say why Cancel keeps the focus:\n%s", a.View())
			}
			golden(t, a.View())
			press(a, "enter")
			if a.actionDialog() != nil || len(fake.runs) != 0 || !strings.Contains(a.View(), "cancelled: nothing changed") {
				t.Fatalf("enter on Cancel: dialog %v, runs %d:\n%s", a.actionDialog() != nil, len(fake.runs), a.View())
			}
		})
	}
}

// TestDialogEscFlashesCancelled: esc in the confirmation says so too.
func TestDialogEscFlashesCancelled(t *testing.T) {
	a, _ := newTestApp(t, 120, 35, Options{Ops: &fakeOps{msg: sampleMessage()}})
	a.Update(snapshotMsg{snap: incident(1, 300)})
	pressKey(t, a, km.DeadQ, km.Enter, km.Requeue)
	press(a, "esc")
	if a.actionDialog() != nil || !strings.Contains(a.View(), "cancelled: nothing changed") {
		t.Fatalf("esc did not cancel with a word:\n%s", a.View())
	}
}

// TestOneMessageConfirmsWithY: a discard of one message (which needs its
// count confirmed) takes y, not a typed 1; y runs it.
func TestOneMessageConfirmsWithY(t *testing.T) {
	for _, size := range dialogSizes {
		t.Run(itoa(size.w)+"x"+itoa(size.h), func(t *testing.T) {
			fake := &fakeOps{msg: sampleMessage()}
			a, _ := newTestApp(t, size.w, size.h, Options{Ops: fake})
			a.Update(snapshotMsg{snap: incident(1, 300)})
			pressKey(t, a, km.DeadQ, km.Enter, km.Discard)
			v := a.View()
			if strings.Contains(v, "count:") || !strings.Contains(v, "y confirms: one message, nothing to type") {
				t.Fatalf("a one-message discard asks for a count:\n%s", v)
			}
			golden(t, v)
			press(a, "1", "enter")
			if len(fake.runs) != 0 {
				t.Fatal("1 then enter on Cancel ran the discard")
			}
			pressKey(t, a, km.DeadQ, km.Enter, km.Discard)
			press(a, "y")
			if len(fake.runs) != 1 || fake.runs[0].Op != ops.OpDiscard {
				t.Fatalf("y did not run the discard: %+v\n%s", fake.runs, a.View())
			}
		})
	}
}

// blockingOps moves every message at once, then holds the run where the
// engine checks for messages coming back, until the test releases it.
type blockingOps struct {
	*fakeOps
	release chan struct{}
}

func (o *blockingOps) Run(ctx context.Context, r ops.OpRequest, progress func(ops.OpProgress)) (ops.OpResult, error) {
	progress(ops.OpProgress{Done: len(r.Messages), Total: len(r.Messages)})
	<-o.release
	o.fakeOps.comeBack = 0
	return o.fakeOps.Run(ctx, r, func(ops.OpProgress) {})
}

// TestR10f_CheckKeepsTheDashboardLive: while the engine checks whether the
// requeued messages come back (30 s), polls are folded (the picture is not
// frozen) and the dialog shows the check's progress; its footer says what
// esc does then, as its body does.
func TestR10f_CheckKeepsTheDashboardLive(t *testing.T) {
	for _, size := range dialogSizes {
		t.Run(itoa(size.w)+"x"+itoa(size.h), func(t *testing.T) {
			bo := &blockingOps{fakeOps: &fakeOps{msg: sampleMessage()}, release: make(chan struct{})}
			a, _ := newTestApp(t, size.w, size.h, Options{Ops: bo})
			a.Update(snapshotMsg{snap: incident(1, 300)})
			pressKey(t, a, km.DeadQ, km.Enter, km.Mark, km.Mark, km.Requeue)
			press(a, "2")
			a.Update(snapshotMsg{snap: incident(2, 301)}) // held: the operator reads the dry run
			if a.state.QMgr("QM1").Snap.Seq != 1 {
				t.Fatal("a poll was folded under the dry run")
			}
			_, cmd := a.Update(keyMsg("enter"))
			batch, ok := cmd().(tea.BatchMsg)
			if !ok || len(batch) != 2 {
				t.Fatalf("enter on Run: %T", cmd())
			}
			done := make(chan tea.Msg, 1)
			go func() { done <- batch[0]() }() // the run: moves, then the check
			a.Update(batch[1]())               // its progress: all moved
			a.Update(snapshotMsg{snap: incident(3, 302)})
			if got := a.state.QMgr("QM1").Snap.Seq; got != 3 {
				t.Fatalf("during the check the picture shows poll %d, want 3 (live)", got)
			}
			v := a.View()
			if strings.Contains(v, "FROZEN") || !strings.Contains(joinedText(v), "checking whether they come back (R10f): 0 s of 30 s") ||
				!strings.Contains(v, "QM1.DEADQ holds 302 message(s) now") || !strings.Contains(v, "esc end the check") {
				t.Fatalf("the check's screen:\n%s", v)
			}
			golden(t, v)
			close(bo.release)
			a.Update(<-done)
			if v := ansi.Strip(a.View()); !strings.Contains(v, "done: 2") {
				t.Fatalf("after the check:\n%s", v)
			}
		})
	}
}

// TestRoomRunThatTookEverythingLeavesNothingToConfirm: a colleague's run
// took every message bob's open dialog would act on: the dialog says who
// took them and that esc closes, not "dry run failed: no selection".
func TestRoomRunThatTookEverythingLeavesNothingToConfirm(t *testing.T) {
	for _, size := range dialogSizes {
		t.Run(itoa(size.w)+"x"+itoa(size.h), func(t *testing.T) {
			room := newFakeRoom()
			fake := &fakeOps{msg: sampleMessage()}
			a, _ := newTestApp(t, size.w, size.h, Options{Room: room, Ops: fake})
			a.Update(snapshotMsg{snap: incident(1, 40)})
			members := []Member{alice, {ID: 2, User: "bob", Role: "operator"}}
			a.Update(roomMsg{st: RoomState{Self: 2, Members: members}, ok: true})
			pressKey(t, a, km.DeadQ, km.Enter, km.Mark, km.Mark, km.Requeue)
			d := a.actionDialog()
			var items []ops.OpItem
			for _, m := range d.req.Messages {
				items = append(items, ops.OpItem{Msg: m, Kind: ops.Done})
			}
			res := ops.OpResult{Plan: ops.OpPlan{Request: ops.OpRequest{Op: ops.OpRequeue, QMgr: "QM1", Queue: "QM1.DEADQ", User: "alice"}},
				Done: len(items), Items: items}
			_, cmd := a.Update(roomMsg{st: RoomState{Self: 2, Members: members,
				Events: []RoomEvent{{Seq: 1, From: 1, Text: "alice requeued 2 messages", Result: &res}}}, ok: true})
			close(room.ch)
			drain(a, cmd)
			v := a.View()
			if j := joinedText(v); !strings.Contains(j, "nothing left: alice requeued all 2 — esc closes") ||
				strings.Contains(j, "dry run failed") || strings.Contains(j, "Run") {
				t.Fatalf("the emptied dialog:\n%s", v)
			}
			golden(t, v)
			press(a, "y", "tab", "enter")
			if len(fake.runs) != 0 {
				t.Fatal("an emptied dialog ran")
			}
		})
	}
}
