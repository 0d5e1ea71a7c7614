// The flows run the App in a real Bubble Tea program (teatest).

package ui

import (
	"bytes"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/exp/teatest"

	"github.com/poisonwatch/poisonwatch/actions/ops"
	"github.com/poisonwatch/poisonwatch/mqwatch"
)

// flowWait bounds every wait: generous, because -race on a busy machine is slow.
const flowWait = 10 * time.Second

// flow is one App running in a teatest program, fed by hand through its source.
type flow struct {
	t   *testing.T
	tm  *teatest.TestModel
	src *fakeSource
	ops *fakeOps
}

// startFlow starts the App at 120x35 with fakeOps. The source's channel is
// unbuffered, so a completed send means the App's feed command took the
// snapshot, and a second send completes only once Update has handled the first.
func startFlow(t *testing.T, o Options) *flow {
	t.Helper()
	ops := &fakeOps{msg: sampleMessage()}
	o.Ops = ops
	a, src := newTestApp(t, 120, 35, o)
	src.ch = make(chan *mqwatch.Snapshot)
	tm := teatest.NewTestModel(t, a, teatest.WithInitialTermSize(120, 35))
	f := &flow{t: t, tm: tm, src: src, ops: ops}
	t.Cleanup(func() {
		_ = tm.Quit()
		tm.WaitFinished(t, teatest.WithFinalTimeout(flowWait))
		close(src.ch) // ends the feed command still waiting for a snapshot
	})
	return f
}

func (f *flow) feed(s *mqwatch.Snapshot) {
	select {
	case f.src.ch <- s:
	case <-time.After(flowWait):
		f.t.Fatalf("the App did not take snapshot %d", s.Seq)
	}
}

// press sends bindings of the key map (km).
func (f *flow) press(bs ...key.Binding) {
	for _, b := range bs {
		f.tm.Send(bindingMsg(f.t, b))
	}
}

func (f *flow) keys(ks ...string) {
	for _, k := range ks {
		f.tm.Send(keyMsg(k))
	}
}

// waitFor waits until the program has drawn every one of texts since the
// previous wait (the standard renderer redraws changed lines only).
func (f *flow) waitFor(texts ...string) {
	f.t.Helper()
	teatest.WaitFor(f.t, f.tm.Output(), func(out []byte) bool {
		for _, s := range texts {
			if !bytes.Contains(out, []byte(s)) {
				return false
			}
		}
		return true
	}, teatest.WithDuration(flowWait), teatest.WithCheckInterval(10*time.Millisecond))
}

// quit presses ctrl+c, which quits without asking (q asks first when marks
// would be lost: TestQuitAsksWhenMarksOrASeatWouldBeLost), and returns the
// App as the program left it.
func (f *flow) quit() *App {
	f.t.Helper()
	f.tm.Send(tea.KeyMsg{Type: tea.KeyCtrlC})
	m := f.tm.FinalModel(f.t, teatest.WithFinalTimeout(flowWait))
	a, ok := m.(*App)
	if !ok {
		f.t.Fatalf("final model is %T, want *App", m)
	}
	return a
}

