package ui

import (
	"fmt"
	"io"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/lipgloss"
	"github.com/muesli/termenv"

	"github.com/poisonwatch/poisonwatch/codec/mqfmt"
	"github.com/poisonwatch/poisonwatch/mqwatch"
	"github.com/poisonwatch/poisonwatch/themes"
)

// fleetQMgrs are the queue managers of the fleet fixture, in the order the
// sources are given (not the order the view sorts them in).
var fleetQMgrs = []string{"QM01", "QM02", "QM03", "QM04", "QM05", "QM06", "QM07", "QM08"}

// fleetSnapshot is a connected snapshot of a small queue manager at t: a
// DEADQ holding dlq dead letters, an input queue and its backout queue
// holding boq of 100.
func fleetSnapshot(name string, seq uint64, t time.Time, dlq int, boq int32) *mqwatch.Snapshot {
	var sums []mqwatch.Summary
	for i := range dlq {
		s := dlqSummary(i, 2085, "INVOICE.IN")
		s.MsgId[10] = byte(seq)
		sums = append(sums, s)
	}
	// Each queue holds what reaches it (R8a, R8b): no finding on a healthy one.
	queues := []mqwatch.QueueView{
		view("ORDERS.BO", boq, 100, 0, "", mqwatch.RoleBOQ, 0),
		view("ORDERS.IN", 0, 10000, 3, "ORDERS.BO", mqwatch.RoleInput, 1),
		view(name+".DEADQ", int32(dlq), 50000, 0, "", mqwatch.RoleDeadQ, 0),
	}
	for i, l := range []int32{2 << 20, 1 << 20, 4 << 20} {
		queues[i].Info.MaxMsgLen = l
	}
	return &mqwatch.Snapshot{Seq: seq, Time: t, QMgrName: name, Connected: true,
		QMgr:        mqwatch.QMgrInfo{Name: name, DeadQ: name + ".DEADQ", MaxMsgLen: 104857600},
		Queues:      queues,
		Inventories: map[string]*mqwatch.Inventory{name + ".DEADQ": (*mqwatch.Inventory)(nil).Append(sums...)},
		Deltas:      map[string]mqwatch.InventoryDelta{name + ".DEADQ": {Resync: true}},
		Heads:       map[string][]mqwatch.Summary{},
	}
}

// failedSnapshot is what a watcher publishes when a poll fails: the last
// good figures, stale, with the error.
func failedSnapshot(last *mqwatch.Snapshot, err error) *mqwatch.Snapshot {
	s := *last
	s.Seq++
	s.Connected, s.Stale, s.Err, s.Deltas = false, true, err, nil
	s.NextRetry = clock.Add(10 * time.Second)
	return &s
}

// newFleetApp builds an app on the fleet fixture: QM01 healthy, QM02 a poison
// loop, QM03 a backout queue at 80 %, QM04 dead letters arriving, QM05 down
// (2059), QM06 not answering, QM07 answering no more for two minutes (stale),
// QM08 still connecting.
func newFleetApp(t testing.TB, w, h int, names ...string) (*App, []*fakeSource) {
	t.Helper()
	if len(names) == 0 {
		names = fleetQMgrs
	}
	r := lipgloss.NewRenderer(io.Discard) // the terminal: OSC 52 from y goes here
	r.SetColorProfile(termenv.Ascii)
	th, err := themes.Load("dark")
	if err != nil {
		t.Fatal(err)
	}
	var srcs []*fakeSource
	var sources []Source
	for _, n := range names {
		s := &fakeSource{name: n, ch: make(chan *mqwatch.Snapshot, 1)}
		srcs, sources = append(srcs, s), append(sources, s)
	}
	a := New(Options{Sources: sources, Renderer: r, Theme: th, Ops: &fakeOps{msg: sampleMessage()},
		Now: func() time.Time { return clock.Add(time.Second) }, ExportDir: "/home/op/.local/state/poisonwatch"})
	a.Update(windowSize(w, h))
	feed := func(i int, s *mqwatch.Snapshot) { a.Update(snapshotMsg{src: i, snap: s}) }
	for i, n := range names {
		earlier, now := clock.Add(-time.Minute), clock
		switch n {
		case "QM02":
			s := fleetSnapshot(n, 1, now, 0, 0)
			s.Queues[1].Status.Depth = 9000
			s.Queues[1].Info.BackoutThresh = 0
			s.Heads["ORDERS.IN"] = []mqwatch.Summary{{BackoutCount: 4000, PutTime: clock.Add(-5 * time.Minute)}}
			feed(i, s)
		case "QM03":
			feed(i, fleetSnapshot(n, 1, now, 0, 80))
		case "QM04":
			feed(i, fleetSnapshot(n, 1, earlier, 30, 0))
			feed(i, fleetSnapshot(n, 2, now, 90, 0))
		case "QM05":
			last := fleetSnapshot(n, 1, clock.Add(-40*time.Second), 0, 0)
			feed(i, last)
			feed(i, failedSnapshot(last, mqwatch.NewError("MQCONNX", n, mqfmt.RCQMgrNotAvailable)))
		case "QM06":
			last := fleetSnapshot(n, 1, clock.Add(-15*time.Second), 0, 0)
			feed(i, last)
			feed(i, failedSnapshot(last, &mqwatch.NoAnswerError{Call: "INQUIRE_Q_STATUS", After: 12 * time.Second}))
		case "QM07":
			feed(i, fleetSnapshot(n, 1, clock.Add(-2*time.Minute), 0, 0))
		case "QM08":
		default:
			feed(i, fleetSnapshot(n, 1, now, 0, 0))
		}
	}
	return a, srcs
}

