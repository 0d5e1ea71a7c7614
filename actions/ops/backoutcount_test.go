package ops_test

import (
	"bytes"
	"context"
	"sync/atomic"
	"testing"

	"github.com/poisonwatch/poisonwatch/actions/ops"
	"github.com/poisonwatch/poisonwatch/backend/embedded"
	"github.com/poisonwatch/poisonwatch/codec/mqfmt"
	"github.com/poisonwatch/poisonwatch/mqwatch"
)

// R10a: no action raises a message's BackoutCount. IBM counts in
// BackoutCount the gets in a unit of work that was backed out; a tool that
// backs out a batch it cannot complete would send healthy messages over an
// input queue's BOTHRESH. For every failure the README lists, the messages
// left on the source keep BackoutCount 0 and their order.
func TestR10a_FailedBatchKeepsBackoutCountAndOrder(t *testing.T) {
	move := ops.OpRequest{Op: ops.OpMove, Queue: "ORDERS.BO", All: true, Target: "PARKING.Q", Workers: 1, Batch: 5}
	cases := []struct {
		name  string
		mqsc  string
		setup func(f *opFixture, ctx context.Context, cancel context.CancelFunc) mqwatch.Connector
		req   ops.OpRequest
	}{
		{name: "2053_target_full", mqsc: "ALTER QLOCAL(PARKING.Q) MAXDEPTH(3)\n", req: move},
		{name: "2030_one_message_too_big", mqsc: "ALTER QLOCAL(PARKING.Q) MAXMSGL(40)\n", req: move,
			setup: func(f *opFixture, _ context.Context, _ context.CancelFunc) mqwatch.Connector {
				f.bigMessage(3)
				return nil
			}},
		{name: "2051_target_put_inhibited", mqsc: "ALTER QLOCAL(PARKING.Q) PUT(DISABLED)\n", req: move},
		{name: "2085_target_missing", req: ops.OpRequest{Op: ops.OpRequeue, Queue: "ORDERS.BO", All: true,
			Target: "NO.SUCH.Q", Workers: 1, Batch: 5}},
		{name: "2035_not_authorized", req: move,
			setup: func(f *opFixture, _ context.Context, _ context.CancelFunc) mqwatch.Connector {
				f.qm.Faults().Add(embedded.Fault{Verb: embedded.VerbPut, Queue: "PARKING.Q", After: 6, RC: mqfmt.RCNotAuthorized})
				return nil
			}},
		{name: "cancel_between_puts", req: move,
			setup: func(f *opFixture, _ context.Context, cancel context.CancelFunc) mqwatch.Connector {
				return cancelConnector{Connector: f.qm, after: 7, cancel: cancel, puts: new(atomic.Int32)}
			}},
		{name: "2009_connection_broken", req: move,
			setup: func(f *opFixture, _ context.Context, _ context.CancelFunc) mqwatch.Connector {
				f.qm.Faults().Add(embedded.Fault{Verb: embedded.VerbPut, Queue: "PARKING.Q", After: 7, Times: 1, Break: true})
				return nil
			}},
		{name: "duplicate_msgid_in_front", req: move,
			setup: func(f *opFixture, _ context.Context, _ context.CancelFunc) mqwatch.Connector {
				f.twinInFront(4)
				return nil
			}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			f := newOpFixture(t, tc.mqsc)
			c := f.conn()
			for n := 1; n <= 10; n++ {
				md, data := original(n)
				f.putSetAll(c, "ORDERS.BO", md, data)
			}
			ctx, cancel := context.WithCancel(f.ctx)
			defer cancel()
			sel := f.summaries("ORDERS.BO") // what the operator saw
			var conn mqwatch.Connector
			if tc.setup != nil {
				conn = tc.setup(f, ctx, cancel)
			}
			before := f.browse("ORDERS.BO")
			eng := f.engine(func(o *ops.EngineOptions) {
				if conn != nil {
					o.Connector = conn
				}
			})
			req := tc.req
			req.All, req.Messages = false, sel
			res, err := eng.Run(ctx, req, nil)
			t.Logf("done %d skipped %d failed %d not done %d stopped %q err %v", res.Done, res.Skipped, res.Failed, res.NotDone, res.Stopped, err)
			if res.Done == len(before) {
				t.Fatalf("every message moved: the case does not exercise a failure")
			}
			left := f.browse("ORDERS.BO")
			checkUntouched(t, before, left)
			if got := len(left) + f.depth("PARKING.Q"); got != len(before) && tc.req.Op == ops.OpMove {
				t.Errorf("ORDERS.BO %d + PARKING.Q %d, want %d", len(left), f.depth("PARKING.Q"), len(before))
			}
		})
	}
}

