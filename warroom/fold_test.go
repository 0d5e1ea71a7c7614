package warroom

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/poisonwatch/poisonwatch/actions"
	"github.com/poisonwatch/poisonwatch/actions/ops"
	"github.com/poisonwatch/poisonwatch/ui"
)

// handSession is a session's App whose program loop the test runs: every
// message is taken on one goroutine, as Bubble Tea would, and each picture
// taken is rendered and its poll's sequence number told on shown.
type handSession struct {
	do    chan func(*ui.App)
	shown chan uint64 // latest-wins: the newest poll on view
}

func (e *feedEnv) handSession(t *testing.T) *handSession {
	t.Helper()
	app, release := e.session()
	t.Cleanup(release)
	s := &handSession{do: make(chan func(*ui.App)), shown: make(chan uint64, 1)}
	msgs := make(chan tea.Msg, 16)
	exec := e.commands(msgs)
	exec(app.Init())
	app.Update(tea.WindowSizeMsg{Width: 160, Height: 50})
	go func() {
		for {
			select {
			case m := <-msgs:
				if _, isKey := m.(tea.KeyMsg); m == nil || isKey {
					continue
				}
				_, c := app.Update(m)
				exec(c)
				if fmt.Sprintf("%T", m) == "ui.pictureMsg" {
					_ = app.View()
					s.tell(app)
				}
			case f := <-s.do:
				f(app)
			case <-e.ctx.Done():
				return
			}
		}
	}()
	return s
}

func (s *handSession) tell(app *ui.App) {
	q := app.State().QMgrs["QM1"]
	if q == nil || q.Snap == nil {
		return
	}
	select {
	case <-s.shown:
	default:
	}
	s.shown <- q.Snap.Seq
}

// at waits until the session shows poll seq.
func (s *handSession) at(t *testing.T, seq uint64) {
	t.Helper()
	timeout := time.After(10 * time.Second)
	for {
		select {
		case got := <-s.shown:
			if got >= seq {
				return
			}
		case <-timeout:
			t.Fatalf("the session never showed poll %d", seq)
		}
	}
}

// sees is what the session shows of the room's alerts: the header's
// counts and the alert list, each alert with its history.
func (s *handSession) sees() (badge string, alerts []string, seq uint64) {
	done := make(chan struct{})
	s.do <- func(app *ui.App) {
		defer close(done)
		badge = regexp.MustCompile(`⚠ \d+ crit \d+ warn`).FindString(app.View())
		q := app.State().QMgrs["QM1"]
		seq = q.Snap.Seq
		for _, al := range q.Alerts {
			h := al.History
			alerts = append(alerts, fmt.Sprintf("%s %s %s %q since %s flaps %d", al.Severity.Label(), al.Rule, al.Queue, al.Text,
				h.Start.Format(time.RFC3339Nano), h.Flaps))
		}
	}
	<-done
	return badge, alerts, seq
}

// TestLateJoinerSeesTheRoomsAlerts: a session that joins after the alerts
// have history shows the same counts and the same alerts, histories
// included, as the session that was there, at the same poll. A DEADQ's
// growth (R8d) needs two polls of depth: a session folding for itself
// would lack it for its first polls.
func TestLateJoinerSeesTheRoomsAlerts(t *testing.T) {
	e := newFeedEnv(t, 200)
	alice := e.handSession(t)
	for range 3 {
		putDeadLetters(t, e.ctx, e.qm, 20)
		e.poll(t)
	}
	bob := e.handSession(t)
	for round := range 2 {
		putDeadLetters(t, e.ctx, e.qm, 20)
		e.poll(t)
		alice.at(t, e.seq)
		bob.at(t, e.seq)
		ab, al, aseq := alice.sees()
		bb, bl, bseq := bob.sees()
		if aseq != e.seq || bseq != e.seq {
			t.Fatalf("round %d: sessions on polls %d and %d, want %d", round, aseq, bseq, e.seq)
		}
		if ab == "" || ab != bb {
			t.Errorf("round %d: header counts %q (there from the start) and %q (joined late), want the same", round, ab, bb)
		}
		if !slices.Equal(al, bl) {
			t.Errorf("round %d: alerts differ\nthere from the start:\n  %v\njoined late:\n  %v", round, al, bl)
		}
		if !slices.ContainsFunc(bl, func(s string) bool { return regexp.MustCompile(`^warn R8d QM1\.DEADQ "growing`).MatchString(s) }) {
			t.Errorf("round %d: the late joiner does not see the DEADQ growing (R8d): %v", round, bl)
		}
	}
	if n := e.fold.Sessions(); n != 2 {
		t.Errorf("the fold serves %d sessions, want 2", n)
	}
}

