package ops_test

import (
	"context"
	"encoding/binary"
	"errors"
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

// opScript defines the queues the action tests use: a DEADQ, input queues
// with their BOQs (SHARED.BO serves two input queues), a parking queue and a
// transmission queue to QM2.
const opScript = `
DEFINE QLOCAL(QM1.DEADQ) MAXDEPTH(200000)
ALTER QMGR DEADQ(QM1.DEADQ)
DEFINE QLOCAL(ORDERS.IN) BOTHRESH(3) BOQNAME(ORDERS.BO) MAXDEPTH(200000)
DEFINE QLOCAL(PAYMENTS.IN) BOTHRESH(3) BOQNAME(SHARED.BO) MAXDEPTH(200000)
DEFINE QLOCAL(REFUNDS.IN) BOTHRESH(3) BOQNAME(SHARED.BO) MAXDEPTH(200000)
DEFINE QALIAS(REFUNDS.ALIAS) TARGET(REFUNDS.IN)
DEFINE QLOCAL(ORDERS.BO) MAXDEPTH(200000)
DEFINE QLOCAL(SHARED.BO) MAXDEPTH(200000)
DEFINE QLOCAL(PARKING.Q) MAXDEPTH(200000)
DEFINE QLOCAL(QM2) USAGE(XMITQ)
`

// opClock is a settable clock: sleeps advance it instead of waiting.
type opClock struct {
	mu     sync.Mutex
	t      time.Time
	slept  time.Duration
	sleeps int
}

func newOpClock() *opClock {
	return &opClock{t: time.Date(2026, 3, 9, 14, 30, 15, 250_000_000, time.UTC)}
}

func (c *opClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *opClock) Sleep(ctx context.Context, d time.Duration) error {
	c.mu.Lock()
	if d > 0 {
		c.t = c.t.Add(d)
		c.slept += d
		c.sleeps++
	}
	c.mu.Unlock()
	return ctx.Err()
}

// opFixture is an embedded queue manager with the test queues, a clock and
// a state directory for audit logs and archives.
type opFixture struct {
	t   testing.TB
	qm  *embeddedtest.QM
	clk *opClock
	ctx context.Context
	dir string
}

func newOpFixture(t testing.TB, extra string) *opFixture {
	t.Helper()
	clk := newOpClock()
	qm := embeddedtest.New(t, embeddedtest.Options{Name: "QM1", Now: clk.Now, ProcessUser: "mqm", ProgramName: "poisontest", Seed: 7,
		MQSC: opScript + extra})
	return &opFixture{t: t, qm: qm, clk: clk, ctx: context.Background(), dir: t.TempDir()}
}

// engine returns an engine on the fixture's queue manager; edits adjust its
// options.
func (f *opFixture) engine(edits ...func(*ops.EngineOptions)) *ops.Engine {
	f.t.Helper()
	o := ops.EngineOptions{Connector: f.qm, QMgr: "QM1", Now: f.clk.Now, Sleep: f.clk.Sleep, User: "operator",
		AuditPath: filepath.Join(f.dir, "audit.jsonl"), ArchiveDir: filepath.Join(f.dir, "archive")}
	for _, e := range edits {
		e(&o)
	}
	eng, err := ops.NewEngine(o)
	if err != nil {
		f.t.Fatalf("NewEngine: %v", err)
	}
	return eng
}

func (f *opFixture) conn() mqwatch.Conn {
	f.t.Helper()
	return f.qm.Conn(mqwatch.ConnectOptions{})
}

// original is an application message as first put: text in CCSID 819,
// big-endian integers, with context the tests check survives a move.
func original(n int) (mqfmt.MQMD, []byte) {
	md := mqfmt.NewMQMD()
	md.Format = mqfmt.FmtString
	md.CodedCharSetId = 819
	md.Encoding = mqfmt.EncodingNormal
	md.Persistence = mqfmt.PerPersistent
	md.MsgId = msgID(n)
	md.CorrelId = msgID(1_000_000 + n)
	md.UserIdentifier = "alice"
	md.PutApplName = "orders-app"
	md.PutApplType = mqfmt.ATJava
	md.AccountingToken[0], md.AccountingToken[1] = 5, 'a'
	md.PutDate, md.PutTime = "20260309", fmt.Sprintf("1200%02d%02d", n/100%60, n%100)
	return md, []byte(fmt.Sprintf(`{"order":%d}`, n))
}

// msgID is a recognisable unique MsgId.
func msgID(n int) [24]byte {
	var id [24]byte
	copy(id[:], "TESTMSG ")
	binary.BigEndian.PutUint64(id[16:], uint64(n))
	return id
}

// putSetAll puts md and data to queue keeping md's context (setall).
func (f *opFixture) putSetAll(c mqwatch.Conn, queue string, md mqfmt.MQMD, data []byte) {
	f.t.Helper()
	embeddedtest.Put(f.t, c, queue, md, data)
}

// deadLetter puts message n on the DEADQ as a channel would: an MQDLH naming
// destQ (on destQMgr) and the reason, the original context kept.
func (f *opFixture) deadLetter(c mqwatch.Conn, n int, destQ, destQMgr string, rc mqfmt.Reason) {
	f.t.Helper()
	md, data := original(n)
	f.deadLetterMsg(c, md, data, destQ, destQMgr, rc)
}

// deadLetterMsg is deadLetter for a given message.
func (f *opFixture) deadLetterMsg(c mqwatch.Conn, md mqfmt.MQMD, data []byte, destQ, destQMgr string, rc mqfmt.Reason) {
	f.t.Helper()
	dmd, ddata, err := actions.ToDeadLetter(md, data, actions.DeadLetterOptions{Reason: rc, DestQName: destQ,
		DestQMgrName: destQMgr, PutApplType: mqfmt.ATUnix, PutApplName: "amqrmppa", Now: f.clk.Now()})
	if err != nil {
		f.t.Fatalf("ToDeadLetter: %v", err)
	}
	f.putSetAll(c, "QM1.DEADQ", dmd, ddata)
}

// backedOut puts message n on a BOQ as a JMS consumer would (R5), with a jms
// folder naming dst when dst is set.
func (f *opFixture) backedOut(c mqwatch.Conn, n int, boq, dst string) {
	f.t.Helper()
	md, data := original(n)
	f.backedOutMsg(c, md, data, boq, dst)
}

// backedOutMsg is backedOut for a given message.
func (f *opFixture) backedOutMsg(c mqwatch.Conn, md mqfmt.MQMD, data []byte, boq, dst string) {
	f.t.Helper()
	if dst != "" {
		rfh := mqfmt.NewRFH2(md.Encoding, md.CodedCharSetId, md.Format, mqfmt.NewFolder("jms", mqfmt.NewElement("Dst", dst)))
		hdr, err := rfh.AppendEncode(nil, binary.BigEndian)
		if err != nil {
			f.t.Fatalf("RFH2: %v", err)
		}
		data = append(hdr, data...)
		md.Format, md.CodedCharSetId, md.Encoding = mqfmt.FmtRFH2, 1208, mqfmt.EncodingNormal
	}
	bmd, bdata, err := actions.ToBackoutQueue(md, data)
	if err != nil {
		f.t.Fatalf("ToBackoutQueue: %v", err)
	}
	f.putSetAll(c, boq, bmd, bdata)
}

// browse returns every message on a queue, whole.
func (f *opFixture) browse(queue string) []mqwatch.Message {
	f.t.Helper()
	return f.qm.Browse(queue)
}

func (f *opFixture) depth(queue string) int { return f.qm.Depth(queue) }

// summaries returns what a watcher would show of a queue.
func (f *opFixture) summaries(queue string) []mqwatch.Summary {
	msgs := f.browse(queue)
	out := make([]mqwatch.Summary, len(msgs))
	for i := range msgs {
		out[i] = mqwatch.Summarize(&msgs[i])
	}
	return out
}

// run runs req and fails the test on an unexpected error.
func (f *opFixture) run(eng *ops.Engine, req ops.OpRequest) ops.OpResult {
	f.t.Helper()
	res, err := eng.Run(f.ctx, req, nil)
	if err != nil {
		f.t.Fatalf("Run(%s): %v\nstopped: %s", req.Op, err, res.Stopped)
	}
	return res
}

func wantDepths(t *testing.T, f *opFixture, want map[string]int) {
	t.Helper()
	for q, n := range want {
		if got := f.depth(q); got != n {
			t.Errorf("depth of %s = %d, want %d", q, got, n)
		}
	}
}

// contextOf is the part of an MQMD a move must keep.
func contextOf(md mqfmt.MQMD) string {
	return fmt.Sprintf("user=%q appl=%q type=%d date=%q time=%q acct=%x", mqfmt.Trim(md.UserIdentifier),
		mqfmt.Trim(md.PutApplName), md.PutApplType, md.PutDate, md.PutTime, md.AccountingToken[:4])
}

func errorsAs[T error](err error, target *T) bool { return errors.As(err, target) }

// perStep collects the per-message and per-step lines of an audit log,
// leaving out the one line each act writes when it ends (journal_test.go
// checks those).
func perStep(out *[]ops.AuditRecord) func(ops.AuditRecord) error {
	return func(r ops.AuditRecord) error {
		if r.Act == "" {
			*out = append(*out, r)
		}
		return nil
	}
}
