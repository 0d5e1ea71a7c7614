package model

import (
	"context"
	"encoding/binary"
	"path/filepath"
	"slices"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/poisonwatch/poisonwatch/actions"
	"github.com/poisonwatch/poisonwatch/actions/ops"
	"github.com/poisonwatch/poisonwatch/backend/embedded/embeddedtest"
	"github.com/poisonwatch/poisonwatch/codec/mqfmt"
	"github.com/poisonwatch/poisonwatch/mqwatch"
)

// marksQM is an embedded queue manager with n dead letters for ORDERS.IN
// on its DEADQ, the inventory the watcher would hold of them, and an
// engine on it.
func marksQM(tb testing.TB, n int) (*embeddedtest.QM, *mqwatch.Inventory, *ops.Engine) {
	tb.Helper()
	qm := embeddedtest.New(tb, embeddedtest.Options{Name: "QM1", MQSC: "DEFINE QLOCAL(QM1.DEADQ) MAXDEPTH(999999999)\nALTER QMGR DEADQ(QM1.DEADQ)\n" +
		"DEFINE QLOCAL(ORDERS.IN) MAXDEPTH(999999999)\n"})
	ctx := context.Background()
	// Closed on return, not at the test's end: a benchmark's later runs
	// must not keep this queue manager alive.
	c, err := qm.Connect(ctx, mqwatch.ConnectOptions{})
	if err != nil {
		tb.Fatal(err)
	}
	defer c.Close()
	out, err := c.Open(ctx, mqwatch.ObjectDesc{Name: "QM1.DEADQ"}, mqwatch.OpenOptions{Output: true, SetAllContext: true})
	if err != nil {
		tb.Fatal(err)
	}
	for i := range n {
		md := mqfmt.NewMQMD()
		md.Format = mqfmt.FmtString
		binary.BigEndian.PutUint64(md.MsgId[16:], uint64(i+1))
		dmd, data, err := actions.ToDeadLetter(md, []byte("order "+strconv.Itoa(i)), actions.DeadLetterOptions{Reason: mqfmt.RCQFull,
			DestQName: "ORDERS.IN", DestQMgrName: "QM1", PutApplName: "amqrmppa"})
		if err == nil {
			err = out.Put(ctx, &dmd, data, mqwatch.PutOptions{Context: mqwatch.ContextSetAll})
		}
		if err != nil {
			tb.Fatal(err)
		}
	}
	_ = out.Close(ctx)
	q, err := c.Open(ctx, mqwatch.ObjectDesc{Name: "QM1.DEADQ"}, mqwatch.OpenOptions{Browse: true})
	if err != nil {
		tb.Fatal(err)
	}
	var inv *mqwatch.Inventory
	batch := make([]mqwatch.Summary, 0, 4096)
	for first, i := true, 0; ; first, i = false, i+1 {
		m, err := q.Browse(ctx, mqwatch.BrowseOptions{First: first, MaxBytes: 512})
		if mqwatch.IsReason(err, mqfmt.RCNoMsgAvailable) {
			break
		}
		if err != nil {
			tb.Fatal(err)
		}
		s := mqwatch.Summarize(&m)
		s.Arrival, s.BodyPrefix = uint64(i+1), nil
		if batch = append(batch, s); len(batch) == cap(batch) {
			inv, batch = inv.Append(batch...), batch[:0]
		}
	}
	inv = inv.Append(batch...)
	_ = q.Close(ctx)
	dir := tb.TempDir()
	eng, err := ops.NewEngine(ops.EngineOptions{Connector: qm, QMgr: "QM1", User: "operator",
		AuditPath: filepath.Join(dir, "audit.jsonl"), ArchiveDir: filepath.Join(dir, "archive")})
	if err != nil {
		tb.Fatal(err)
	}
	return qm, inv, eng
}

func depth(tb testing.TB, qm mqwatch.Connector, queue string) int {
	tb.Helper()
	c, err := qm.Connect(context.Background(), mqwatch.ConnectOptions{})
	if err != nil {
		tb.Fatal(err)
	}
	defer c.Close()
	st, err := c.QueueStatus(context.Background(), queue)
	if err != nil || len(st) != 1 {
		tb.Fatalf("status of %s: %v", queue, err)
	}
	return int(st[0].Depth)
}