// TestFleetScreens renders the fleet view and what it leads to, at 80x24
// and 200x60, without colour: severity reads from ■ ▲, ● ◌ ✖ and words.
func TestFleetScreens(t *testing.T) {
	cases := []screenCase{
		{"fleet", nil}, // the cursor on the worst row: QM05, down
		{"fleet_loop_row", []string{"j", "j"}},
		{"fleet_no_answer_row", []string{"j"}},
		{"fleet_enter", []string{"enter"}},
		{"fleet_filter", []string{"/", "0", "4"}},
	}
	for _, size := range []struct{ w, h int }{{80, 24}, {200, 60}} {
		for _, tc := range cases {
			t.Run(tc.name+"_"+itoa(size.w)+"x"+itoa(size.h), func(t *testing.T) {
				a, _ := newFleetApp(t, size.w, size.h)
				press(a, tc.keys...)
				v := a.View()
				checkFrame(t, v, size.w, size.h)
				golden(t, v)
			})
		}
	}
}

func TestFleetRowsAndOrder(t *testing.T) {
	a, _ := newFleetApp(t, 200, 60)
	f := topIs[*fleetScreen](t, a)
	var order []string
	for _, r := range f.rows {
		order = append(order, r.QMgr)
	}
	// Critical first (the two that cannot be reached, then the loop), then
	// warnings, then the rest by name.
	want := "QM05 QM06 QM02 QM03 QM04 QM07 QM01 QM08"
	if got := strings.Join(order, " "); got != want {
		t.Fatalf("fleet order %s, want %s", got, want)
	}
	v := a.View()
	for _, s := range []string{"✖ 2059 Q_MGR_NOT_AVAILABLE", "✖ no answer, data 16s old", "◌ stale 2m", "connecting…", "ORDERS.BO", "80%", "fleet 8: ● 4 ◌ 1 stale ✖ 2 down 1 connecting…", "R1c ORDERS.IN LOOP"} {
		if !strings.Contains(v, s) {
			t.Errorf("fleet view lacks %q:\n%s", s, v)
		}
	}
}

func TestFleetNavigation(t *testing.T) {
	tests := []struct {
		name   string
		keys   []string
		crumbs string
		qm     string
		flash  string
	}{
		{"enter opens the row's dashboard", []string{"enter"}, "Fleet › Dashboard", "QM05", ""},
		{"esc goes back to the fleet on the same row", []string{"j", "j", "enter", "esc"}, "Fleet", "QM02", ""},
		{"d from the fleet opens the DEADQ of the queue manager on view", []string{"j", "j", "j", "j", "enter", "esc", "d"}, "Fleet › Dashboard › QM04.DEADQ", "QM04", ""},
		{"m from deep in goes back to the fleet", []string{"j", "j", "j", "j", "enter", "d", "enter", "m"}, "Fleet", "QM04", ""},
		{"m on the fleet says where you are", []string{"m"}, "Fleet", "QM01", "this is the fleet view"},
		{"the palette's qm keeps the fleet under the dashboard", []string{":", "q", "m", " ", "Q", "M", "0", "3", "enter"}, "Fleet › Dashboard", "QM03", ""},
		{"the palette's fleet", []string{"enter", ":", "f", "l", "e", "e", "t", "enter"}, "Fleet", "QM05", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a, _ := newFleetApp(t, 120, 40)
			press(a, tt.keys...)
			if got := strings.Join(a.crumbs(), " › "); got != tt.crumbs || a.qm != tt.qm || !strings.Contains(a.flash, tt.flash) {
				t.Fatalf("crumbs %q qm %s flash %q, want %q %s %q", got, a.qm, a.flash, tt.crumbs, tt.qm, tt.flash)
			}
			if top := a.top().location(); top.Screen == 0 && top.QMgr != a.qm {
				t.Fatalf("dashboard of %s on view while the app is on %s", top.QMgr, a.qm)
			}
		})
	}
}