// TestFlowRequeueFromDeadQ walks the incident end to end: dashboard, DEADQ
// triage, the largest group, two messages marked, requeued after typing the
// count (the terminal shrinks to 80x24 while the dialog is open), then the
// audit view lists both.
func TestFlowRequeueFromDeadQ(t *testing.T) {
	f := startFlow(t, Options{User: "op1"})
	f.feed(incident(1, 300))
	f.waitFor("QM1.DEADQ", "Alerts (5)")

	f.press(km.DeadQ)
	f.waitFor("grouped by reason+destination", "×290")
	f.press(km.Enter)
	f.waitFor("2085 UNKNOWN_OBJECT_NAME → INVOICE.IN (QM2)", "DESTINATION")
	f.press(km.Mark, km.Mark)
	f.waitFor("2 marked")

	f.requeueMarked(2, func() {
		f.tm.Send(tea.WindowSizeMsg{Width: 80, Height: 24})
		f.waitFor("Requeue 2 messages from QM1.DEADQ")
	})
	f.press(km.Audit)
	f.waitFor("Audit: 1 act this session", "2 requeued")
	f.press(km.Enter)
	f.waitFor("requeue by op1 from QM1.DEADQ on QM1: 2 messages")
	a := f.quit()

	v := a.View()
	checkFrame(t, v, 80, 24)
	golden(t, v)
	if n := countLines(v, "INVOICE.IN", "requeued"); n != 2 {
		t.Errorf("the run's messages show %d requeued rows to INVOICE.IN, want 2:\n%s", n, v)
	}
	es := a.sess.journal.Entries()
	if len(es) != 1 || len(f.ops.runs) != 1 || len(f.ops.runs[0].Messages) != 2 {
		t.Fatalf("%d entries, runs %+v: want one run of the 2 marked messages", len(es), f.ops.runs)
	}
	if r := es[0]; r.Op != string(ops.OpRequeue) || r.User != "op1" || r.Queue != "QM1.DEADQ" || r.QMgr != "QM1" || r.Counts.Done != 2 {
		t.Errorf("journal: %s by %q from %s on %s: %+v", r.Op, r.User, r.Queue, r.QMgr, r.Counts)
	}
	if len(f.src.forgot) != 2 || f.src.refresh == 0 || a.sess.marks.Len() != 0 {
		t.Errorf("after the run: watcher forgot %d, refreshes %d, still marked %d", len(f.src.forgot), f.src.refresh, a.sess.marks.Len())
	}
}

// requeueMarked presses R on the marked messages, waits for the dry run,
// runs meanwhile (if set), types the count, runs and closes the result.
func (f *flow) requeueMarked(n int, meanwhile func()) {
	f.t.Helper()
	count := strconv.Itoa(n)
	f.press(km.Requeue)
	f.waitFor("REQUEUE — "+count+" message(s) from QM1.DEADQ", "(type "+count+" to confirm)")
	if meanwhile != nil {
		meanwhile()
	}
	f.keys(count, "enter") // typing the count focuses Run
	f.waitFor("done: " + count + " · skipped 0 · failed 0")
	f.keys("enter")
}

// countLines counts the lines of v that contain every one of parts.
func countLines(v string, parts ...string) int {
	n := 0
	for _, l := range strings.Split(v, "\n") {
		all := true
		for _, p := range parts {
			all = all && strings.Contains(l, p)
		}
		if all {
			n++
		}
	}
	return n
}

// TestFlowFreeze: f shows a banner and holds what arrives (the barrier send
// proves the snapshot reached Update while frozen); f again shows the newest.
// Whether the resume case's snapshot is handled before or after the second f
// is up to the scheduler, so that case checks only the state after resuming.
func TestFlowFreeze(t *testing.T) {
	t.Run("held_while_frozen", func(t *testing.T) {
		f := startFlow(t, Options{})
		f.feed(incident(1, 30))
		f.waitFor("30/50k")
		f.press(km.Freeze)
		f.waitFor("FROZEN — f resumes")
		held := incident(2, 60)
		f.feed(held)
		f.feed(held) // taken only once Update has handled the first
		a := f.quit()

		v := a.View()
		checkFrame(t, v, 120, 35)
		golden(t, v)
		if got := a.current().Queues["QM1.DEADQ"].View.Status.Depth; got != 30 {
			t.Errorf("the frozen screen moved: DEADQ depth %d, want 30", got)
		}
		if n := len(a.pending[0]); n == 0 || a.pending[0][n-1] != held {
			t.Errorf("the snapshot that arrived while frozen is not held: %+v", a.pending)
		}
	})
	t.Run("resume_shows_the_newest_snapshot", func(t *testing.T) {
		f := startFlow(t, Options{})
		f.feed(incident(1, 30))
		f.waitFor("30/50k")
		f.press(km.Freeze)
		f.waitFor("FROZEN — f resumes")
		f.feed(incident(2, 60))
		f.press(km.Freeze)
		f.waitFor("60/50k")
		a := f.quit()

		v := a.View()
		checkFrame(t, v, 120, 35)
		golden(t, v)
		if a.sess.frozen || len(a.pending[0]) != 0 || strings.Contains(v, "FROZEN") {
			t.Errorf("still frozen (%v) or holding %d snapshots after resume", a.sess.frozen, len(a.pending[0]))
		}
	})
}

