package ops_test

import (
	"strings"
	"testing"
	"time"

	"github.com/poisonwatch/poisonwatch/actions/ops"
	"github.com/poisonwatch/poisonwatch/backend/embedded"
	"github.com/poisonwatch/poisonwatch/codec/mqfmt"
	"github.com/poisonwatch/poisonwatch/mqwatch"
)

// BenchmarkRequeue measures requeue throughput from the DEADQ when every
// port call costs 1 ms (a client connection's round trip), the UI's way:
// the operator's selection of 1000 messages.
//
//   - strategy=batched: this engine's default, 100 messages per unit of work
//     and DefaultWorkers connections moving batches in parallel;
//   - strategy=batched-serial: the same batches on one connection, to show
//     what batching alone gives;
//   - strategy=naive: one message per unit of work (browse, put, get, commit) on one
//     connection.
func BenchmarkRequeue(b *testing.B) {
	cases := []struct {
		name           string
		batch, workers int
	}{
		{"strategy=batched", ops.DefaultBatch, ops.DefaultWorkers},
		{"strategy=batched-serial", ops.DefaultBatch, 1},
		{"strategy=naive", 1, 1},
	}
	for _, tc := range cases {
		b.Run(tc.name, func(b *testing.B) {
			const perRun = 1000
			f := newOpFixture(b, "")
			eng := f.engine(func(o *ops.EngineOptions) { o.Now, o.Sleep = time.Now, nil })
			moved := 0
			var calls, waits int64
			for b.Loop() {
				b.StopTimer()
				sel := benchFill(b, f, perRun)
				lat := f.qm.Faults().SetLatency(time.Millisecond)
				f.qm.ResetStats()
				b.StartTimer()
				res, err := eng.Run(f.ctx, ops.OpRequest{Op: ops.OpRequeue, Queue: "QM1.DEADQ", Messages: sel,
					Batch: tc.batch, Workers: tc.workers}, nil)
				b.StopTimer()
				f.qm.Faults().Remove(lat)
				if err != nil || res.Done != perRun {
					b.Fatalf("done %d: %v", res.Done, err)
				}
				moved += res.Done
				c, w := benchCalls(f, tc.batch > 1)
				calls, waits = calls+c, waits+w
				b.StartTimer()
			}
			b.ReportMetric(float64(moved)/b.Elapsed().Seconds(), "msgs/s")
			// Deterministic figures beside the timing: every MQ call of the
			// run (plan included) per message moved, and those that wait
			// for the queue manager's answer (an asynchronous put does not).
			b.ReportMetric(float64(calls)/float64(moved), "calls/msg")
			b.ReportMetric(float64(waits)/float64(moved), "roundtrips/msg")
		})
	}
}

// benchCalls counts the MQ calls since the last ResetStats, and those that
// wait for an answer: all but the puts when they were asynchronous.
func benchCalls(f *opFixture, asyncPuts bool) (calls, waits int64) {
	st := f.qm.Stats()
	calls = st.Total().Calls
	waits = calls
	if asyncPuts {
		waits -= st.Verbs[embedded.VerbPut].Calls
	}
	return calls, waits
}

// benchFill empties the target and dead-letters n messages again.
func benchFill(b *testing.B, f *opFixture, n int) []mqwatch.Summary {
	if _, err := f.qm.RunMQSC(strings.NewReader("CLEAR QLOCAL(ORDERS.IN)\nCLEAR QLOCAL(QM1.DEADQ)\n")); err != nil {
		b.Fatal(err)
	}
	c := f.conn()
	for i := 1; i <= n; i++ {
		f.deadLetter(c, i, "ORDERS.IN", "QM1", mqfmt.RCQFull)
	}
	_ = c.Close()
	return f.summaries("QM1.DEADQ")
}
