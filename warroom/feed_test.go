package warroom

import (
	"context"
	"fmt"
	"io"
	"runtime"
	"testing"
	"time"

	"github.com/poisonwatch/poisonwatch/incident/journal"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/poisonwatch/poisonwatch/actions"
	"github.com/poisonwatch/poisonwatch/backend/embedded/embeddedtest"
	"github.com/poisonwatch/poisonwatch/codec/mqfmt"
	"github.com/poisonwatch/poisonwatch/model"
	"github.com/poisonwatch/poisonwatch/mqwatch"
	"github.com/poisonwatch/poisonwatch/ui"
)

const feedScript = `
DEFINE QLOCAL(QM1.DEADQ) MAXDEPTH(5000)
ALTER QMGR DEADQ(QM1.DEADQ)
DEFINE QLOCAL(ORDERS.IN) BOTHRESH(3) BOQNAME(ORDERS.BO)
DEFINE QLOCAL(ORDERS.BO)
DEFINE QLOCAL(PAYMENTS.IN)
`

// named gives a watcher the name the ui shows.
type named struct {
	*mqwatch.Watcher
	name string
}

func (n named) Name() string { return n.name }

// feedEnv is an embedded queue manager with dead letters, watched by one
// watcher (polling only when asked) shared by a Feed that folds into the
// room's model.
type feedEnv struct {
	qm    *embeddedtest.QM
	w     *mqwatch.Watcher
	feed  *Feed
	fold  *Fold
	probe *Sub
	seq   uint64 // of the last snapshot the probe read
	ctx   context.Context
}

func newFeedEnv(t testing.TB, deadLetters int) *feedEnv {
	t.Helper()
	qm := embeddedtest.New(t, embeddedtest.Options{Name: "QM1", MQSC: feedScript})
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	putDeadLetters(t, ctx, qm, deadLetters)
	// An hour between polls: the test asks for each poll itself.
	w := mqwatch.NewWatcher(mqwatch.WatchConfig{Name: "QM1", Connector: qm, Interval: time.Hour})
	go w.Run(ctx)
	st := model.New(nil, time.Hour)
	st.Journal = journal.New() // the room's, as serve gives it
	fold := NewFold(st)
	f := NewFeed(named{w, "QM1"}, fold)
	go f.Run(ctx)
	e := &feedEnv{qm: qm, w: w, feed: f, fold: fold, probe: f.Subscribe(), ctx: ctx}
	e.next(t) // the watcher's first poll, at start: it reads every inventory in full
	return e
}

func putDeadLetters(t testing.TB, ctx context.Context, qm mqwatch.Connector, n int) {
	t.Helper()
	c, err := qm.Connect(ctx, mqwatch.ConnectOptions{ApplName: "feed-test"})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	for i := range n {
		md := mqfmt.NewMQMD()
		md.Format = mqfmt.FmtString
		md.PutApplName = "orders-app"
		dmd, data, err := actions.ToDeadLetter(md, []byte(fmt.Sprintf(`{"order":%d}`, i)), actions.DeadLetterOptions{
			Reason: mqfmt.RCQFull, DestQName: "ORDERS.IN", DestQMgrName: "QM1", PutApplName: "amqrmppa", Now: time.Now()})
		if err != nil {
			t.Fatal(err)
		}
		embeddedtest.Put(t, c, "QM1.DEADQ", dmd, data)
	}
}

// poll asks for one poll and waits until the probe session has it; it
// returns the port calls the queue manager counted meanwhile.
func (e *feedEnv) poll(t testing.TB) int64 {
	t.Helper()
	e.qm.ResetStats()
	e.w.Refresh()
	e.next(t)
	return e.qm.Stats().Total().Calls
}