// With a few queue managers the dashboard stays the first screen: m opens
// the fleet on top, enter there switches the dashboard, esc comes back.
func TestFleetOnTopOfAFewQueueManagers(t *testing.T) {
	a, _ := newFleetApp(t, 120, 40, "QM01", "QM02", "QM05")
	if _, ok := a.top().(*dashboard); !ok {
		t.Fatalf("first screen %T with three queue managers", a.top())
	}
	press(a, "m")
	if got := strings.Join(a.crumbs(), " › "); got != "Dashboard › Fleet" {
		t.Fatalf("m: crumbs %q", got)
	}
	press(a, "esc")
	if got := strings.Join(a.crumbs(), " › "); got != "Dashboard" || a.qm != "QM01" {
		t.Fatalf("esc: crumbs %q on %s", got, a.qm)
	}
	press(a, "m", "j", "enter")
	if got := strings.Join(a.crumbs(), " › "); got != "Dashboard" || a.qm != "QM02" {
		t.Fatalf("enter on the second row: crumbs %q on %s, want QM02's dashboard", got, a.qm)
	}
}

// Rows re-sort as trouble comes and goes; the cursor stays on its queue
// manager, and a queue manager that stops answering moves up.
func TestFleetCursorFollowsItsQueueManager(t *testing.T) {
	a, _ := newFleetApp(t, 120, 40)
	press(a, "G", "k") // QM01, healthy, second to last
	f := topIs[*fleetScreen](t, a)
	if r := f.selected(); r == nil || r.QMgr != "QM01" {
		t.Fatalf("cursor on %+v, want QM01", r)
	}
	last := fleetSnapshot("QM01", 1, clock, 0, 0)
	a.Update(snapshotMsg{src: 0, snap: failedSnapshot(last, &mqwatch.NoAnswerError{Call: "MQINQ", After: 11 * time.Second})})
	if r := f.selected(); r == nil || r.QMgr != "QM01" || f.grid.Cursor > 3 {
		t.Fatalf("after QM01 stopped answering: cursor %d on %+v; want QM01, now among the critical rows", f.grid.Cursor, r)
	}
	if !strings.Contains(a.View(), "QM01: no answer to MQINQ for 11s") {
		t.Fatalf("the detail line does not say why:\n%s", a.View())
	}
}

func TestFleetManyQueueManagersFit(t *testing.T) {
	var names []string
	for i := range 50 {
		names = append(names, fmt.Sprintf("QM%02d", i+1))
	}
	for _, size := range [][2]int{{80, 24}, {200, 60}, {60, 16}} {
		a, _ := newFleetApp(t, size[0], size[1], names...)
		checkFrame(t, a.View(), size[0], size[1])
		press(a, "G")
		if v := a.View(); !strings.Contains(v, "50/50") {
			t.Fatalf("%dx%d: the last of 50 rows is not reachable:\n%s", size[0], size[1], v)
		}
	}
}

// A seeded random walk from the fleet view as the first screen keeps every
// screen consistent with its breadcrumb, as the demo's walk does.
func TestRandomWalkFromTheFleet(t *testing.T) {
	a, _ := newFleetApp(t, 120, 35)
	rng := rand.New(rand.NewPCG(7, 0))
	var trail []string
	seen := map[string]int{}
	for step := range 800 {
		k := walkKeys[rng.IntN(len(walkKeys))]
		trail = append(trail, k)
		press(a, k)
		if _, ok := a.stack[0].(*fleetScreen); !ok {
			t.Fatalf("after %v the fleet is no longer under everything: %T", trail[max(len(trail)-30, 0):], a.stack[0])
		}
		seen[a.top().location().Screen.String()]++
		if msg := checkConsistent(a); msg != "" {
			t.Fatalf("after %d keys (last 30: %v): %s\n%s", step+1, trail[max(len(trail)-30, 0):], msg, a.View())
		}
	}
	for _, s := range []string{"Fleet", "Dashboard", "Triage", "Alert"} {
		if seen[s] == 0 {
			t.Errorf("the walk never reached %s: %v", s, seen)
		}
	}
}

// TestFleetDetailSaysTheReasonWholeAt80x24: the down queue manager's reason
// and its explanation wrap into the detail's rows, not cut above empty ones;
// the STATE column is as wide as its text, and the worst BOQ is named.
func TestFleetDetailSaysTheReasonWholeAt80x24(t *testing.T) {
	a, _ := newFleetApp(t, 80, 24)
	v := a.View()
	checkFrame(t, v, 80, 24)
	want := mqwatch.NewError("MQCONNX", "QM05", mqfmt.RCQMgrNotAvailable).Error()
	if !strings.Contains(joinedText(v), joinedText(want)) {
		t.Fatalf("the detail cuts %q:\n%s", want, v)
	}
	for _, s := range []string{"WORST BOQ", "ORDERS.BO"} {
		if !strings.Contains(v, s) {
			t.Fatalf("the fleet at 80 columns lacks %q:\n%s", s, v)
		}
	}
}
