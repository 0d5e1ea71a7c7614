package ui

import (
	"strings"
	"testing"

	"github.com/poisonwatch/poisonwatch/incident/journal"

	"github.com/poisonwatch/poisonwatch/actions/ops"
	"github.com/poisonwatch/poisonwatch/model"
	"github.com/poisonwatch/poisonwatch/mqwatch"
)

// fakeRoom is a war room the test drives by hand: it records what the App
// publishes and delivers the states the test sends.
type fakeRoom struct {
	ch        chan RoomState
	published []SessionView
	drive     error
	drives    int
}

func newFakeRoom() *fakeRoom { return &fakeRoom{ch: make(chan RoomState, 1)} }

func (r *fakeRoom) Updates() <-chan RoomState { return r.ch }
func (r *fakeRoom) Publish(v SessionView)     { r.published = append(r.published, v) }
func (r *fakeRoom) Drive() error              { r.drives++; return r.drive }

var (
	alice = Member{ID: 1, User: "alice", Role: "operator", Driving: true}
	bob   = Member{ID: 2, User: "bob", Role: "viewer"}
)

// roomApp is bob's session (a viewer) with the incident folded in.
func roomApp(t *testing.T) (*App, *fakeRoom) {
	t.Helper()
	room := newFakeRoom()
	a, _ := newTestApp(t, 120, 35, Options{Room: room, WarRoom: true})
	a.Update(snapshotMsg{snap: incident(1, 40)})
	a.Update(roomMsg{st: RoomState{Self: 2, Members: []Member{alice, bob}}, ok: true})
	return a, room
}

func TestRoomPresenceLineNamesEveryoneAndTheDriver(t *testing.T) {
	a, _ := roomApp(t)
	v := a.View()
	checkFrame(t, v, 120, 35)
	line := strings.Split(v, "\n")[1]
	for _, want := range []string{"in the room (2)", "▶ alice operator driving", "bob (you) viewer"} {
		if !strings.Contains(line, want) {
			t.Errorf("presence line %q lacks %q", line, want)
		}
	}
}

func TestRoomSessionNamesAreSanitised(t *testing.T) {
	a, _ := roomApp(t)
	evil := Member{ID: 3, User: "mallory\x1b]0;pwned\x07", Role: "viewer"}
	a.Update(roomMsg{st: RoomState{Self: 2, Members: []Member{alice, bob, evil}}, ok: true})
	if v := a.View(); strings.Contains(v, "\x1b]0;") || strings.Contains(v, "\x07") {
		t.Fatal("a user name's escape sequence reached the terminal")
	}
}

func TestRoomFlashAndAuditFromAnotherSession(t *testing.T) {
	j := journal.New()
	room := newFakeRoom()
	a, _ := newTestApp(t, 120, 35, Options{Room: room, WarRoom: true, Journal: j})
	a.Update(snapshotMsg{snap: incident(1, 40)})
	a.Update(roomMsg{st: RoomState{Self: 2, Members: []Member{alice, bob}}, ok: true})
	res := ops.OpResult{Plan: ops.OpPlan{Request: ops.OpRequest{Op: ops.OpRequeue, QMgr: "QM1",
		Queue: "QM1.DEADQ", User: "alice (ssh key SHA256:x)"}}, Done: 1}
	ent := j.Append(ops.RunEntry(&res, clock, "alice (ssh key SHA256:x)", "QM1")) // alice's engine
	res.Entry = ent.Seq
	text := ent.Sentence()
	a.Update(roomMsg{st: RoomState{Self: 2, Members: []Member{alice, bob},
		Events: []RoomEvent{{Seq: 1, Text: text}, {Seq: 2, From: 1, Result: &res}}}, ok: true})
	if v := a.View(); !strings.Contains(v, "alice: requeue 1 message from QM1.DEADQ — 1 requeued") {
		t.Fatalf("the flash is not on screen:\n%s", v)
	}
	press(a, "A")
	if v := a.View(); !strings.Contains(v, "Audit: 1 act in this room") || !strings.Contains(v, "1 requeued") {
		t.Fatalf("alice's run is not in the audit view:\n%s", v)
	}
	// The same state again (another member moved) is not news twice.
	a.Update(roomMsg{st: RoomState{Self: 2, Members: []Member{alice, bob},
		Events: []RoomEvent{{Seq: 1, Text: text}, {Seq: 2, From: 1, Result: &res}}}, ok: true})
	if j.Len() != 1 {
		t.Fatalf("the act was written %d times", j.Len())
	}
}

func TestRoomEventsBeforeJoiningAreHistory(t *testing.T) {
	room := newFakeRoom()
	a, _ := newTestApp(t, 120, 35, Options{Room: room})
	a.Update(roomMsg{st: RoomState{Self: 2, Members: []Member{alice, bob},
		Events: []RoomEvent{{Seq: 7, From: 1, Text: "alice requeued 3 messages"}}}, ok: true})
	if a.flash != "" {
		t.Fatalf("flash %q: an event from before joining is no news", a.flash)
	}
}

