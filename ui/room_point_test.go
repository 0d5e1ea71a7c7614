package ui

import (
	"strings"
	"testing"

	"github.com/poisonwatch/poisonwatch/model"
)

// driverApp is alice's session (an operator who drives) with the incident
// folded in and messages to open.
func driverApp(t *testing.T, w, h int) (*App, *fakeRoom) {
	t.Helper()
	room := newFakeRoom()
	a, _ := newTestApp(t, w, h, Options{Room: room, Ops: &fakeOps{msg: sampleMessage()}})
	a.Update(snapshotMsg{snap: incident(1, 40)})
	a.Update(roomMsg{st: RoomState{Self: 1, Members: []Member{alice, bob}}, ok: true})
	return a, room
}

func lastPublished(t *testing.T, r *fakeRoom) SessionView {
	t.Helper()
	if len(r.published) == 0 {
		t.Fatal("nothing published")
	}
	return r.published[len(r.published)-1]
}

// TestPointStopsFromAScreenWithoutRows: alice points at a row of the DEADQ,
// opens a message (a screen without rows) and presses p there: the
// pointing stops, and no point was published while she read the message.
func TestPointStopsFromAScreenWithoutRows(t *testing.T) {
	a, room := driverApp(t, 120, 35)
	press(a, "d", "enter", "j", "p")
	if v := lastPublished(t, room); !v.Pointing || v.Cursor != 1 {
		t.Fatalf("published %+v after p on row 2, want pointing at row 2", v)
	}
	if !strings.Contains(a.flash, "pointing at row 2 for followers: p stops") {
		t.Fatalf("flash %q", a.flash)
	}
	press(a, "enter")
	topIs[*detailScreen](t, a)
	if v := lastPublished(t, room); v.Pointing {
		t.Fatal("a point was published from the message screen, where there is no row")
	}
	press(a, "p")
	if a.room.pointing || a.flash != "stopped pointing" {
		t.Fatalf("p on the message screen: pointing %v, flash %q; want it stopped", a.room.pointing, a.flash)
	}
	press(a, "esc")
	if v := lastPublished(t, room); v.Pointing {
		t.Fatal("back on the list the stopped point is published again")
	}
	// Where nothing was pointed at, a screen without rows still has
	// nothing to point at.
	press(a, "enter", "p")
	if a.room.pointing || a.flash != "nothing to point at on this screen" {
		t.Fatalf("p on a message without a point: pointing %v, flash %q", a.room.pointing, a.flash)
	}
}

// TestFollowerIsNeverToldOfARowOnAMessage: bob follows alice, who pointed
// at row 2 of the DEADQ's messages and then opened a message. Whether bob's
// list has that message (he follows her in) or not (he stays on the list
// under it), he is not told she points at a row, and what he was told
// while she pointed at the list goes.
func TestFollowerIsNeverToldOfARowOnAMessage(t *testing.T) {
	target := dlqSummary(2, 2085, "INVOICE.IN")
	group := model.Location{Screen: model.ScreenGroup, QMgr: "QM1", Queue: "QM1.DEADQ"}
	list := []model.Location{{Screen: model.ScreenDashboard, QMgr: "QM1"}, group}
	for _, tc := range []struct {
		name string
		msg  model.Location
		want func(t *testing.T, a *App)
	}{
		{"on a message bob has", model.Location{Screen: model.ScreenMessage, QMgr: "QM1", Queue: "QM1.DEADQ", Msg: target.Key()},
			func(t *testing.T, a *App) { topIs[*detailScreen](t, a) }},
		{"on a message bob lacks", model.Location{Screen: model.ScreenMessage, QMgr: "QM1", Queue: "QM1.DEADQ"},
			func(t *testing.T, a *App) { topIs[*queueScreen](t, a) }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a, _ := roomApp(t)
			a.opt.Ops = &fakeOps{msg: sampleMessage()}
			driver := alice
			driver.View = SessionView{Stack: list, Filters: []string{"", ""}, Cursor: 1, Pointing: true}
			a.Update(roomMsg{st: RoomState{Self: 2, Members: []Member{driver, bob}}, ok: true})
			press(a, "F")
			if a.flash != "alice points at row 2" {
				t.Fatalf("on the list: flash %q, want alice's point", a.flash)
			}
			// An older driver's session publishes its point from the message
			// screen: the follower judges by the screens, not by the flag.
			driver.View = SessionView{Stack: append(append([]model.Location(nil), list...), tc.msg),
				Filters: []string{"", "", ""}, Pointing: true}
			a.Update(roomMsg{st: RoomState{Self: 2, Members: []Member{driver, bob}}, ok: true})
			drain(a, a.mirror()) // the message opens off Update, as the room's command would
			tc.want(t, a)
			if strings.Contains(a.flash, "points at") {
				t.Fatalf("flash %q: a follower is told of a row while the driver reads a message", a.flash)
			}
			if strings.Contains(a.View(), "points at") {
				t.Fatal("the screen tells of a row while the driver reads a message")
			}
		})
	}
}
