package embedded

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/poisonwatch/poisonwatch/codec/mqfmt"
	"github.com/poisonwatch/poisonwatch/mqwatch"
)

// clock is a settable test clock.
type clock struct {
	mu sync.Mutex
	t  time.Time
}

func newClock() *clock { return &clock{t: time.Date(2026, 3, 9, 14, 30, 15, 250_000_000, time.UTC)} }

func (c *clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *clock) Advance(d time.Duration) {
	c.mu.Lock()
	c.t = c.t.Add(d)
	c.mu.Unlock()
}

// fixture is a queue manager loaded with a script, and a clock.
type fixture struct {
	t   *testing.T
	qm  *QMgr
	clk *clock
	ctx context.Context
}

func newFixture(t *testing.T, script string) *fixture {
	t.Helper()
	clk := newClock()
	qm := New(Options{Name: "QM1", Now: clk.Now, ProcessUser: "mqm", ProgramName: "poisontest",
		Groups: map[string][]string{"grpuser": {"readers"}}, ChannelRetry: 10 * time.Millisecond})
	if script != "" {
		if _, err := qm.RunMQSC(strings.NewReader(script)); err != nil {
			t.Fatalf("RunMQSC: %v", err)
		}
	}
	return &fixture{t: t, qm: qm, clk: clk, ctx: context.Background()}
}

func (f *fixture) connect(user string) mqwatch.Conn {
	f.t.Helper()
	c, err := f.qm.Connect(f.ctx, mqwatch.ConnectOptions{User: user, ApplName: "app-" + user})
	if err != nil {
		f.t.Fatalf("Connect(%q): %v", user, err)
	}
	f.t.Cleanup(func() { _ = c.Close() })
	return c
}

func (f *fixture) open(c mqwatch.Conn, name string, o mqwatch.OpenOptions) mqwatch.Queue {
	f.t.Helper()
	q, err := c.Open(f.ctx, mqwatch.ObjectDesc{Name: name}, o)
	if err != nil {
		f.t.Fatalf("Open(%s): %v", name, err)
	}
	return q
}

func (f *fixture) put(q mqwatch.Queue, body string, prio int32, sync bool) mqfmt.MQMD {
	f.t.Helper()
	md := mqfmt.NewMQMD()
	md.Format = mqfmt.FmtString
	md.Priority = prio
	if err := q.Put(f.ctx, &md, []byte(body), mqwatch.PutOptions{Syncpoint: sync}); err != nil {
		f.t.Fatalf("Put(%q): %v", body, err)
	}
	return md
}

func (f *fixture) get(q mqwatch.Queue, o mqwatch.GetOptions) string {
	f.t.Helper()
	m, err := q.Get(f.ctx, o)
	if err != nil {
		f.t.Fatalf("Get: %v", err)
	}
	return string(m.Data)
}

func (f *fixture) status(name string) mqwatch.QueueStatus {
	f.t.Helper()
	c := f.connect("")
	st, err := c.QueueStatus(f.ctx, name)
	if err != nil || len(st) != 1 {
		f.t.Fatalf("QueueStatus(%s) = %v, %v", name, st, err)
	}
	return st[0]
}

func wantRC(t *testing.T, err error, rc mqfmt.Reason) {
	t.Helper()
	if !mqwatch.IsReason(err, rc) {
		t.Fatalf("err = %v, want %s", err, rc.Describe())
	}
}

var (
	inOut    = mqwatch.OpenOptions{Input: true, Output: true}
	browseIn = mqwatch.OpenOptions{Input: true, Browse: true}
	outOnly  = mqwatch.OpenOptions{Output: true}
)

func stringsReader(s string) *strings.Reader { return strings.NewReader(s) }

// waitForWaiter returns once a get or browse waits on queue, so what the
// test does next happens while it waits, not before it starts; it says
// so in the test (from any goroutine) when none comes within 10 s.
func waitForWaiter(t *testing.T, qm *QMgr, queue string) {
	deadline := time.Now().Add(10 * time.Second)
	for {
		qm.mu.Lock()
		n := 0
		if q := qm.queues[queue]; q != nil {
			n = q.waiters
		}
		qm.mu.Unlock()
		if n > 0 {
			return
		}
		if time.Now().After(deadline) {
			t.Errorf("nothing waits on %s", queue)
			return
		}
		time.Sleep(time.Millisecond)
	}
}
