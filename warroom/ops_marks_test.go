package warroom

import (
	"bufio"
	"context"
	"errors"
	"os"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/poisonwatch/poisonwatch/incident/journal"

	"github.com/poisonwatch/poisonwatch/actions/ops"
	"github.com/poisonwatch/poisonwatch/model"
	"github.com/poisonwatch/poisonwatch/ui"
)

// chunkedOps are an operator's engines that count the engine runs a run
// over marks makes and call at before each (1-based).
type chunkedOps struct {
	ui.Operations
	started, ended atomic.Int32
	at             func(n int)
}

func (c *chunkedOps) Run(ctx context.Context, req ops.OpRequest, p func(ops.OpProgress)) (ops.OpResult, error) {
	n := int(c.started.Add(1))
	c.at(n)
	defer c.ended.Add(1)
	return c.Operations.Run(ctx, req, p)
}

// intruderOps are the engines of a second operator: a run that reaches
// them while the first one's chunks are under way got the queue's lock in
// the middle of that run.
type intruderOps struct {
	ui.Operations
	a      *chunkedOps
	chunks int32
	inside atomic.Int32
}

func (i *intruderOps) Run(_ context.Context, req ops.OpRequest, _ func(ops.OpProgress)) (ops.OpResult, error) {
	if i.a.started.Load() > 0 && i.a.ended.Load() < i.chunks {
		i.inside.Add(1)
	}
	return ops.OpResult{Plan: ops.OpPlan{Request: req}}, nil
}

// fakeClock lets the check after a run (R10f) wait without waiting.
type fakeClock struct {
	mu  sync.Mutex
	now time.Time
}

func (c *fakeClock) Now() time.Time { c.mu.Lock(); defer c.mu.Unlock(); return c.now }
func (c *fakeClock) advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
}

// TestRunOverMarksHoldsTheQueueForTheWholeRun (issue #35 §3): alice
// requeues 10 marked dead letters 3 at a time, as the dialog runs more
// than model.RunChunk marks; carol tries to act on the queue before every
// chunk, during the check for messages coming back after the last, and
// all along from another goroutine. She is refused for the whole run, the
// room hears of one run with the totals, and the audit names alice only.
func TestRunOverMarksHoldsTheQueueForTheWholeRun(t *testing.T) {
	e := newOpsEnv(t)
	ctx := context.Background()
	putDeadLetters(t, ctx, e.qm, 7) // 10 on the DEADQ
	marks := model.NewSelection()
	for _, s := range browseDeadQ(t, e) {
		marks.Mark(s)
	}
	const chunk, chunks = 3, 4
	clock := &fakeClock{now: time.Now()}
	var checks atomic.Int32
	var refusals []error // carol's, from the run's own goroutine
	var c *SessionOps
	carolTries := func() {
		_, err := c.Run(ctx, requeueAll, nil)
		_, perr := c.Plan(ctx, requeueAll)
		refusals = append(refusals, err, perr)
	}
	eng, err := ops.NewEngine(ops.EngineOptions{Connector: e.qm, QMgr: "QM1", AuditPath: e.audit, ArchiveDir: t.TempDir(),
		User: "server-user", Now: clock.Now, Sleep: func(_ context.Context, d time.Duration) error {
			checks.Add(1) // the check after the last chunk polls: carol tries meanwhile
			carolTries()
			clock.advance(d)
			return nil
		}})
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	var hammered sync.WaitGroup
	hammer := func() { // carol keeps trying, between chunks too
		defer hammered.Done()
		for {
			select {
			case <-done:
				return
			default:
			}
			_, _ = c.Run(ctx, requeueAll, nil)
			runtime.Gosched()
		}
	}
	a := &chunkedOps{Operations: engineOps{eng}, at: func(n int) {
		if n == 1 { // alice holds the queue: from now on carol keeps trying
			hammered.Add(1)
			go hammer()
			return
		}
		carolTries()
	}}
	in := &intruderOps{Operations: e.engines[Operator], a: a, chunks: chunks}
	al := &SessionOps{Engines: a, Seat: e.room.Join(alice), Locks: e.locks}
	c = &SessionOps{Engines: in, Seat: e.room.Join(carol), Locks: e.locks}

	req := ops.OpRequest{Op: ops.OpRequeue, QMgr: "QM1", Queue: "QM1.DEADQ", Verify: 30 * time.Second}
	res, err := ui.RunMarks(ctx, al, req, marks, chunk, nil, nil)
	close(done)
	hammered.Wait()
	checkCarolRefused(t, in, refusals, chunks)
	if err != nil || res.Done != 10 {
		t.Fatalf("alice's run: done %d, err %v", res.Done, err)
	}
	if got := a.ended.Load(); got != chunks {
		t.Fatalf("%d engine runs, want %d chunks of %d", got, chunks, chunk)
	}
	if res.Verify == nil || checks.Load() == 0 {
		t.Fatalf("no check for messages coming back after the last chunk (verify %+v, %d polls)", res.Verify, checks.Load())
	}
	checkOneRunAnnounced(t, e, al.Seat.ID(), res)
	checkAuditNames(t, e.audit, "alice (ssh key SHA256:alicekey)")
	if d, q := depth(t, e.qm, "QM1.DEADQ"), depth(t, e.qm, "ORDERS.IN"); d != 0 || q != 10 {
		t.Fatalf("DEADQ %d, ORDERS.IN %d: want every mark requeued", d, q)
	}
}