// checkUntouched asserts that left is before with some messages taken out:
// same order, and every message's BackoutCount as it was.
func checkUntouched(t *testing.T, before, left []mqwatch.Message) {
	t.Helper()
	j := 0
	for _, m := range left {
		for j < len(before) && !sameMessage(&before[j], &m) {
			j++
		}
		if j == len(before) {
			t.Errorf("message %x left on the source is out of order or unknown", m.MD.MsgId[16:])
			return
		}
		if m.MD.BackoutCount != before[j].MD.BackoutCount {
			t.Errorf("message %x: BackoutCount %d, was %d", m.MD.MsgId[16:], m.MD.BackoutCount, before[j].MD.BackoutCount)
		}
		j++
	}
}

func sameMessage(a, b *mqwatch.Message) bool {
	return a.MD.MsgId == b.MD.MsgId && a.MD.PutTime == b.MD.PutTime && bytes.Equal(a.Data, b.Data)
}

// bigMessage replaces message n on ORDERS.BO (not yet put) by one whose
// data is longer than PARKING.Q's MAXMSGL: it is put in the middle.
func (f *opFixture) bigMessage(n int) {
	f.t.Helper()
	c := f.conn()
	q, err := c.Open(f.ctx, mqwatch.ObjectDesc{Name: "ORDERS.BO"}, mqwatch.OpenOptions{Input: true})
	if err != nil {
		f.t.Fatal(err)
	}
	defer q.Close(f.ctx)
	_ = n // the tenth message follows: clear and refill with the big one at n
	for {
		if _, err := q.Get(f.ctx, mqwatch.GetOptions{}); err != nil {
			break
		}
	}
	for i := 1; i <= 10; i++ {
		md, data := original(i)
		if i == n {
			data = bytes.Repeat([]byte("x"), 100)
		}
		f.putSetAll(c, "ORDERS.BO", md, data)
	}
}

// twinInFront puts, ahead of everything, a message with message n's MsgId
// and CorrelId but another put time: the operator saw n, not the twin.
func (f *opFixture) twinInFront(n int) {
	f.t.Helper()
	c := f.conn()
	md, _ := original(n)
	md.PutTime = "11000000"
	f.putSetAll(c, "ORDERS.BO", md, []byte("the twin, not shown"))
}

// cancelConnector cancels the run's context at the after-th put, as an
// operator's ctrl+c between two puts of a batch would.
type cancelConnector struct {
	mqwatch.Connector
	after  int32
	cancel context.CancelFunc
	puts   *atomic.Int32
}

func (c cancelConnector) Connect(ctx context.Context, o mqwatch.ConnectOptions) (mqwatch.Conn, error) {
	conn, err := c.Connector.Connect(ctx, o)
	if err != nil {
		return nil, err
	}
	return cancelConn{Conn: conn, c: c}, nil
}

type cancelConn struct {
	mqwatch.Conn
	c cancelConnector
}

func (cc cancelConn) Open(ctx context.Context, od mqwatch.ObjectDesc, oo mqwatch.OpenOptions) (mqwatch.Queue, error) {
	q, err := cc.Conn.Open(ctx, od, oo)
	if err != nil || !oo.Output {
		return q, err
	}
	return cancelQueue{Queue: q, c: cc.c}, nil
}

type cancelQueue struct {
	mqwatch.Queue
	c cancelConnector
}

func (q cancelQueue) Put(ctx context.Context, md *mqfmt.MQMD, data []byte, o mqwatch.PutOptions) error {
	if q.c.puts.Add(1) == q.c.after {
		q.c.cancel()
	}
	return q.Queue.Put(ctx, md, data, o)
}