func TestRoomPublishesWhereTheSessionIs(t *testing.T) {
	a, room := roomApp(t)
	press(a, "d")
	if len(room.published) == 0 {
		t.Fatal("nothing published")
	}
	v := room.published[len(room.published)-1]
	if len(v.Stack) != 2 || v.Stack[1].Queue != "QM1.DEADQ" {
		t.Fatalf("published stack %+v, want the dashboard and the DEADQ", v.Stack)
	}
	n := len(room.published)
	a.View()
	press(a, "?", "?")
	if len(room.published) != n {
		t.Fatal("an unchanged view was published again")
	}
}

func TestRoomFollowMirrorsTheDriverUntilEsc(t *testing.T) {
	a, _ := roomApp(t)
	driver := alice
	driver.View = SessionView{Stack: []model.Location{
		{Screen: model.ScreenDashboard, QMgr: "QM1"},
		{Screen: model.ScreenGroup, QMgr: "QM1", Queue: "QM1.DEADQ"},
	}, Filters: []string{"", ""}, Cursor: 3}
	a.Update(roomMsg{st: RoomState{Self: 2, Members: []Member{driver, bob}}, ok: true})
	press(a, "F")
	q := topIs[*queueScreen](t, a)
	if q.loc.Queue != "QM1.DEADQ" || q.grid.Cursor != 3 {
		t.Fatalf("follower on %s at row %d, want QM1.DEADQ row 3", q.loc.Queue, q.grid.Cursor)
	}
	if !strings.Contains(a.View(), "FOLLOWING alice") {
		t.Fatal("the presence line does not say whom the session follows")
	}
	// The driver moves; the follower moves with her.
	driver.View.Cursor, driver.View.Pointing = 5, true
	a.Update(roomMsg{st: RoomState{Self: 2, Members: []Member{driver, bob}}, ok: true})
	if q.grid.Cursor != 5 || !strings.Contains(a.flash, "alice points at row 6") {
		t.Fatalf("cursor %d, flash %q", q.grid.Cursor, a.flash)
	}
	if v := a.View(); !strings.Contains(v, pointMark+"  ") || !strings.Contains(v, "alice operator driving "+pointMark+" row 6") {
		t.Fatalf("the pointed row is not marked %s, or presence does not say so:\n%s", pointMark, v)
	}
	press(a, "esc")
	if a.room.following != 0 || len(a.stack) != 2 || q.grid.CursorMark != "" {
		t.Fatalf("esc: following %d, stack %d; want stopped, still on the queue, no pointer", a.room.following, len(a.stack))
	}
	driver.View.Stack = driver.View.Stack[:1]
	a.Update(roomMsg{st: RoomState{Self: 2, Members: []Member{driver, bob}}, ok: true})
	if len(a.stack) != 2 {
		t.Fatal("a session that stopped following still mirrors")
	}
}

func TestRoomFollowNeedsSomeoneElseAndDriveIsTheRoomsCall(t *testing.T) {
	room := newFakeRoom()
	a, _ := newTestApp(t, 120, 35, Options{Room: room})
	a.Update(roomMsg{st: RoomState{Self: 2, Members: []Member{bob}}, ok: true})
	press(a, "F")
	if a.flash != "nobody else is in the room" || a.room.following != 0 {
		t.Fatalf("F alone: flash %q following %d", a.flash, a.room.following)
	}
	// A viewer's T never reaches the room: it could never be granted.
	press(a, "T")
	if room.drives != 0 || a.flash != "a viewer cannot drive: driving needs a key with role=operator" {
		t.Fatalf("a viewer's T: drives %d, flash %q", room.drives, a.flash)
	}
	// An operator's is the room's call, refusal included.
	a.Update(roomMsg{st: RoomState{Self: 3, Members: []Member{bob, {ID: 3, User: "carol", Role: "operator"}}}, ok: true})
	room.drive = errViewerDrive
	press(a, "T")
	if room.drives != 1 || a.flash != errViewerDrive.Error() {
		t.Fatalf("T: drives %d, flash %q", room.drives, a.flash)
	}
}

type driveErr string

func (e driveErr) Error() string { return string(e) }

const errViewerDrive = driveErr("viewers cannot drive")

func TestRoomKeysAreInHelp(t *testing.T) {
	a, _ := driverApp(t, 120, 35)
	press(a, "?")
	v := a.View()
	for _, want := range []string{"follow the driver", "take the wheel", "point at this row", ":rules FILE"} {
		if !strings.Contains(v, want) {
			t.Errorf("help lacks %q", want)
		}
	}
	// A viewer's help lists what a viewer can use: never T, never a
	// rules table it could not read.
	viewer, _ := roomApp(t)
	press(viewer, "?")
	v = viewer.View()
	for _, want := range []string{"follow the driver", "point at this row"} {
		if !strings.Contains(v, want) {
			t.Errorf("a viewer's help lacks %q", want)
		}
	}
	for _, never := range []string{"take the wheel", ":rules"} {
		if strings.Contains(v, never) {
			t.Errorf("a viewer's help lists %q, which a viewer can never use", never)
		}
	}
	// Without a room the keys do not exist.
	b, _ := newTestApp(t, 120, 35, Options{})
	press(b, "?")
	if strings.Contains(b.View(), "follow the driver") {
		t.Fatal("room keys listed outside a room")
	}
}