// checkCarolRefused: no run of carol's reached her engines during alice's
// run, and each of her tries from it (a run and a dry run before every
// chunk after the first, and at each poll of the check) named alice.
func checkCarolRefused(t *testing.T, in *intruderOps, refusals []error, chunks int) {
	t.Helper()
	if n := in.inside.Load(); n > 0 {
		t.Errorf("carol acted on the queue %d times in the middle of alice's run", n)
	}
	for _, err := range refusals {
		var busy *BusyError
		if !errors.As(err, &busy) || busy.Who.User != "alice" {
			t.Errorf("carol during alice's run: err = %v, want alice acting on the queue", err)
		}
	}
	if len(refusals) < 2*(chunks-1) {
		t.Errorf("carol tried %d times, want at least before every chunk after the first", len(refusals))
	}
}

// checkOneRunAnnounced: the room heard from the operator that a run
// started once and that it ended once, with the totals of every chunk and
// every message it took off the queue.
func checkOneRunAnnounced(t *testing.T, e *opsEnv, from int, res ops.OpResult) {
	t.Helper()
	e.room.mu.Lock()
	evs := append([]ui.RoomEvent(nil), e.room.events...)
	e.room.mu.Unlock()
	var starts, ends, told []ui.RoomEvent
	for _, ev := range evs {
		switch {
		case ev.From == 0 && strings.HasPrefix(ev.Text, "alice: "):
			told = append(told, ev) // the journal's entries, as the room hears them
		case ev.From != from:
		case ev.Result != nil:
			ends = append(ends, ev)
		default:
			starts = append(starts, ev)
		}
	}
	if len(starts) != 1 || len(ends) != 1 || len(told) != 1 {
		t.Fatalf("alice's run was announced as %d starts, %d ends and %d told, want one of each: %+v", len(starts), len(ends), len(told), evs)
	}
	if want := "alice started: requeue on QM1.DEADQ (QM1)"; starts[0].Text != want {
		t.Errorf("start: %q, want %q", starts[0].Text, want)
	}
	if want := "alice: requeue 10 messages from QM1.DEADQ — 10 requeued"; told[0].Text != want {
		t.Errorf("told: %q, want %q", told[0].Text, want)
	}
	if n := len(journal.Acts(e.journal.Entries())); n != 1 {
		t.Errorf("the journal holds %d acts, want the one run", n)
	}
	end := ends[0]
	if end.Result.Done != res.Done || len(end.Gone) != 10 {
		t.Errorf("the announced run: done %d, %d gone; want %d done and the 10 gone", end.Result.Done, len(end.Gone), res.Done)
	}
}

// checkAuditNames: every line of the audit log names who.
func checkAuditNames(t *testing.T, path, who string) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	for sc := bufio.NewScanner(f); sc.Scan(); {
		if !strings.Contains(sc.Text(), `"user":"`+who+`"`) {
			t.Errorf("audit line not by %s: %s", who, sc.Text())
		}
	}
}

// TestRunOverMarksStoppedFreesTheQueueAndSaysSoOnce: alice's connection
// drops during the second chunk of a run over marks: the rest is not
// done, the queue is free again and the room hears once that it stopped.
func TestRunOverMarksStoppedFreesTheQueueAndSaysSoOnce(t *testing.T) {
	e := newOpsEnv(t)
	putDeadLetters(t, context.Background(), e.qm, 7)
	marks := model.NewSelection()
	for _, s := range browseDeadQ(t, e) {
		marks.Mark(s)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	a := &chunkedOps{Operations: e.engines[Operator], at: func(n int) {
		if n == 2 {
			cancel()
		}
	}}
	al := &SessionOps{Engines: a, Seat: e.room.Join(alice), Locks: e.locks}
	res, err := ui.RunMarks(ctx, al, ops.OpRequest{Op: ops.OpRequeue, QMgr: "QM1", Queue: "QM1.DEADQ"}, marks, 3, nil, nil)
	if err == nil || res.Done != 3 || res.NotDone != 7 {
		t.Fatalf("done %d, not done %d, err %v: want the first chunk done and the rest not", res.Done, res.NotDone, err)
	}
	if err := e.locks.check(requeueAll); err != nil {
		t.Fatalf("the queue stays locked after the run stopped: %v", err)
	}
	e.room.mu.Lock()
	defer e.room.mu.Unlock()
	var ends []string
	for _, ev := range e.room.events {
		if strings.HasPrefix(ev.Text, "alice: requeue") {
			ends = append(ends, ev.Text)
		}
	}
	if len(ends) != 1 || !strings.Contains(ends[0], "— 3 requeued · 7 not done · stopped:") {
		t.Fatalf("the room heard %q, want one flash that 3 were requeued and the run stopped", ends)
	}
}
