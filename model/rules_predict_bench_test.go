package model

import (
	"context"
	"encoding/binary"
	"fmt"
	"hash/fnv"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/poisonwatch/poisonwatch/actions"
	"github.com/poisonwatch/poisonwatch/actions/dlqrules"
	"github.com/poisonwatch/poisonwatch/actions/ops"
	"github.com/poisonwatch/poisonwatch/backend/embedded"
	"github.com/poisonwatch/poisonwatch/codec/mqfmt"
	"github.com/poisonwatch/poisonwatch/mqwatch"
)

// BenchmarkPredict1M is the rules prediction the DEADQ triage starts when a
// table is loaded, over a 1,000,000-message DEADQ of 96 classes and eight
// lengths: Begin and Finish (on the dashboard's update loop), and between
// them, in the background, dlqrules.PredictInventory through the engine's
// plans on the embedded queue manager and NewAnswer. One op is one whole
// prediction (ns/op); ms-Begin and ms-Finish are the longest of each;
// the live heap's peak above idle is sampled every 250 ms on one more run
// (the queue manager's million messages and the inventory are idle):
//
//	go test -run '^$' -bench BenchmarkPredict1M -benchtime 1x -count 3 ./model/
func BenchmarkPredict1M(b *testing.B) {
	e, err := predict1M()
	if err != nil {
		b.Fatal(err)
	}
	q := QueueRef{"QM1", "QM1.DEADQ"}
	var maxBegin, maxFinish time.Duration
	run := func() *Prediction {
		ps, now := Predictions{}, time.Now()
		t0 := time.Now()
		if !ps.Begin(q, e.inv, now) {
			b.Fatal("no prediction begun")
		}
		maxBegin = max(maxBegin, time.Since(t0))
		vs, err := dlqrules.PredictInventory(context.Background(), e.src, e.tab, q.Queue, e.inv)
		a := NewAnswer(e.inv, vs, err)
		t0 = time.Now()
		ps.Finish(q, a, now)
		maxFinish = max(maxFinish, time.Since(t0))
		if err != nil {
			b.Fatal(err)
		}
		return ps[q]
	}
	runtime.GC()
	b.ResetTimer()
	for b.Loop() {
		run()
	}
	b.StopTimer()
	heap0 := liveHeap()
	peak := samplePeaks(b)
	p := run()
	peak.stop()
	checkPrediction(b, e, p)
	b.ReportMetric(float64(peak.heap.Load()-heap0)/(1<<20), "MiB-peak-live-heap-above-idle")
	b.ReportMetric(float64(peak.less.Load()-heap0)/(1<<20), "MiB-peak-less-allocated-during")
	b.ReportMetric(ms(maxBegin), "ms-Begin")
	b.ReportMetric(ms(maxFinish), "ms-Finish")
}

// predictMQSC is the queue manager of BenchmarkPredict1M: the DEADQ's
// destinations as a busy incident has them (one full, one put-inhibited,
// one missing, one remote through a transmission queue) and a parking
// queue with room for only part of what the table sends there.
const predictMQSC = `
DEFINE QLOCAL(QM1.DEADQ) MAXDEPTH(2000000)
ALTER QMGR DEADQ(QM1.DEADQ)
DEFINE QLOCAL(ORDERS.IN) MAXDEPTH(2000000)
DEFINE QLOCAL(PAYMENTS.IN) MAXDEPTH(2000000)
DEFINE QLOCAL(PARKING.Q) MAXDEPTH(100000)
DEFINE QLOCAL(FULL.IN) MAXDEPTH(1)
DEFINE QLOCAL(OFF.IN) PUT(DISABLED)
DEFINE QLOCAL(QM2) USAGE(XMITQ)
`

// predictEnv is a queue manager with a DEADQ of n dead letters, the
// inventory the dashboard would hold of it, an engine and a 50-rule table.
type predictEnv struct {
	inv *mqwatch.Inventory
	src dlqrules.Source
	tab *dlqrules.Table
}

// predict1M is BenchmarkPredict1M's environment, built once per process:
// putting a million messages takes longer than predicting them, and every
// run (-count) predicts the same queue.
// POISONWATCH_PREDICT_N=100000 measures another size.
var predict1M = sync.OnceValues(func() (*predictEnv, error) {
	n := 1_000_000
	if v, err := strconv.Atoi(os.Getenv("POISONWATCH_PREDICT_N")); err == nil && v > 0 {
		n = v
	}
	return newPredictEnv(n)
})

func newPredictEnv(n int) (*predictEnv, error) {
	qm := embedded.New(embedded.Options{Name: "QM1", ProcessUser: "mqm", ProgramName: "predictbench"})
	if _, err := qm.RunMQSC(strings.NewReader(predictMQSC)); err != nil {
		return nil, err
	}
	ctx := context.Background()
	c, err := qm.Connect(ctx, mqwatch.ConnectOptions{})
	if err != nil {
		return nil, err
	}
	if err := putMixedDeadLetters(ctx, c, n); err != nil {
		return nil, err
	}
	inv, err := browseInventory(ctx, c, "QM1.DEADQ")
	if err != nil || inv.Len() != n {
		return nil, fmt.Errorf("inventory of %d messages: %v", inv.Len(), err)
	}
	dir, err := os.MkdirTemp("", "predictbench")
	if err != nil {
		return nil, err
	}
	eng, err := ops.NewEngine(ops.EngineOptions{Connector: qm, QMgr: "QM1",
		AuditPath: filepath.Join(dir, "audit.jsonl"), ArchiveDir: filepath.Join(dir, "archive")})
	if err != nil {
		return nil, err
	}
	tab, err := dlqrules.Parse(strings.NewReader(predictTable()))
	if err != nil {
		return nil, err
	}
	return &predictEnv{inv: inv, src: dlqrules.Source{Conn: c, Engine: eng}, tab: tab}, nil
}

