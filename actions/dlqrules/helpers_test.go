package dlqrules

import (
	"context"
	"encoding/binary"
	"fmt"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/poisonwatch/poisonwatch/actions"
	"github.com/poisonwatch/poisonwatch/actions/ops"
	"github.com/poisonwatch/poisonwatch/backend/embedded/embeddedtest"
	"github.com/poisonwatch/poisonwatch/codec/mqfmt"
	"github.com/poisonwatch/poisonwatch/mqwatch"
)

// qmScript is the queue manager of the run and preview tests: a DEADQ,
// destinations (FULL.IN at MAXDEPTH, OFF.IN put-inhibited), a parking queue,
// a queue the operator may not put to, and a transmission queue to QM2.
const qmScript = `
DEFINE QLOCAL(QM1.DEADQ) MAXDEPTH(200000)
ALTER QMGR DEADQ(QM1.DEADQ)
DEFINE QLOCAL(ORDERS.IN) MAXDEPTH(200000)
DEFINE QLOCAL(PAYMENTS.IN) MAXDEPTH(200000)
DEFINE QLOCAL(FULL.IN) MAXDEPTH(1)
DEFINE QLOCAL(OFF.IN) PUT(DISABLED)
DEFINE QLOCAL(PARKING.Q) MAXDEPTH(200000)
DEFINE QLOCAL(SECURE.Q)
DEFINE QLOCAL(QM2) USAGE(XMITQ)
SET AUTHREC PROFILE('**') PRINCIPAL('ops') OBJTYPE(QUEUE) AUTHADD(BROWSE,GET,INQ,PUT,DSP,PASSALL,SETALL)
SET AUTHREC PROFILE('SECURE.Q') PRINCIPAL('ops') OBJTYPE(QUEUE) AUTHADD(BROWSE,INQ,DSP)
SET AUTHREC PRINCIPAL('ops') OBJTYPE(QMGR) AUTHADD(CONNECT,INQ,DSP,SETALL)
`

// clock is a settable clock: sleeps advance it and are recorded.
type clock struct {
	mu     sync.Mutex
	t      time.Time
	sleeps []time.Duration
}

func (c *clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *clock) Sleep(ctx context.Context, d time.Duration) error {
	c.mu.Lock()
	c.t = c.t.Add(d)
	c.sleeps = append(c.sleeps, d)
	c.mu.Unlock()
	return ctx.Err()
}

type fixture struct {
	t   testing.TB
	qm  *embeddedtest.QM
	clk *clock
	ctx context.Context
	dir string
}

func newFixture(t testing.TB) *fixture {
	t.Helper()
	clk := &clock{t: time.Date(2026, 3, 9, 14, 30, 0, 0, time.UTC)}
	qm := embeddedtest.New(t, embeddedtest.Options{Name: "QM1", Now: clk.Now, ProcessUser: "mqm", Seed: 7, MQSC: qmScript})
	return &fixture{t: t, qm: qm, clk: clk, ctx: context.Background(), dir: t.TempDir()}
}

// source is the operator's view: connections as user, an engine writing
// its audit log and archives in the test's directory.
func (f *fixture) source(user string) Source {
	f.t.Helper()
	conn := f.qm.Conn(mqwatch.ConnectOptions{User: user})
	eng, err := ops.NewEngine(ops.EngineOptions{Connector: f.qm, Connect: mqwatch.ConnectOptions{User: user},
		QMgr: "QM1", Now: f.clk.Now, Sleep: f.clk.Sleep, User: "operator",
		AuditPath: filepath.Join(f.dir, "audit.jsonl"), ArchiveDir: filepath.Join(f.dir, "archive")})
	if err != nil {
		f.t.Fatalf("NewEngine: %v", err)
	}
	return Source{Conn: conn, Engine: eng}
}

// dead puts message n on the DEADQ as a queue manager would: an MQDLH naming
// destQ and the reason; edit adjusts the original MQMD first.
func (f *fixture) dead(n int, destQ string, rc mqfmt.Reason, edit func(*mqfmt.MQMD)) {
	f.t.Helper()
	f.deadFor(n, destQ, "QM1", rc, edit)
}

// deadFor is dead for a destination on queue manager destQM.
func (f *fixture) deadFor(n int, destQ, destQM string, rc mqfmt.Reason, edit func(*mqfmt.MQMD)) {
	f.t.Helper()
	md := mqfmt.NewMQMD()
	md.Format, md.CodedCharSetId, md.Encoding = mqfmt.FmtString, 819, mqfmt.EncodingNormal
	md.Persistence, md.MsgType = mqfmt.PerPersistent, mqfmt.MTDatagram
	binary.BigEndian.PutUint64(md.MsgId[16:], uint64(n))
	copy(md.MsgId[:], "RULESMSG")
	md.UserIdentifier, md.PutApplName, md.PutApplType = "alice", "orders-app", mqfmt.ATJava
	md.PutDate, md.PutTime = "20260309", fmt.Sprintf("1200%04d", n%10000)
	if edit != nil {
		edit(&md)
	}
	dmd, data, err := actions.ToDeadLetter(md, []byte(fmt.Sprintf(`{"n":%d}`, n)), actions.DeadLetterOptions{
		Reason: rc, DestQName: destQ, DestQMgrName: destQM, PutApplType: mqfmt.ATUnix, PutApplName: "amqrmppa", Now: f.clk.Now()})
	if err != nil {
		f.t.Fatal(err)
	}
	f.qm.Put("QM1.DEADQ", dmd, data)
}

// browse returns the messages on a queue.
func (f *fixture) browse(queue string) []mqwatch.Message {
	f.t.Helper()
	return f.qm.Browse(queue)
}

func (f *fixture) depths(t *testing.T, want map[string]int) {
	t.Helper()
	for q, n := range want {
		if got := len(f.browse(q)); got != n {
			t.Errorf("depth of %s = %d, want %d", q, got, n)
		}
	}
}

// put puts a plain message (no MQDLH) to a queue.
func (f *fixture) put(queue, text string) {
	f.t.Helper()
	q, done := f.open(queue, mqwatch.OpenOptions{Output: true})
	defer done()
	md := mqfmt.NewMQMD()
	if err := q.Put(f.ctx, &md, []byte(text), mqwatch.PutOptions{}); err != nil {
		f.t.Fatal(err)
	}
}

// open opens a queue on a connection of its own; done closes both.
func (f *fixture) open(queue string, o mqwatch.OpenOptions) (mqwatch.Queue, func()) {
	f.t.Helper()
	c, err := f.qm.Connect(f.ctx, mqwatch.ConnectOptions{})
	if err != nil {
		f.t.Fatal(err)
	}
	q, err := c.Open(f.ctx, mqwatch.ObjectDesc{Name: queue}, o)
	if err != nil {
		_ = c.Close()
		f.t.Fatal(err)
	}
	return q, func() { _ = q.Close(f.ctx); _ = c.Close() }
}