// chunkLog records the runs RunMarks makes.
type chunkLog struct {
	mu       sync.Mutex
	sizes    []int
	verifies []time.Duration
	last     ops.OpProgress
	backward bool
}

func (l *chunkLog) wrap(eng *ops.Engine, after func(n int)) RunFunc {
	return func(ctx context.Context, req ops.OpRequest, progress func(ops.OpProgress)) (ops.OpResult, error) {
		l.sizes, l.verifies = append(l.sizes, len(req.Messages)), append(l.verifies, req.Verify)
		res, err := eng.Run(ctx, req, progress)
		if after != nil {
			after(len(l.sizes))
		}
		return res, err
	}
}

func (l *chunkLog) progress(p ops.OpProgress) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if p.Done < l.last.Done || p.Total != 2500 {
		l.backward = true
	}
	l.last = p
}

// TestRunMarksRequeuesEveryMarkAChunkAtATime: 2,500 marked dead letters
// are requeued in runs of 1,000, 1,000 and 500, the DEADQ is empty after,
// progress counts over all of them, and only the last run watches for
// messages coming back (R10f), after everything moved.
func TestRunMarksRequeuesEveryMarkAChunkAtATime(t *testing.T) {
	qm, inv, eng := marksQM(t, 2500)
	sel := NewSelection()
	for i := range inv.Len() {
		sel.MarkAt(inv, i)
	}
	var l chunkLog
	req := ops.OpRequest{Op: ops.OpRequeue, QMgr: "QM1", Queue: "QM1.DEADQ", Verify: time.Millisecond}
	res, err := RunMarks(context.Background(), l.wrap(eng, nil), req, sel, 1000, l.progress, nil)
	if err != nil {
		t.Fatalf("%v (stopped: %s)", err, res.Stopped)
	}
	if res.Done != 2500 || res.NotDone != 0 || res.Failed != 0 || res.Skipped != 0 {
		t.Fatalf("done %d not done %d failed %d skipped %d", res.Done, res.NotDone, res.Failed, res.Skipped)
	}
	if got, want := l.sizes, []int{1000, 1000, 500}; !slices.Equal(got, want) {
		t.Fatalf("runs of %v, want %v", got, want)
	}
	if v := l.verifies; v[0] != 0 || v[1] != 0 || v[2] != time.Millisecond || res.Verify == nil {
		t.Fatalf("verify windows %v (result's %v): want only the last run's", v, res.Verify)
	}
	if l.backward || l.last.Done != 2500 {
		t.Fatalf("progress went backward or missed the total: last %+v", l.last)
	}
	if d, o := depth(t, qm, "QM1.DEADQ"), depth(t, qm, "ORDERS.IN"); d != 0 || o != 2500 {
		t.Fatalf("DEADQ %d, ORDERS.IN %d after the requeue", d, o)
	}
	if len(res.Items) != 500 {
		t.Fatalf("%d outcomes kept, want the last run's 500", len(res.Items))
	}
}

// TestRunMarksCancelStopsTheRest: cancelled during the second run, the
// rest of it and the third are not done, and stay on the DEADQ.
func TestRunMarksCancelStopsTheRest(t *testing.T) {
	qm, inv, eng := marksQM(t, 2500)
	sel := NewSelection()
	for i := range inv.Len() {
		sel.MarkAt(inv, i)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var l chunkLog
	run := l.wrap(eng, nil)
	cancelling := func(ctx context.Context, req ops.OpRequest, progress func(ops.OpProgress)) (ops.OpResult, error) {
		if len(l.sizes) == 1 {
			cancel()
		}
		return run(ctx, req, progress)
	}
	req := ops.OpRequest{Op: ops.OpRequeue, QMgr: "QM1", Queue: "QM1.DEADQ"}
	res, err := RunMarks(ctx, cancelling, req, sel, 1000, nil, nil)
	if err == nil {
		t.Fatal("no error after a cancel")
	}
	if res.Done != 1000 || res.Done+res.NotDone != 2500 || len(l.sizes) != 2 {
		t.Fatalf("done %d, not done %d, runs %v", res.Done, res.NotDone, l.sizes)
	}
	if d := depth(t, qm, "QM1.DEADQ"); d != 1500 {
		t.Fatalf("DEADQ %d after the cancel, want 1500", d)
	}
}
