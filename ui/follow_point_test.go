package ui

import (
	"strings"
	"testing"

	"github.com/poisonwatch/poisonwatch/internal/words"
	"github.com/poisonwatch/poisonwatch/model"
)

// TestFollowerPointBeyondItsRowsIsSaid: alice points at row 21 of a list
// that has 3 rows on bob's screen: bob is told so, no row is marked as the
// one she means, and the sentence goes when she stops pointing.
func TestFollowerPointBeyondItsRowsIsSaid(t *testing.T) {
	a, _ := roomApp(t)
	driver := alice
	driver.View = SessionView{Stack: []model.Location{
		{Screen: model.ScreenDashboard, QMgr: "QM1"},
		{Screen: model.ScreenGroup, QMgr: "QM1", Queue: "QM1.DEADQ"},
	}, Filters: []string{"", "QM1-00000003"}, Cursor: 0}
	a.Update(roomMsg{st: RoomState{Self: 2, Members: []Member{driver, bob}}, ok: true})
	press(a, "F")
	q := topIs[*queueScreen](t, a)
	rows := q.grid.Rows
	if rows >= 21 {
		t.Fatalf("the follower's list has %d rows; the test needs fewer than 21", rows)
	}
	driver.View.Cursor, driver.View.Pointing = 20, true
	a.Update(roomMsg{st: RoomState{Self: 2, Members: []Member{driver, bob}}, ok: true})
	if !strings.Contains(a.flash, "alice points at row 21; this screen has "+words.Count(rows, "row")) || q.grid.CursorMark != "" {
		t.Fatalf("flash %q, mark %q: a point beyond the rows is marked or not said", a.flash, q.grid.CursorMark)
	}
	driver.View.Pointing = false
	a.Update(roomMsg{st: RoomState{Self: 2, Members: []Member{driver, bob}}, ok: true})
	if strings.Contains(a.flash, "points at") {
		t.Fatalf("the pointing stopped but the flash stays: %q", a.flash)
	}
}

// TestFollowerOfALeavingDriverIsOfferedTheNewOne: when the followed driver
// leaves and carol drives, bob is told, and F follows carol.
func TestFollowerOfALeavingDriverIsOfferedTheNewOne(t *testing.T) {
	a, _ := roomApp(t)
	press(a, "F")
	if a.room.following != alice.ID {
		t.Fatalf("following %d, want alice", a.room.following)
	}
	carol := Member{ID: 3, User: "carol", Role: "operator", Driving: true}
	a.Update(roomMsg{st: RoomState{Self: 2, Members: []Member{bob, carol}}, ok: true})
	if !strings.Contains(a.flash, "the session you followed left; carol drives now: F follows them") {
		t.Fatalf("flash %q", a.flash)
	}
	press(a, "F")
	if a.room.following != carol.ID {
		t.Fatalf("F after the driver left follows %d, want carol", a.room.following)
	}
}
