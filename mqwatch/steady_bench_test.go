package mqwatch_test

import (
	"context"
	"testing"
	"time"

	"github.com/poisonwatch/poisonwatch/backend/embedded"
	"github.com/poisonwatch/poisonwatch/backend/embedded/embeddedtest"
	"github.com/poisonwatch/poisonwatch/mqwatch"
)

// steadyQM is a filled scenario queue manager with a DEADQ producer and
// consumer that keep it in steady state between polls.
type steadyQM struct {
	sc   benchScenario
	qm   *embeddedtest.QM
	conn mqwatch.Conn
	in   mqwatch.Queue // DEADQ for output: arriving dead letters
	out  mqwatch.Queue // DEADQ for input: the dead-letter handler
	next int
}

func newSteadyQM(tb testing.TB, sc benchScenario) *steadyQM {
	tb.Helper()
	s := &steadyQM{sc: sc, qm: newScenarioQM(tb, sc), next: sc.DeadDepth}
	ctx := context.Background()
	var err error
	if s.conn, err = s.qm.Connect(ctx, mqwatch.ConnectOptions{ApplName: "runmqdlq"}); err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { s.conn.Close() })
	if s.in, err = s.conn.Open(ctx, mqwatch.ObjectDesc{Name: deadQ}, mqwatch.OpenOptions{Output: true}); err != nil {
		tb.Fatal(err)
	}
	if s.out, err = s.conn.Open(ctx, mqwatch.ObjectDesc{Name: deadQ}, mqwatch.OpenOptions{Input: true}); err != nil {
		tb.Fatal(err)
	}
	return s
}

// step is what happens between two polls: PerPoll dead letters arrive and the
// dead-letter handler takes PerPoll from the head. The call accounting is
// then reset, so that it holds only the next poll's calls.
func (s *steadyQM) step(tb testing.TB) {
	tb.Helper()
	ctx := context.Background()
	for i := 0; i < s.sc.PerPoll; i++ {
		md, data := deadLetterMessage(s.next)
		s.next++
		if err := s.in.Put(ctx, &md, data, mqwatch.PutOptions{NewMsgId: true}); err != nil {
			tb.Fatalf("dead letter arrives: %v", err)
		}
	}
	for i := 0; i < s.sc.PerPoll; i++ {
		if _, err := s.out.Get(ctx, mqwatch.GetOptions{MaxBytes: 1, AcceptTruncated: true}); err != nil {
			tb.Fatalf("dead-letter handler gets: %v", err)
		}
	}
	s.qm.ResetStats()
}

// pollCost is one poll's cost as the queue manager accounted it.
type pollCost struct {
	Calls, Bytes, Browses int64
}

func costOf(st embedded.Stats) pollCost {
	t := st.Total()
	return pollCost{Calls: t.Calls, Bytes: t.Bytes, Browses: st.Verbs[embedded.VerbBrowse].Calls}
}

func (c *pollCost) add(o pollCost) {
	c.Calls += o.Calls
	c.Bytes += o.Bytes
	c.Browses += o.Browses
}

// perPoll divides totals over n polls.
func (c pollCost) perPoll(n int) (calls, bytes, browses float64) {
	f := float64(n)
	return float64(c.Calls) / f, float64(c.Bytes) / f, float64(c.Browses) / f
}

// watcherApplName tags the watcher's connection, to find it among handles.
const watcherApplName = "poisonwatch-bench"

// incremental drives a real watcher through its public API: Refresh asks for
// a poll, Snapshots delivers it. Its interval is an hour, so no poll happens
// but the ones asked for.
type incremental struct {
	w    *mqwatch.Watcher
	stop func()
	last *mqwatch.Snapshot
}

// pollTimeout bounds a wait for one snapshot; a poll at 1 ms per call takes
// under a second in the issue-5 steady state.
const pollTimeout = 5 * time.Minute

func startIncremental(tb testing.TB, qm *embeddedtest.QM) *incremental {
	tb.Helper()
	w := mqwatch.NewWatcher(mqwatch.WatchConfig{Name: "QM1", Connector: qm,
		Connect: mqwatch.ConnectOptions{ApplName: watcherApplName}, Interval: time.Hour})
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { w.Run(ctx); close(done) }()
	d := &incremental{w: w, stop: func() { cancel(); <-done }}
	d.last = d.receive(tb) // the first poll reads every inventory whole
	return d
}

// poll runs one poll and returns its snapshot.
func (d *incremental) poll(tb testing.TB) *mqwatch.Snapshot {
	d.w.Refresh()
	d.last = d.receive(tb)
	return d.last
}

// receive returns the next complete snapshot: a first read of a large
// DEADQ publishes partial ones first.
func (d *incremental) receive(tb testing.TB) *mqwatch.Snapshot {
	timeout := time.After(pollTimeout)
	for {
		select {
		case s := <-d.w.Snapshots():
			if !s.Connected {
				tb.Fatalf("poll %d failed: %v", s.Seq, s.Err)
			}
			if !s.Partial() {
				return s
			}
		case <-timeout:
			tb.Fatalf("no snapshot within %s", pollTimeout)
			return nil
		}
	}
}

// watcherConnID finds the connection the watcher polls on, from the handles
// it keeps open on the DEADQ.
func watcherConnID(tb testing.TB, c mqwatch.Conn) string {
	tb.Helper()
	hs, err := c.Handles(context.Background(), deadQ)
	if err != nil {
		tb.Fatal(err)
	}
	for _, h := range hs {
		if h.ApplTag == watcherApplName {
			return h.ConnID
		}
	}
	tb.Fatalf("the watcher has no handle on %s", deadQ)
	return ""
}

// addLatency delays every call on the watcher's connection by d, and only
// those, so that the steady-state producer and consumer stay fast.
func (s *steadyQM) addLatency(tb testing.TB, d time.Duration) embedded.FaultID {
	tb.Helper()
	return s.qm.Faults().Add(embedded.Fault{Latency: d, ConnID: watcherConnID(tb, s.conn)})
}

// cpuMeter sums the process CPU time of the timed sections: the poll or fold
// itself, with the garbage collection it causes, whatever else the machine runs.
type cpuMeter struct {
	total, start time.Duration
	broken       bool
}

func (m *cpuMeter) begin() {
	var ok bool
	m.start, ok = processCPU()
	m.broken = m.broken || !ok
}

func (m *cpuMeter) end() {
	t, ok := processCPU()
	m.broken = m.broken || !ok
	m.total += t - m.start
}

// report adds the mean CPU milliseconds per operation as unit.
func (m *cpuMeter) report(b *testing.B, unit string) {
	if !m.broken && b.N > 0 {
		b.ReportMetric(float64(m.total.Microseconds())/1000/float64(b.N), unit)
	}
}
