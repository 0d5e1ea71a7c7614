package ui

import (
	"context"
	"io"
	"math/rand/v2"
	"strings"
	"sync"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/charmbracelet/lipgloss"
	"github.com/muesli/termenv"

	"github.com/poisonwatch/poisonwatch/actions"
	"github.com/poisonwatch/poisonwatch/model"
	"github.com/poisonwatch/poisonwatch/mqwatch"
	"github.com/poisonwatch/poisonwatch/themes"
)

// fakeFeed publishes the fleets a test gives it; Next never blocks (the
// tests deliver fleetAnswerMsg themselves).
type fakeFeed struct {
	mu        sync.Mutex
	f         *model.RemoteFleet
	seq       uint64
	refreshed int
}

func (f *fakeFeed) Latest() (*model.RemoteFleet, uint64) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.f, f.seq
}

func (f *fakeFeed) Next(_ context.Context, after uint64) (*model.RemoteFleet, uint64, bool) {
	fl, seq := f.Latest()
	return fl, seq, seq > after
}

func (f *fakeFeed) Refresh()       { f.mu.Lock(); f.refreshed++; f.mu.Unlock() }
func (f *fakeFeed) Source() string { return "http://prometheus:9090" }

func (f *fakeFeed) publish(fl *model.RemoteFleet) uint64 {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.f, f.seq = fl, f.seq+1
	return f.seq
}

// remoteFixture is a fleet of eight queue managers on three exporters, as
// Prometheus answers for it: a poison loop with a silenced alert, a BOQ
// filling up, dead letters arriving, one the exporter cannot reach, one
// whose exporter is down, one whose series stopped, one stale, one
// connecting, and a healthy QM01 on two hosts.
func remoteFixture() *model.RemoteFleet {
	now := clock.Add(time.Second)
	good := now.Add(-2 * time.Second)
	dlq := func(r model.RemoteRow, depth, rate float64) model.RemoteRow {
		r.DeadQ, r.DeadDepth, r.DeadMax, r.DeadRate, r.DeadRateOK = "SYSTEM.DEAD.LETTER.QUEUE", depth, 50000, rate, true
		r.Queues, r.LastGood, r.Interval = 1000, good, 5*time.Second
		return r
	}
	rows := []model.RemoteRow{
		dlq(model.RemoteRow{Instance: "mqhost-a:9464", Job: "poisonwatch", QMgr: "QM01"}, 0, 0),
		dlq(model.RemoteRow{Instance: "mqhost-b:9464", Job: "poisonwatch", QMgr: "QM01"}, 0, 0),
		dlq(model.RemoteRow{Instance: "mqhost-a:9464", Job: "poisonwatch", QMgr: "QM02", Looping: 2, LoopQueues: []string{"APP.0001.IN", "APP.0011.IN"},
			Alerts: []model.RemoteAlert{
				{Rule: "R1c", Queue: "APP.0001.IN", Severity: actions.Critical, Count: 1},
				{Rule: "R1c", Queue: "APP.0011.IN", Severity: actions.Critical, Count: 1,
					Silence: &model.Silence{ID: "5e1f", By: "alice", Comment: "fix deploying at 04:00", Ends: now.Add(90 * time.Minute)}},
				{Rule: "R2c", Queue: "APP.0002.IN", Severity: actions.Info, Count: 3},
			}}, 12, 0),
		dlq(model.RemoteRow{Instance: "mqhost-a:9464", Job: "poisonwatch", QMgr: "QM03", WorstBOQ: "APP.0003.BO", WorstFill: 0.85,
			Alerts: []model.RemoteAlert{{Rule: "R8b", Queue: "APP.0003.BO", Severity: actions.Warning, Count: 1}}}, 40, 0),
		dlq(model.RemoteRow{Instance: "mqhost-b:9464", Job: "poisonwatch", QMgr: "QM05",
			Reasons:  []model.RemoteReason{{Code: "2085", Name: "MQRC_UNKNOWN_OBJECT_NAME", Value: 1200}, {Code: "2053", Name: "MQRC_Q_FULL", Value: 30}},
			Arriving: []model.RemoteReason{{Code: "2085", Name: "MQRC_UNKNOWN_OBJECT_NAME", Value: 60}},
			Alerts:   []model.RemoteAlert{{Rule: "R8d", Queue: "SYSTEM.DEAD.LETTER.QUEUE", Severity: actions.Warning, Count: 1}}}, 1230, 60),
		{Instance: "mqhost-b:9464", Job: "poisonwatch", QMgr: "QM06", Link: model.RemoteNotConnected, LastGood: now.Add(-40 * time.Second)},
		{Instance: "mqhost-c:9464", Job: "poisonwatch", QMgr: "QM07", Link: model.RemoteDown, Why: "exporter down (up 0)", LastGood: now.Add(-45 * time.Second)},
		{Instance: "mqhost-a:9464", Job: "poisonwatch", QMgr: "QM08", Link: model.RemoteDown, Why: "series stale", LastGood: now.Add(-10 * time.Minute)},
		dlq(model.RemoteRow{Instance: "mqhost-a:9464", Job: "poisonwatch", QMgr: "QM09", Link: model.RemoteStale}, 0, 0),
		{Instance: "mqhost-b:9464", Job: "poisonwatch", QMgr: "QM10", Link: model.RemoteConnecting},
	}
	rows[8].LastGood = now.Add(-2 * time.Minute)
	for i := range rows {
		rows[i].Count()
	}
	model.SortRemote(rows)
	return &model.RemoteFleet{Source: "http://prometheus:9090", At: now, Took: 40 * time.Millisecond, Queries: 11, Rows: rows,
		Alertmanager: "http://alertmanager:9093"}
}

// newRemoteApp builds an app on the remote fixture with connections to
// the queue managers named (their sources answer nothing).
func newRemoteApp(t testing.TB, w, h int, fl *model.RemoteFleet, connected ...string) (*App, *fakeFeed) {
	t.Helper()
	r := lipgloss.NewRenderer(io.Discard)
	r.SetColorProfile(termenv.Ascii)
	th, err := themes.Load("dark")
	if err != nil {
		t.Fatal(err)
	}
	var sources []Source
	for _, n := range connected {
		sources = append(sources, &fakeSource{name: n, ch: make(chan *mqwatch.Snapshot, 1)})
	}
	feed := &fakeFeed{}
	if fl != nil {
		feed.publish(fl)
	}
	a := New(Options{Sources: sources, Fleet: feed, Renderer: r, Theme: th, Ops: &fakeOps{msg: sampleMessage()},
		Now: func() time.Time { return clock.Add(time.Second) }, ExportDir: "/home/op/.local/state/poisonwatch"})
	a.Update(windowSize(w, h))
	// Init's refresh, without its wait for the next answer.
	refresh(a.top(), a)
	return a, feed
}

// TestRemoteFleetScreens renders the fleet from Prometheus at 80x24 and
// 120x35, without colour: how each row reads (● ◌ ✖ and words), the
// detail of a loop with its silence, of a DEADQ's reasons, of a down
// exporter, enter without a connection, the filter, a failed refresh and
// the wait for the first answer.
func TestRemoteFleetScreens(t *testing.T) {
	failed := remoteFixture()
	failed.Err, failed.Failed = errString("cannot reach Prometheus at http://prometheus:9090: dial tcp 10.0.0.9:9090: connect: connection refused"), clock
	cases := []struct {
		name string
		fl   *model.RemoteFleet
		keys []string
	}{
		{"remote_fleet", remoteFixture(), nil},
		{"remote_fleet_loop_row", remoteFixture(), []string{"j", "j", "j"}},
		{"remote_fleet_deadq_row", remoteFixture(), []string{"j", "j", "j", "j", "j"}},
		{"remote_fleet_enter_no_connection", remoteFixture(), []string{"j", "j", "j", "enter"}},
		{"remote_fleet_filter", remoteFixture(), []string{"/", "Q", "M", "0", "1"}},
		{"remote_fleet_failed", failed, nil},
		{"remote_fleet_asking", nil, nil},
	}
	for _, size := range []struct{ w, h int }{{80, 24}, {120, 35}} {
		for _, tc := range cases {
			t.Run(tc.name+"_"+itoa(size.w)+"x"+itoa(size.h), func(t *testing.T) {
				a, _ := newRemoteApp(t, size.w, size.h, tc.fl)
				press(a, tc.keys...)
				v := a.View()
				checkFrame(t, v, size.w, size.h)
				golden(t, v)
			})
		}
	}
}

type errString string

func (e errString) Error() string { return string(e) }

// Enter opens a row's queue manager live only through a connection the
// operator named, matched by name; without one it says how to get one and
// stays; esc comes back to the fleet on the same row.
func TestRemoteFleetDrill(t *testing.T) {
	a, _ := newRemoteApp(t, 120, 35, remoteFixture(), "QM02")
	press(a, "j", "j", "j") // QM02, the loop
	if r := topIs[*remoteFleetScreen](t, a).selected(); r.QMgr != "QM02" {
		t.Fatalf("cursor on %s", r.QMgr)
	}
	press(a, "enter")
	if got := strings.Join(a.crumbs(), " › "); got != "Fleet › Dashboard" || a.qm != "QM02" {
		t.Fatalf("enter with a connection: crumbs %q qm %s", got, a.qm)
	}
	press(a, "esc")
	f := topIs[*remoteFleetScreen](t, a)
	if r := f.selected(); r.QMgr != "QM02" {
		t.Fatalf("back on %s, want QM02", r.QMgr)
	}
	press(a, "j") // QM05, dead letters arriving: no connection
	press(a, "enter")
	if got := strings.Join(a.crumbs(), " › "); got != "Fleet" || !strings.Contains(a.flash, "QM05: no connection in this session; name it in --qmgrs") {
		t.Fatalf("enter without a connection: crumbs %q flash %q", got, a.flash)
	}
	if len(a.state.Order) != 1 || a.state.Order[0] != "QM02" {
		t.Fatalf("the session watches %v: only the connection named", a.state.Order)
	}
}