// TestRequeueLoopIsEverySessionsAlert: a run of one session whose messages
// came back (R10f) is an alert in every session of the room at the next
// poll, not only in the session that ran it.
func TestRequeueLoopIsEverySessionsAlert(t *testing.T) {
	e := newFeedEnv(t, 20)
	alice, bob := e.handSession(t), e.handSession(t)
	res := &ops.OpResult{Plan: ops.OpPlan{Request: ops.OpRequest{Op: ops.OpRequeue, Queue: "QM1.DEADQ"}}, Done: 20,
		Verify: &ops.OpVerify{Watched: 20, CameBack: 20, Where: "QM1.DEADQ", Started: time.Now()}}
	// alice's engine writes the run and what came back to the room's
	// journal; the room's model reads it at the next poll.
	j := e.fold.state.Journal
	ent := j.Append(ops.RunEntry(res, res.Verify.Started, "alice", "QM1"))
	j.Append(ops.CameBackEntry(res.Verify, ent, time.Now()))
	e.poll(t)
	for name, s := range map[string]*handSession{"alice (who ran it)": alice, "bob": bob} {
		s.at(t, e.seq)
		_, alerts, _ := s.sees()
		if !slices.ContainsFunc(alerts, func(a string) bool { return strings.HasPrefix(a, "crit R10f QM1.DEADQ") }) {
			t.Errorf("%s does not see the requeue loop: %v", name, alerts)
		}
	}
}

// TestRoomModelHasTheServersQueueManagers: the room's model knows every
// watched queue manager with what the snapshots do not say (consumer
// styles, the interval), from before the first poll, and its warm-up ends
// when the demo's does.
func TestRoomModelHasTheServersQueueManagers(t *testing.T) {
	warm := make(chan struct{})
	cfg := Config{Sources: []ui.Source{named{nil, "QM1"}, named{nil, "QM2"}}, Interval: time.Minute, Warming: warm,
		ConsumerStyles: map[string]map[string]actions.Style{"QM2": {"ORDERS.IN": actions.ASF}}}
	f := NewFold(roomModel(&cfg))
	pic := f.Latest()
	if len(pic.Order) != 2 || pic.Interval != time.Minute || pic.QMgrs["QM2"].Styles["ORDERS.IN"] != actions.ASF {
		t.Fatalf("room model: queue managers %v, interval %s, QM2 styles %v", pic.Order, pic.Interval, pic.QMgrs["QM2"].Styles)
	}
	if !pic.Warming {
		t.Fatal("the room's model is not warming while the demo warms up")
	}
	f.Warmed()
	if f.state.Warming {
		t.Fatal("the room's model still warms up after the demo's warm-up")
	}
}

// commands runs a session's commands as Bubble Tea's loop would, each in a
// goroutine of its own, batches split, their messages sent to msgs.
func (e *feedEnv) commands(msgs chan<- tea.Msg) func(tea.Cmd) {
	var exec func(tea.Cmd)
	exec = func(c tea.Cmd) {
		if c == nil {
			return
		}
		go func() {
			m := c()
			if batch, ok := m.(tea.BatchMsg); ok {
				for _, c := range batch {
					exec(c)
				}
				return
			}
			select {
			case msgs <- m:
			case <-e.ctx.Done():
			}
		}()
	}
	return exec
}
