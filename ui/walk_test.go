package ui

import (
	"context"
	"math/rand/v2"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"

	"github.com/poisonwatch/poisonwatch/demo"
	"github.com/poisonwatch/poisonwatch/mqwatch"
)

// demoPolls runs the built-in demo and returns rounds of snapshots, one per
// queue manager a round, as the dashboard's watchers see them; the focus of
// each round browses another of the queue manager's queues, so the walk has
// input-queue heads to open. Started once per test binary.
var demoPolls = sync.OnceValues(func() ([][]*mqwatch.Snapshot, error) {
	s, err := demo.Builtin()
	if err != nil {
		return nil, err
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	run, err := s.Start(ctx)
	if err != nil {
		return nil, err
	}
	defer func() { cancel(); <-run.Done() }()
	var rounds [][]*mqwatch.Snapshot
	var watchers []*mqwatch.Watcher
	for _, qm := range run.QMgrs() {
		w := mqwatch.NewWatcher(mqwatch.WatchConfig{Name: qm.Name(), Connector: qm, Interval: 20 * time.Millisecond,
			Connect: mqwatch.ConnectOptions{ApplName: "poisonwatch"}})
		go w.Run(ctx)
		watchers = append(watchers, w)
	}
	focus := []string{"ORDERS.IN", "PAYMENTS.IN", "INVOICE.IN", "AUDIT.IN", ""}
	for r := 0; r < 8; r++ {
		var round []*mqwatch.Snapshot
		for _, w := range watchers {
			w.SetFocus(focus[r%len(focus)])
			w.Refresh()
			<-w.Snapshots() // the poll under way may predate the focus
			round = append(round, <-w.Snapshots())
		}
		rounds = append(rounds, round)
	}
	return rounds, nil
})

// walkKeys are the keys the random walk presses, navigation weighted up.
var walkKeys = strings.Fields("j j j k enter enter enter enter esc esc tab d space ctrl+a u R M D E P W t y l h o s a A m / x I f ? G g : 2 5 jj kjk K Z esc")

// TestRandomWalkKeepsScreensConsistent drives seeded random key sequences
// over the demo's snapshots and checks after every step that the breadcrumb
// names the screen's queue and message, the message shown belongs to that
// queue, and an open dialog acts on that queue.
func TestRandomWalkKeepsScreensConsistent(t *testing.T) {
	rounds, err := demoPolls()
	if err != nil {
		t.Fatal(err)
	}
	// The walk must reach the screens it checks, or it proves nothing: over
	// the seeds together, since one seed's path changes with any key's effect.
	reached := map[string]int{}
	for _, seed := range []uint64{1, 2, 3} {
		t.Run("seed"+itoa(int(seed)), func(t *testing.T) {
			ops := &fakeOps{msg: sampleMessage()}
			a := newDemoApp(t, rounds[0], Options{Ops: ops, ExportDir: t.TempDir()})
			rng := rand.New(rand.NewPCG(seed, 0))
			var trail []string
			seen := map[string]int{}
			for step := 0; step < 1500; step++ {
				if step%40 == 0 {
					feedRound(a, rounds[(step/40)%len(rounds)])
				}
				k := walkKeys[rng.IntN(len(walkKeys))]
				trail = append(trail, k)
				press(a, k)
				seen[a.top().location().Screen.String()]++
				if a.actionDialog() != nil {
					seen["dialog"]++
				}
				if _, ok := a.top().(*rulesDialog); ok {
					seen["rules dialog"]++
				}
				if msg := checkConsistent(a); msg != "" {
					t.Fatalf("after %d keys (last 30: %v): %s\n%s", step+1, trail[max(len(trail)-30, 0):], msg, a.View())
				}
			}
			for s, n := range seen {
				reached[s] += n
			}
			t.Logf("steps per screen: %v", seen)
		})
	}
	for _, s := range []string{"Message", "Group", "Triage", "dialog", "Alert", "rules dialog", "Fleet"} {
		if reached[s] == 0 {
			t.Errorf("the walk never reached %s: %v", s, reached)
		}
	}
}

// newDemoApp is an App watching the demo's queue managers at 120x35.
func newDemoApp(t testing.TB, first []*mqwatch.Snapshot, o Options) *App {
	a, _ := newTestApp(t, 120, 35, o)
	var srcs []Source
	for _, s := range first {
		srcs = append(srcs, &fakeSource{name: s.QMgrName, ch: make(chan *mqwatch.Snapshot, 1)})
	}
	o2 := a.opt
	o2.Sources = srcs
	a = New(o2)
	a.Update(windowSize(120, 35))
	feedRound(a, first)
	return a
}

func feedRound(a *App, round []*mqwatch.Snapshot) {
	for i, s := range round {
		a.Update(snapshotMsg{src: i, snap: s})
	}
}

// checkConsistent returns what is wrong with the screen on view, "" if nothing.
func checkConsistent(a *App) string {
	top := a.top()
	loc := top.location()
	v := a.View()
	if a.View() != v {
		return "a second View differs from the first: View changed something"
	}
	lines := strings.Split(v, "\n")
	crumb := strings.TrimRight(ansi.Strip(lines[1]), " ")
	want := loc.Title()
	// The last crumb names the screen on view; a narrow line may cut it, with
	// "…", never replace it. What follows two blanks is a flash or the marks.
	last := crumb
	if i := strings.LastIndex(crumb, "› "); i >= 0 {
		last = crumb[i+len("› "):]
	}
	if i := strings.Index(last, "  "); i >= 0 {
		last = last[:i]
	}
	if cut := strings.TrimSuffix(last, "…"); cut == "" || !strings.HasPrefix(want, cut) || (cut == last && last != want) {
		return "breadcrumb " + crumb + " does not end in " + want
	}
	for i := 1; i < len(a.stack); i++ {
		prev, cur := a.stack[i-1].location(), a.stack[i].location()
		if cur.QMgr != "" && prev.QMgr != "" && cur.QMgr != prev.QMgr {
			return "stack mixes queue managers " + prev.QMgr + " and " + cur.QMgr
		}
		if d, ok := a.stack[i].(*detailScreen); ok {
			if prev.Queue != cur.Queue {
				return "message of " + cur.Queue + " opened from " + prev.Queue
			}
			if d.sum.Key() != cur.Msg {
				return "message screen shows another message than its location"
			}
		}
	}
	if q, ok := top.(*queueScreen); ok && q.q != nil && q.q.Snap != nil {
		snap := q.q.Snap
		inv, f := snap.Inventories[loc.Queue], snap.Focus
		switch {
		case q.msgs.inv != nil && q.msgs.inv != inv:
			return "queue screen of " + loc.Queue + " lists another queue's inventory"
		case q.msgs.inv == nil && q.msgs.Len() > 0 && (f == nil || f.Queue != loc.Queue):
			return "queue screen of " + loc.Queue + " lists a browse of another queue"
		}
	}
	if d := a.actionDialog(); d != nil {
		// The dialog is on the stack above the screen it acts for.
		below := a.stack[len(a.stack)-2]
		bl := below.location()
		if d.req.Queue != loc.Queue || d.req.QMgr != loc.QMgr || bl.Queue != loc.Queue || bl.QMgr != loc.QMgr {
			return "dialog acts on " + d.req.QMgr + "/" + d.req.Queue + ", breadcrumb names " + loc.QMgr + "/" + loc.Queue + " over " + bl.QMgr + "/" + bl.Queue
		}
		if ds, ok := below.(*detailScreen); ok && (len(d.req.Messages) != 1 || d.req.Messages[0].Key() != ds.sum.Key()) {
			return "dialog on the message screen acts on other messages"
		}
	}
	return ""
}

// TestBackFromDeadQMessageShowsTheQueuesMessage is the reported sequence:
// ORDERS.IN, one of its messages, d, the DEADQ's messages, one of them, then
// esc three times; the breadcrumb must name the screen shown and R must act
// on the queue that screen shows.
func TestBackFromDeadQMessageShowsTheQueuesMessage(t *testing.T) {
	ops := &fakeOps{msg: sampleMessage()}
	a, _ := newTestApp(t, 120, 35, Options{Ops: ops})
	snap := incident(1, 30)
	snap.Focus = &mqwatch.FocusView{Queue: "ORDERS.IN", Messages: snap.Heads["ORDERS.IN"]}
	a.Update(snapshotMsg{snap: snap})
	press(a, "j", "enter", "enter", "d", "tab", "enter", "esc", "esc", "esc")
	if msg := checkConsistent(a); msg != "" {
		t.Fatal(msg)
	}
	crumbs := strings.Join(a.crumbs(), " › ")
	if crumbs != "Dashboard" {
		t.Fatalf("three esc after d, tab, enter: %q, want the dashboard (d jumps to Dashboard › DEADQ)", crumbs)
	}
	press(a, "enter", "enter", "R") // the cursor is still on ORDERS.IN
	if a.actionDialog() == nil || a.actionDialog().req.Queue != "ORDERS.IN" || a.actionDialog().req.Messages[0].Key() != under[*detailScreen](t, a).sum.Key() {
		t.Fatalf("R on ORDERS.IN's message opened %+v", a.actionDialog())
	}
}

// TestDemoDeadLettersAreStampedOnTheScenarioClock: a consumer dead-letters a
// message some time after it was put, so the MQDLH put time is at or after
// the MQMD's, never ahead of the poll, and the dead letters of the warm-up
// are spread over it rather than all stamped with the wall clock at start.
func TestDemoDeadLettersAreStampedOnTheScenarioClock(t *testing.T) {
	rounds, err := demoPolls()
	if err != nil {
		t.Fatal(err)
	}
	checked := 0
	for _, snap := range rounds[0] {
		inv := snap.Inventories[snap.QMgr.DeadQ]
		distinct := map[time.Time]bool{}
		for i := 0; inv != nil && i < inv.Len(); i++ {
			m := inv.At(i)
			if m.DLHPutTime.IsZero() || m.PutTime.IsZero() {
				continue
			}
			checked++
			distinct[m.DLHPutTime.Truncate(time.Second)] = true
			if m.DLHPutTime.Before(m.PutTime.Add(-time.Second)) || m.DLHPutTime.After(snap.Time.Add(snap.Poll.Duration+time.Second)) {
				t.Fatalf("%s: MQDLH put %s, MQMD put %s, poll %s (took %s)", snap.QMgrName, m.DLHPutTime, m.PutTime, snap.Time, snap.Poll.Duration)
			}
		}
		if inv != nil && inv.Len() > 20 && len(distinct) < 3 {
			t.Errorf("%s: %d dead letters stamped with %d distinct MQDLH times: not the scenario's clock", snap.QMgrName, inv.Len(), len(distinct))
		}
	}
	if checked == 0 {
		t.Fatal("the demo produced no dead letters with both put times")
	}
}