// next waits for the probe to read a snapshot newer than the last.
func (e *feedEnv) next(t testing.TB) {
	t.Helper()
	for {
		select {
		case snap := <-e.probe.Snapshots():
			if snap.Seq <= e.seq {
				continue // the one the probe was given when it subscribed
			}
			e.seq = snap.Seq
			return
		case <-time.After(10 * time.Second):
			t.Fatal("no snapshot within 10s")
		}
	}
}

// attach starts n sessions: each a real dashboard App in its own program,
// on its own subscriptions, showing the room's model, as serve runs them.
func (e *feedEnv) attach(t testing.TB, n int) {
	t.Helper()
	for range n {
		app, release := e.session()
		p := tea.NewProgram(app, tea.WithInput(nil), tea.WithOutput(io.Discard), tea.WithContext(e.ctx))
		go p.Run() //nolint:errcheck // ends with the test's context
		p.Send(tea.WindowSizeMsg{Width: 120, Height: 40})
		t.Cleanup(func() { p.Kill(); release() })
	}
}

// session is a session's App as serve builds it: its subscription to the
// feed and to the room's model; release gives them back.
func (e *feedEnv) session() (*ui.App, func()) { return e.sessionIn(nil) }

// sessionIn is a session seated in a war room (nil: none), whose header
// then carries the room's presence line.
func (e *feedEnv) sessionIn(seat ui.Room) (*ui.App, func()) {
	sub, pics := e.feed.Subscribe(), e.fold.Subscribe()
	app := ui.New(ui.Options{Sources: []ui.Source{sub}, Shared: pics, Interval: time.Hour, Ctx: e.ctx, Room: seat})
	return app, func() { sub.Close(); pics.Close() }
}

// callsPerPoll averages the port calls of polls polls after the sessions
// settled.
func (e *feedEnv) callsPerPoll(t testing.TB, polls int) float64 {
	e.poll(t) // the sessions' first focus requests, if any
	var total int64
	for range polls {
		total += e.poll(t)
	}
	return float64(total) / float64(polls)
}

// TestFeedPollsOncePerIntervalWhateverTheAudience: the queue manager sees the
// same calls per poll with one session and with twenty.
func TestFeedPollsOncePerIntervalWhateverTheAudience(t *testing.T) {
	one := newFeedEnv(t, 200)
	one.attach(t, 1)
	c1 := one.callsPerPoll(t, 5)
	twenty := newFeedEnv(t, 200)
	twenty.attach(t, 20)
	c20 := twenty.callsPerPoll(t, 5)
	t.Logf("port calls per poll: 1 session %.1f, 20 sessions %.1f", c1, c20)
	if c1 == 0 || c1 != c20 {
		t.Fatalf("calls per poll: 1 session %.1f, 20 sessions %.1f; want equal and non-zero", c1, c20)
	}
	if got := twenty.feed.Sessions(); got != 21 { // 20 and the probe
		t.Fatalf("feed has %d sessions, want 21", got)
	}
}

// BenchmarkFeedSessions reports the port calls per poll and the heap each
// session adds, for 1 and 20 sessions:
//
//	go test -run '^$' -bench BenchmarkFeedSessions -benchtime 20x ./warroom/
func BenchmarkFeedSessions(b *testing.B) {
	for _, n := range []int{1, 20} {
		b.Run(fmt.Sprintf("sessions=%d", n), func(b *testing.B) {
			e := newFeedEnv(b, 1000)
			e.poll(b) // the first snapshots, garbage once replaced, are not the sessions'
			e.poll(b)
			before := heap()
			e.attach(b, n)
			e.poll(b)
			e.poll(b)
			time.Sleep(500 * time.Millisecond) // every session folds the latest snapshot
			perSession := float64(heap()-before) / float64(n)
			b.ResetTimer()
			var calls int64
			for range b.N {
				calls += e.poll(b)
			}
			b.ReportMetric(float64(calls)/float64(b.N), "calls/poll")
			b.ReportMetric(perSession/1024, "KiB/session")
		})
	}
}

func heap() int64 {
	runtime.GC()
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return int64(m.HeapAlloc)
}