// TestFlowReadOnly: the badge says [RO], R on marked messages opens no dialog
// and runs nothing, and says why.
func TestFlowReadOnly(t *testing.T) {
	f := startFlow(t, Options{ReadOnly: true})
	f.feed(incident(1, 300))
	f.waitFor("[RO]", "QM1.DEADQ")
	f.press(km.DeadQ, km.Enter, km.Mark)
	f.waitFor("1 marked")
	f.press(km.Requeue)
	f.waitFor("read-only: actions are off")
	a := f.quit()

	v := a.View()
	checkFrame(t, v, 120, 35)
	golden(t, v)
	if a.actionDialog() != nil || len(f.ops.runs) != 0 {
		t.Fatalf("read-only opened a dialog (%v) or ran %d actions", a.actionDialog() != nil, len(f.ops.runs))
	}
	if !strings.Contains(v, "[RO]") || strings.Contains(v, "[RW]") {
		t.Errorf("badge is not [RO]:\n%s", v)
	}
}

// requeueToAudit requeues the first two messages of the largest DEADQ group
// and opens the audit view.
func requeueToAudit(t *testing.T, w, h int) *flow {
	f := startFlow(t, Options{User: "op1"})
	f.tm.Send(tea.WindowSizeMsg{Width: w, Height: h})
	f.feed(incident(1, 300))
	f.waitFor("QM1.DEADQ")
	f.press(km.DeadQ, km.Enter, km.Mark, km.Mark)
	f.waitFor("2 marked")
	f.requeueMarked(2, nil)
	f.press(km.Audit)
	f.waitFor("Audit: 1 act this session")
	return f
}

func TestFlowAuditKeysMoveTheCursor(t *testing.T) {
	f := requeueToAudit(t, 120, 35)
	f.press(km.Enter, km.Down)
	a := f.quit()
	if c := topIs[*auditRunScreen](t, a).grid.Cursor; c != 1 {
		t.Fatalf("j left the run's cursor on row %d, want 1", c)
	}
}

// TestFlowAuditShowsTheRunAt80Columns: the run's queue manager, action and
// counts fit 80 columns.
func TestFlowAuditShowsTheRunAt80Columns(t *testing.T) {
	f := requeueToAudit(t, 80, 24)
	a := f.quit()
	v := a.View()
	checkFrame(t, v, 80, 24)
	if n := countLines(v, "QM1", "requeue", "QM1.DEADQ", "2 requeued"); n != 1 {
		t.Fatalf("%d audit rows show the run at 80 columns, want 1:\n%s", n, v)
	}
}

// growingDeadQ is incident(seq, 0) at clock+seq minutes, its DEADQ holding
// n messages of which the last added arrived since the previous poll.
func growingDeadQ(seq uint64, n, added int) *mqwatch.Snapshot {
	s := deadQIncident(seq, n)
	s.Time = clock.Add(time.Duration(seq) * time.Minute)
	inv := s.Inventories["QM1.DEADQ"]
	d := mqwatch.InventoryDelta{Resync: added == 0}
	for i := n - added; i < n; i++ {
		d.Added = append(d.Added, *inv.At(i))
	}
	s.Deltas = map[string]mqwatch.InventoryDelta{"QM1.DEADQ": d}
	return s
}

// TestFlowFreezeKeepsArrivalRate: 60 dead letters a minute keep arriving
// while the screen is frozen; after resuming, the DEADQ's arrival rate (the
// R8d growth alert and the trend line) must still say 60 a minute. It drives
// Update directly, so the order of snapshots and keys is exact.
func TestFlowFreezeKeepsArrivalRate(t *testing.T) {
	a, _ := newTestApp(t, 120, 35, Options{})
	a.Update(snapshotMsg{snap: growingDeadQ(1, 300, 0)})
	a.Update(snapshotMsg{snap: growingDeadQ(2, 360, 60)})
	pressKey(t, a, km.Freeze)
	a.Update(snapshotMsg{snap: growingDeadQ(3, 420, 60)})
	a.Update(snapshotMsg{snap: growingDeadQ(4, 480, 60)})
	pressKey(t, a, km.Freeze)
	got, ok := a.current().Queues["QM1.DEADQ"].ArrivalsPerMinute()
	if !ok || got != 60 {
		t.Fatalf("DEADQ arrivals %.1f/min (%v) after resuming, want 60/min", got, ok)
	}
	if v := a.View(); !strings.Contains(v, "↑60/m") {
		t.Fatalf("trend line does not show ↑60/m:\n%s", v)
	}
}