// predictTable is 47 rules that match nothing, tested against every
// message, then three that do: Q_FULL retried, PAYMENTS.* forwarded to
// the parking queue (which fills: the rest fall to the next rule), the
// others left.
func predictTable() string {
	var t strings.Builder
	for i := range 47 {
		fmt.Fprintf(&t, "DESTQ(NEVER%d.*) APPLNAME('app-%d') ACTION(DISCARD)\n", i, i)
	}
	t.WriteString("REASON(MQRC_Q_FULL) ACTION(RETRY) RETRY(3)\nDESTQ(PAYMENTS.*) ACTION(FWD) FWDQ(PARKING.Q) HEADER(NO)\nACTION(IGNORE)\n")
	return t.String()
}

// putMixedDeadLetters puts n dead letters of four reasons, six
// destinations (one on QM2), two writers and eight lengths.
func putMixedDeadLetters(ctx context.Context, c mqwatch.Conn, n int) error {
	q, err := c.Open(ctx, mqwatch.ObjectDesc{Name: "QM1.DEADQ"}, mqwatch.OpenOptions{Output: true, SetAllContext: true})
	if err != nil {
		return err
	}
	defer q.Close(ctx)
	reasons := []mqfmt.Reason{mqfmt.RCQFull, mqfmt.RCPutInhibited, mqfmt.RCUnknownObjectName, mqfmt.RCNotAuthorized}
	dests := []string{"ORDERS.IN", "PAYMENTS.IN", "PARKING.Q", "OFF.IN", "NOPE.IN", "FULL.IN"}
	at := time.Date(2026, 11, 30, 1, 0, 0, 0, time.UTC)
	for i := range n {
		md := mqfmt.NewMQMD()
		md.Format, md.Persistence = mqfmt.FmtString, mqfmt.PerPersistent
		md.PutApplName = []string{"orders-app", "billing-app"}[i/3%2]
		binary.BigEndian.PutUint64(md.MsgId[16:], uint64(i+1))
		destQM := "QM1"
		if i%97 == 0 {
			destQM = "QM2"
		}
		body := fmt.Appendf(nil, `{"order":%d,"note":"%s"}`, i, strings.Repeat("x", i%8*16))
		dmd, data, err := actions.ToDeadLetter(md, body, actions.DeadLetterOptions{Reason: reasons[i%len(reasons)],
			DestQName: dests[i/4%len(dests)], DestQMgrName: destQM, PutApplName: "amqrmppa", Now: at})
		if err == nil {
			err = q.Put(ctx, &dmd, data, mqwatch.PutOptions{Context: mqwatch.ContextSetAll})
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// browseInventory reads a queue's summaries as a watcher does.
func browseInventory(ctx context.Context, c mqwatch.Conn, queue string) (*mqwatch.Inventory, error) {
	q, err := c.Open(ctx, mqwatch.ObjectDesc{Name: queue}, mqwatch.OpenOptions{Browse: true})
	if err != nil {
		return nil, err
	}
	defer q.Close(ctx)
	var inv *mqwatch.Inventory
	batch := make([]mqwatch.Summary, 0, 4096)
	for first, i := true, 0; ; first, i = false, i+1 {
		m, err := q.Browse(ctx, mqwatch.BrowseOptions{First: first, MaxBytes: 512})
		if mqwatch.IsReason(err, mqfmt.RCNoMsgAvailable) {
			return inv.Append(batch...), nil
		}
		if err != nil {
			return nil, err
		}
		s := mqwatch.Summarize(&m)
		s.Arrival, s.BodyPrefix = uint64(i+1), nil
		if batch = append(batch, s); len(batch) == cap(batch) {
			inv, batch = inv.Append(batch...), batch[:0]
		}
	}
}

// checkPrediction fails unless every message has a verdict and the table
// did what it says on this queue: some forwarded to the parking queue,
// some beyond its room, which fall to the next rule. It logs a digest of the
// verdicts, message by message, to compare two implementations with.
func checkPrediction(b *testing.B, e *predictEnv, p *Prediction) {
	if p == nil || p.Err != nil || len(p.atPos) != e.inv.Len() {
		b.Fatalf("prediction %+v", p)
	}
	var full, parked bool
	h := fnv.New64a()
	counts := make([]int, len(p.Distinct))
	for _, j := range p.atPos {
		counts[j]++
	}
	for j := range p.Distinct {
		v := &p.Distinct[j]
		full = full || strings.Contains(v.Outcome, "MQRC_Q_FULL (2053)") && strings.Contains(v.Does, "PARKING.Q") && strings.Contains(v.Then, "IGNORE")
		parked = parked || strings.Contains(v.Does, "PARKING.Q") && v.Outcome == "would succeed"
	}
	for _, j := range p.atPos {
		v := &p.Distinct[j]
		fmt.Fprintf(h, "%d|%t|%s|%s|%d|%s|%s\n", v.Rule, v.Certain, v.Does, v.Outcome, v.Predicted, v.Why, v.Then)
	}
	if !full || !parked {
		b.Fatalf("no parked or no-room verdicts among %d: %+v", len(p.Distinct), p.Distinct)
	}
	b.Logf("%d distinct verdicts, digest %x", len(p.Distinct), h.Sum64())
}

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }
