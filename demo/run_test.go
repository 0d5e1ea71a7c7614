package demo

import (
	"context"
	"strings"
	"testing"
	"time"

	"go.uber.org/goleak"

	"github.com/poisonwatch/poisonwatch/mqwatch"
)

// TestStartWarmsUpRunsLiveAndStopsWithoutLeaks starts the built-in demo as
// the dashboard does: Start returns with simulated history in place, the
// applications then run on the wall clock, and cancelling the context
// disconnects everything and stops every goroutine.
func TestStartWarmsUpRunsLiveAndStopsWithoutLeaks(t *testing.T) {
	defer goleak.VerifyNone(t)
	s, err := Builtin()
	if err != nil {
		t.Fatal(err)
	}
	s.Warmup = 3 * time.Minute
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	run, err := s.Start(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if n := len(run.QMgrs()); n != 3 || run.QMgr("QM2") == nil || run.QMgr("QM7") != nil {
		t.Fatalf("%d queue managers", n)
	}
	st := status(t, run, "QM1", "ORDERS.IN")
	if st.Depth == 0 || st.OpenInput != 4 || !st.Monitored || st.OldestAge < time.Minute || st.LastPut.IsZero() {
		t.Fatalf("after warmup ORDERS.IN is %+v", st)
	}
	before := produced(run)
	deadline := time.Now().Add(10 * time.Second)
	for produced(run) < before+3 {
		if time.Now().After(deadline) {
			t.Fatalf("no messages on the wall clock: %d then %d", before, produced(run))
		}
		time.Sleep(50 * time.Millisecond)
	}
	if age := time.Since(status(t, run, "QM1", "ORDERS.IN").LastPut); age > 5*time.Second || age < -time.Second {
		t.Errorf("last put %s ago: the clock is not the wall clock", age)
	}
	if len(run.Routes()) == 0 || len(run.Consumers()) != len(s.Consumers) {
		t.Errorf("routes %d consumers %d", len(run.Routes()), len(run.Consumers()))
	}
	cancel()
	select {
	case <-run.Done():
	case <-time.After(10 * time.Second):
		t.Fatal("the run did not stop")
	}
	if err := run.Wait(); err != nil {
		t.Fatal(err)
	}
	if hs := openHandles(t, run, "QM1", "ORDERS.IN"); len(hs) != 0 {
		t.Errorf("handles still open after stop: %+v", hs)
	}
}

func produced(run *Run) (n int64) {
	for _, p := range run.Producers() {
		n += p.Produced
	}
	return n
}

func status(t *testing.T, run *Run, qmgr, queue string) mqwatch.QueueStatus {
	t.Helper()
	c, err := run.QMgr(qmgr).Connect(context.Background(), mqwatch.ConnectOptions{ApplName: "test"})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	st, err := c.QueueStatus(context.Background(), queue)
	if err != nil || len(st) != 1 {
		t.Fatalf("%v %v", st, err)
	}
	return st[0]
}

func openHandles(t *testing.T, run *Run, qmgr, queue string) []mqwatch.Handle {
	t.Helper()
	c, err := run.QMgr(qmgr).Connect(context.Background(), mqwatch.ConnectOptions{ApplName: "test"})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	hs, err := c.Handles(context.Background(), queue)
	if err != nil {
		t.Fatal(err)
	}
	return hs
}

func TestStartFailsCleanly(t *testing.T) {
	defer goleak.VerifyNone(t)
	tests := []struct{ name, toml, want string }{
		{"invalid_scenario", "[[qmgr]]\nname = \"QM1\"\n[[producer]]\nname = \"P\"\nqueue = \"Q\"\n", "needs a rate"},
		{"missing_queue", "[[qmgr]]\nname = \"QM1\"\n[[qmgr]]\nname = \"QM2\"\n[[link]]\nqmgrs = [\"QM1\", \"QM2\"]\n" +
			"[[producer]]\nname = \"P\"\nqueue = \"Q\"\nrate = 1\n", "2085"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, err := Parse([]byte(tt.toml))
			if err == nil {
				_, err = s.Start(context.Background())
			}
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("error %v, want %q", err, tt.want)
			}
		})
	}
	t.Run("context_ended_during_warmup", func(t *testing.T) {
		s, err := Builtin()
		if err != nil {
			t.Fatal(err)
		}
		s.Warmup = 1000 * time.Hour
		ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
		defer cancel()
		if _, err := s.Start(ctx); err == nil {
			t.Fatal("Start returned a run after its context ended")
		}
	})
}

// TestBuiltinMemoryIsBounded checks that the live demo cannot grow without
// limit however long it runs: every queue has a MAXDEPTH, and the sum of
// MAXDEPTH × the largest message the demo writes stays small.
func TestBuiltinMemoryIsBounded(t *testing.T) {
	defer goleak.VerifyNone(t)
	s, err := Builtin()
	if err != nil {
		t.Fatal(err)
	}
	res := simulate(t, s, time.Minute)
	largest := 0
	for _, p := range s.Producers {
		for _, poison := range []bool{false, true} {
			m, err := build(&p, "XXX-000000", poison, newRand(1, p.Name), time.Now())
			if err != nil {
				t.Fatal(err)
			}
			largest = max(largest, len(m.data))
		}
	}
	// A BOQ move adds an MQRFH2, a dead-letter an MQDLH (and the DEADQ may
	// hold reports); the XQH of a transmission queue is larger still.
	const overhead, limit = 512 + 428, 128 << 20
	var total int64
	for _, q := range res.QMgrs {
		for _, qr := range q.Queues {
			if qr.Type == "QLOCAL" {
				total += int64(qr.MaxDepth) * int64(largest+overhead)
			}
		}
	}
	t.Logf("largest message %d bytes; every queue full: %d MiB", largest, total>>20)
	if total > limit {
		t.Fatalf("every queue full would hold %d MiB, limit %d MiB", total>>20, limit>>20)
	}
}