// With no connection at all, every key that works everywhere leaves the
// session without a queue manager of its own: nothing is made up for
// keys that name one (d, A, a, ctrl+r).
func TestRemoteFleetWithoutConnections(t *testing.T) {
	for _, k := range []string{"enter", "d", "a", "A", "ctrl+r", "f", "f", "?", "?", "m", ":", "esc", "esc", "x", "K"} {
		a, feed := newRemoteApp(t, 100, 30, remoteFixture())
		press(a, "j", k, "esc")
		checkFrame(t, a.View(), 100, 30)
		if len(a.state.Order) != 0 {
			t.Errorf("after %q the session has queue managers %q", k, a.state.Order)
		}
		if k == "ctrl+r" && feed.refreshed != 1 {
			t.Errorf("ctrl+r asked the feed %d times", feed.refreshed)
		}
	}
}

// A new answer replaces the rows; the cursor the operator moved stays on
// its queue manager through the re-sort.
func TestRemoteFleetFollowsAnswers(t *testing.T) {
	fl := remoteFixture()
	a, feed := newRemoteApp(t, 120, 35, fl)
	press(a, "j", "j", "j")
	next := remoteFixture()
	for i := range next.Rows {
		if next.Rows[i].QMgr == "QM03" {
			next.Rows[i].Alerts[0].Severity = actions.Critical // now critical: it moves up
			next.Rows[i].Count()
		}
	}
	model.SortRemote(next.Rows)
	a.Update(fleetAnswerMsg{seq: feed.publish(next)})
	f := topIs[*remoteFleetScreen](t, a)
	if f.fleet != next || f.selected().QMgr != "QM02" {
		t.Fatalf("after the answer: fleet replaced %v, cursor on %s", f.fleet == next, f.selected().QMgr)
	}
	if !strings.Contains(a.View(), "⚠ 2 crit 1 warn") {
		t.Errorf("the header does not count the new answer's alerts:\n%s", a.View())
	}
}

// Label values are outside input: an escape sequence in a queue manager
// name, an instance or a silence's comment never reaches the terminal.
func TestRemoteFleetLabelsNeverReachTheTerminal(t *testing.T) {
	fl := remoteFixture()
	fl.Rows[0].QMgr = "QM\x1b[2JX"
	fl.Rows[0].Instance = "host\x1b]0;owned\x07:9464"
	fl.Rows[0].Alerts = []model.RemoteAlert{{Rule: "R1c\x1b[31m", Queue: "Q\x9b1m", Severity: actions.Critical, Count: 1,
		Silence: &model.Silence{By: "eve\x1b[5m", Comment: "ok\x1b[0m\r\n"}}}
	fl.Rows[0].Count()
	a, _ := newRemoteApp(t, 200, 50, fl)
	v := a.View()
	if strings.ContainsAny(v, "\x1b\x07\r") || strings.ContainsRune(v, '\u009b') || !utf8.ValidString(v) {
		t.Fatalf("control bytes reached the view:\n%q", v)
	}
	if !strings.Contains(v, `QM\x1b[2JX`) {
		t.Errorf("the name is not shown escaped:\n%s", v)
	}
}

// A seeded random walk over the fleet from Prometheus and the one
// queue manager it has a connection to: every frame keeps its size, the
// fleet stays the first screen, and no key conjures a queue manager the
// session was not given.
func TestRemoteFleetWalk(t *testing.T) {
	for _, seed := range []uint64{1, 2} {
		a, feed := newRemoteApp(t, 100, 30, remoteFixture(), "QM02")
		a.Update(snapshotMsg{src: 0, snap: fleetSnapshot("QM02", 1, clock, 5, 20)})
		rng := rand.New(rand.NewPCG(seed, 0))
		var trail []string
		for step := range 600 {
			if step%50 == 0 {
				a.Update(fleetAnswerMsg{seq: feed.publish(remoteFixture())})
			}
			k := walkKeys[rng.IntN(len(walkKeys))]
			trail = append(trail, k)
			press(a, k)
			lines := strings.Split(a.View(), "\n")
			if len(lines) != 30 {
				t.Fatalf("seed %d: %d lines after %v", seed, len(lines), trail)
			}
			if _, ok := a.stack[0].(*remoteFleetScreen); !ok {
				t.Fatalf("seed %d: the first screen is %T after %v", seed, a.stack[0], trail)
			}
			if len(a.state.Order) != 1 {
				t.Fatalf("seed %d: the session watches %v after %v", seed, a.state.Order, trail)
			}
		}
	}
}