// TestFlowRoomPresenceAndFlash runs a session in a real program: the room's
// updates arrive on their channel, as serve delivers them.
func TestFlowRoomPresenceAndFlash(t *testing.T) {
	room := newFakeRoom()
	j := journal.New()
	f := startFlow(t, Options{Room: room, Journal: j})
	t.Cleanup(func() { close(room.ch) }) // ends the App's wait for the room
	f.feed(incident(1, 40))
	room.ch <- RoomState{Self: 2, Members: []Member{alice, {ID: 2, User: "bob", Role: "operator"}}}
	f.waitFor("in the room (2)", "alice operator driving")
	res := ops.OpResult{Plan: ops.OpPlan{Request: ops.OpRequest{Op: ops.OpRequeue, QMgr: "QM1", Queue: "QM1.DEADQ", User: "alice"}}, Done: 1,
		Items: []ops.OpItem{{Msg: mqwatch.Summary{}, Target: "INVOICE.IN", Kind: ops.Done}}}
	res.Entry = j.Append(ops.RunEntry(&res, clock, "alice", "QM1")).Seq // alice's engine
	room.ch <- RoomState{Self: 2, Members: []Member{alice, {ID: 2, User: "bob", Role: "operator"}},
		Events: []RoomEvent{{Seq: 1, Text: "alice: requeue 1 message from QM1.DEADQ — 1 requeued"}, {Seq: 2, From: 1, Result: &res}}}
	f.waitFor("alice: requeue 1 message from QM1.DEADQ — 1 requeued")
	f.keys("A")
	f.waitFor("1 act in this room", "requeue")
	a := f.quit()
	if n := len(journal.Acts(a.sess.journal.Entries())); n != 1 {
		t.Fatalf("the audit view has %d acts, want alice's", n)
	}
}

func TestRoomFollowOpensTheDriversMessageMasked(t *testing.T) {
	a, _ := roomApp(t)
	target := dlqSummary(2, 2085, "INVOICE.IN")
	driver := alice
	driver.View = SessionView{Stack: []model.Location{
		{Screen: model.ScreenDashboard, QMgr: "QM1"},
		{Screen: model.ScreenGroup, QMgr: "QM1", Queue: "QM1.DEADQ", Group: &model.GroupKey{Reason: 2085, DestQ: "INVOICE.IN", DestQMgr: "QM2"}},
		{Screen: model.ScreenMessage, QMgr: "QM1", Queue: "QM1.DEADQ", Msg: target.Key()},
	}, Filters: []string{"", "", ""}}
	a.opt.Ops = &fakeOps{msg: sampleMessage()}
	a.Update(roomMsg{st: RoomState{Self: 2, Members: []Member{driver, bob}}, ok: true})
	_, cmd := a.Update(keyMsg("F"))
	drain(a, cmd)
	d := topIs[*detailScreen](t, a)
	if d.sum.Key() != target.Key() || !d.warRoom {
		t.Fatalf("follower on message %v (masked %v), want the driver's, masked", d.sum.Key(), d.warRoom)
	}
	// The same view again rebuilds nothing: the group key is compared by value.
	before := a.stack[1]
	g := *driver.View.Stack[1].Group
	driver.View.Stack = append([]model.Location(nil), driver.View.Stack...)
	driver.View.Stack[1].Group = &g // another session's copy: equal, not the same pointer
	a.Update(roomMsg{st: RoomState{Self: 2, Members: []Member{driver, bob}}, ok: true})
	if a.stack[1] != before {
		t.Fatal("an unchanged view rebuilt the follower's stack")
	}
}

// TestViewerSessionHasNoExport: a session with exports off neither lists E
// in help nor opens an export dialog; it says why instead.
func TestViewerSessionHasNoExport(t *testing.T) {
	a, _ := newTestApp(t, 120, 35, Options{Ops: &fakeOps{msg: sampleMessage()}, ReadOnly: true, NoExport: true})
	a.Update(snapshotMsg{snap: incident(1, 30)})
	press(a, "d", "enter", "E")
	if a.actionDialog() != nil || !strings.Contains(a.View(), "exports are off in this session") {
		t.Fatalf("E in a no-export session:\n%s", a.View())
	}
	press(a, "?")
	if strings.Contains(a.View(), "export") {
		t.Fatalf("help lists export in a no-export session:\n%s", a.View())
	}
}
