package actions

import (
	"context"
	"encoding/binary"
	"errors"
	"testing"

	"github.com/poisonwatch/poisonwatch/backend/embedded/embeddedtest"
	"github.com/poisonwatch/poisonwatch/codec/mqfmt"
	"github.com/poisonwatch/poisonwatch/mqwatch"
)

const baseScript = `
DEFINE QLOCAL(ORDERS.BO)
DEFINE QLOCAL(ORDERS.IN) BOTHRESH(3) BOQNAME(ORDERS.BO)
DEFINE QALIAS(ORDERS.ALIAS) TARGET(ORDERS.IN)
DEFINE QLOCAL(NOBOQ.IN) BOTHRESH(2)
DEFINE QLOCAL(LOOP.IN)
DEFINE QLOCAL(QM1.DEADQ)
DEFINE QLOCAL(APP.REPLY)
DEFINE QLOCAL(FAILED.Q)
ALTER QMGR DEADQ(QM1.DEADQ)
`

// qmFixture is an embedded queue manager with the base objects and a
// producer connection.
type qmFixture struct {
	t   *testing.T
	ctx context.Context
	qm  *embeddedtest.QM
	pc  mqwatch.Conn
}

func newQM(t *testing.T, extra string) *qmFixture {
	t.Helper()
	qm := embeddedtest.New(t, embeddedtest.Options{Name: "QM1", ProcessUser: "mqm", ProgramName: "poisontest", MQSC: baseScript + extra})
	return &qmFixture{t: t, ctx: context.Background(), qm: qm, pc: qm.Conn(mqwatch.ConnectOptions{ApplName: "orders-producer"})}
}

// put puts a message outside syncpoint and returns its descriptor as put.
func (f *qmFixture) put(queue string, md mqfmt.MQMD, data []byte) mqfmt.MQMD {
	f.t.Helper()
	q, err := f.pc.Open(f.ctx, mqwatch.ObjectDesc{Name: queue}, mqwatch.OpenOptions{Output: true})
	if err != nil {
		f.t.Fatal(err)
	}
	defer q.Close(f.ctx)
	if err := q.Put(f.ctx, &md, data, mqwatch.PutOptions{NewMsgId: true}); err != nil {
		f.t.Fatal(err)
	}
	return md
}

func (f *qmFixture) putText(queue string, edits ...func(*mqfmt.MQMD)) mqfmt.MQMD {
	md := mqfmt.NewMQMD()
	md.Format, md.Encoding, md.CodedCharSetId = mqfmt.FmtString, mqfmt.EncodingNative, mqfmt.CCSIDISO88591
	md.Persistence = mqfmt.PerPersistent
	for _, e := range edits {
		e(&md)
	}
	return f.put(queue, md, []byte("order 42"))
}

// browse returns every message on queue, in order.
func (f *qmFixture) browse(queue string) []mqwatch.Message { return f.qm.Browse(queue) }

func (f *qmFixture) depth(queue string) int { return f.qm.Depth(queue) }

func (f *qmFixture) consumer(opts ConsumerOptions) *Consumer {
	f.t.Helper()
	conn, err := f.qm.Connect(f.ctx, mqwatch.ConnectOptions{ApplName: opts.Style.String()})
	if err != nil {
		f.t.Fatal(err)
	}
	c, err := NewConsumer(f.ctx, conn, opts)
	if err != nil {
		f.t.Fatal(err)
	}
	f.t.Cleanup(func() { c.Close(f.ctx); conn.Close() })
	return c
}

// pollN polls n times with h and returns the last result.
func (f *qmFixture) pollN(c *Consumer, n int, h Handler) (Handled, error) {
	f.t.Helper()
	var res Handled
	var err error
	for range n {
		if res, err = c.Poll(f.ctx, h); err != nil {
			return res, err
		}
	}
	return res, err
}

func failing(context.Context, *mqwatch.Message) error { return errors.New("cannot process this order") }

func succeeding(context.Context, *mqwatch.Message) error { return nil }

// dlhOf decodes the dead-letter header of a message on the DEADQ.
func dlhOf(t *testing.T, m mqwatch.Message) mqfmt.DLH {
	t.Helper()
	bo, err := m.MD.Encoding.ByteOrder()
	if err != nil {
		t.Fatal(err)
	}
	if m.MD.Format != mqfmt.FmtDeadLetter {
		t.Fatalf("Format %q, want MQDEAD", m.MD.Format)
	}
	d, err := mqfmt.DecodeDLH(m.Data, 0, bo)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

func rfh2Of(t *testing.T, m mqwatch.Message) mqfmt.RFH2 {
	t.Helper()
	r, err := mqfmt.DecodeRFH2(m.Data, 0, binary.BigEndian)
	if err != nil {
		t.Fatal(err)
	}
	return r
}
