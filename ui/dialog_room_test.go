package ui

import (
	"strings"
	"testing"

	"github.com/poisonwatch/poisonwatch/actions/ops"
	"github.com/poisonwatch/poisonwatch/mqwatch"
)

// TestRoomRunElsewhereRedoesAnOpenDialogsDryRun: bob's requeue dialog is
// open on two marked messages when alice requeues one of them; bob's dialog
// drops it, redoes its dry run (count 1, not 2) and says why.
func TestRoomRunElsewhereRedoesAnOpenDialogsDryRun(t *testing.T) {
	room := newFakeRoom()
	fake := &fakeOps{msg: sampleMessage()}
	a, _ := newTestApp(t, 120, 35, Options{Room: room, Ops: fake})
	a.Update(snapshotMsg{snap: incident(1, 40)})
	a.Update(roomMsg{st: RoomState{Self: 2, Members: []Member{alice, {ID: 2, User: "bob", Role: "operator"}}}, ok: true})
	pressKey(t, a, km.DeadQ, km.Enter, km.Mark, km.Mark, km.Requeue)
	d := a.actionDialog()
	if d == nil || d.actCount() != 2 {
		t.Fatalf("no dialog on 2 messages:\n%s", a.View())
	}
	taken := d.req.Messages[0]
	res := ops.OpResult{Plan: ops.OpPlan{Request: ops.OpRequest{Op: ops.OpRequeue, QMgr: "QM1", Queue: "QM1.DEADQ", User: "alice"}},
		Done: 1, Items: []ops.OpItem{{Msg: taken, Kind: ops.Done}}}
	_, cmd := a.Update(roomMsg{st: RoomState{Self: 2, Members: []Member{alice, {ID: 2, User: "bob", Role: "operator"}},
		Events: []RoomEvent{{Seq: 1, From: 1, Text: "alice requeued 1 message", Result: &res}}}, ok: true})
	close(room.ch) // the room's next read ends: only the dry run is left to run
	drain(a, cmd)
	if d.actCount() != 1 || len(d.req.Messages) != 1 || d.req.Messages[0].Key() == taken.Key() {
		t.Fatalf("the dialog kept the stale count: %d to act on, messages %d", d.actCount(), len(d.req.Messages))
	}
	if j := joinedText(a.View()); !strings.Contains(j, "alice acted on 1 of these messages meanwhile: the dry run was redone for the 1 left") ||
		!strings.Contains(j, "y confirms: one message") {
		t.Fatalf("the dialog does not say its dry run was redone:\n%s", a.View())
	}
}

// TestRoomRunOverMarksElsewhereDropsWhatItsResultLeavesOut: alice's run
// over marks ended; its result lists only its last chunk's messages, and
// the event names the others it took (RoomEvent.Gone). Bob's open dialog
// drops those too.
func TestRoomRunOverMarksElsewhereDropsWhatItsResultLeavesOut(t *testing.T) {
	room := newFakeRoom()
	fake := &fakeOps{msg: sampleMessage()}
	a, _ := newTestApp(t, 120, 35, Options{Room: room, Ops: fake})
	a.Update(snapshotMsg{snap: incident(1, 40)})
	members := []Member{alice, {ID: 2, User: "bob", Role: "operator"}}
	a.Update(roomMsg{st: RoomState{Self: 2, Members: members}, ok: true})
	pressKey(t, a, km.DeadQ, km.Enter, km.Mark, km.Mark, km.Requeue)
	d := a.actionDialog()
	if d == nil || d.actCount() != 2 {
		t.Fatalf("no dialog on 2 messages:\n%s", a.View())
	}
	taken := d.req.Messages[1]
	res := ops.OpResult{Plan: ops.OpPlan{Request: ops.OpRequest{Op: ops.OpRequeue, QMgr: "QM1", Queue: "QM1.DEADQ", User: "alice"}},
		Done: 5000} // an earlier chunk took it: the result does not list it
	_, cmd := a.Update(roomMsg{st: RoomState{Self: 2, Members: members,
		Events: []RoomEvent{{Seq: 1, From: 1, Text: "alice requeued 5000 messages", Result: &res, Gone: []mqwatch.Key{taken.Key()}}}}, ok: true})
	close(room.ch)
	drain(a, cmd)
	if d.actCount() != 1 || len(d.req.Messages) != 1 || d.req.Messages[0].Key() == taken.Key() {
		t.Fatalf("the dialog kept a message alice's run took: %d to act on, messages %d", d.actCount(), len(d.req.Messages))
	}
	if j := joinedText(a.View()); !strings.Contains(j, "alice acted on 1 of these messages meanwhile") {
		t.Fatalf("the dialog does not say its dry run was redone:\n%s", a.View())
	}
}
