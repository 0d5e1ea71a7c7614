package ui

import (
	"testing"

	"github.com/poisonwatch/poisonwatch/model"
)

// TestFollowerMirrorsTheDriversMessageTab: a follower on the driver's
// message reads it on the driver's tab, and turns with it; a session that
// turns the tab tells the room.
func TestFollowerMirrorsTheDriversMessageTab(t *testing.T) {
	a, room := roomApp(t)
	target := dlqSummary(2, 2085, "INVOICE.IN")
	driver := alice
	driver.View = SessionView{Stack: []model.Location{
		{Screen: model.ScreenDashboard, QMgr: "QM1"},
		{Screen: model.ScreenGroup, QMgr: "QM1", Queue: "QM1.DEADQ", Group: &model.GroupKey{Reason: 2085, DestQ: "INVOICE.IN", DestQMgr: "QM2"}},
		{Screen: model.ScreenMessage, QMgr: "QM1", Queue: "QM1.DEADQ", Msg: target.Key()},
	}, Filters: []string{"", "", ""}, Tab: 3}
	a.opt.Ops = &fakeOps{msg: sampleMessage()}
	a.Update(roomMsg{st: RoomState{Self: 2, Members: []Member{driver, bob}}, ok: true})
	_, cmd := a.Update(keyMsg("F"))
	drain(a, cmd)
	for _, c := range []struct {
		name string
		tab  int
	}{{"opened on the driver's tab", 3}, {"the driver turns to Route", 4}, {"and back to MQMD", 0}} {
		driver.View.Tab = c.tab
		a.Update(roomMsg{st: RoomState{Self: 2, Members: []Member{driver, bob}}, ok: true})
		if d := topIs[*detailScreen](t, a); d.tab != c.tab {
			t.Fatalf("%s: follower on tab %s, want %s", c.name, detailTabs[d.tab], detailTabs[c.tab])
		}
	}
	// Another message on the driver's screen is not this one: its tab
	// says nothing about the follower's.
	other := driver
	other.View.Stack = append([]model.Location(nil), driver.View.Stack...)
	elsewhere := dlqSummary(3, 2085, "INVOICE.IN")
	other.View.Stack[2].Msg = elsewhere.Key()
	other.View.Tab = 1
	d := topIs[*detailScreen](t, a)
	followTab(d, other.View)
	if d.tab != 0 {
		t.Fatalf("a tab of another message turned the follower's to %s", detailTabs[d.tab])
	}

	// The session's own tab is published when it changes.
	a.Update(keyMsg("esc")) // stop following
	n := len(room.published)
	a.Update(keyMsg("l"))
	if len(room.published) == n || room.published[len(room.published)-1].Tab != 1 {
		t.Fatalf("turning to RFH2 published %v, want a view on tab 1", room.published[n:])
	}
}
