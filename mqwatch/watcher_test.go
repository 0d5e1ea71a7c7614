package mqwatch_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"go.uber.org/goleak"

	"github.com/poisonwatch/poisonwatch/backend/embedded/embeddedtest"
	"github.com/poisonwatch/poisonwatch/codec/mqfmt"
	"github.com/poisonwatch/poisonwatch/mqwatch"
)

const setup = `
DEFINE QLOCAL(DLQ) MAXDEPTH(100000)
ALTER QMGR DEADQ(DLQ)
DEFINE QLOCAL(ORDERS.BO)
DEFINE QLOCAL(ORDERS.IN) BOTHRESH(3) BOQNAME(ORDERS.BO)
DEFINE QLOCAL(LOOP.IN)
DEFINE QLOCAL(SYSTEM.HIDDEN)
`

func newQM(t testing.TB) *embeddedtest.QM {
	t.Helper()
	return embeddedtest.New(t, embeddedtest.Options{Name: "QM1", MQSC: setup})
}

// connect is the tests' own connection, closed at their end.
func connect(qm *embeddedtest.QM) mqwatch.Conn {
	return qm.Conn(mqwatch.ConnectOptions{ApplName: "test"})
}

func put(t testing.TB, c mqwatch.Conn, queue string, n int, mk func(i int) (*mqfmt.MQMD, []byte)) {
	t.Helper()
	ctx := context.Background()
	q, err := c.Open(ctx, mqwatch.ObjectDesc{Name: queue}, mqwatch.OpenOptions{Output: true})
	if err != nil {
		t.Fatal(err)
	}
	defer q.Close(ctx)
	for i := 0; i < n; i++ {
		md, data := mk(i)
		if err := q.Put(ctx, md, data, mqwatch.PutOptions{NewMsgId: true}); err != nil {
			t.Fatal(err)
		}
	}
}

// deadLetter builds a DEADQ message as a channel would: MQDLH + text body.
func deadLetter(reason mqfmt.Reason, dest string) func(int) (*mqfmt.MQMD, []byte) {
	return func(i int) (*mqfmt.MQMD, []byte) {
		md := mqfmt.NewMQMD()
		md.Format, md.Encoding, md.CodedCharSetId = mqfmt.FmtDeadLetter, mqfmt.EncodingNative, 1208
		d := mqfmt.NewDLH()
		d.Reason, d.DestQName, d.DestQMgrName = reason, dest, "QM2"
		d.Format, d.Encoding, d.CodedCharSetId, d.PutApplName = mqfmt.FmtString, mqfmt.EncodingNative, 1208, "amqrmppa"
		bo, _ := mqfmt.EncodingNative.ByteOrder()
		data := d.AppendEncode(nil, bo)
		return &md, append(data, fmt.Sprintf("invoice %d", i)...)
	}
}

func text(i int) (*mqfmt.MQMD, []byte) {
	md := mqfmt.NewMQMD()
	md.Format = mqfmt.FmtString
	return &md, []byte(fmt.Sprintf("order %d", i))
}

func pollOnce(t *testing.T, w *mqwatch.Watcher) *mqwatch.Snapshot {
	t.Helper()
	w.Refresh()
	select {
	case s := <-w.Snapshots():
		return s
	case <-time.After(5 * time.Second):
		t.Fatal("no snapshot")
	}
	return nil
}

func startWatcher(t *testing.T, qm mqwatch.Connector, focus string) (*mqwatch.Watcher, func()) {
	t.Helper()
	w := mqwatch.NewWatcher(mqwatch.WatchConfig{Name: "QM1", Connector: qm, Interval: time.Hour})
	if focus != "" {
		w.SetFocus(focus)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { w.Run(ctx); close(done) }()
	return w, func() { cancel(); <-done }
}

func TestWatcherSnapshot(t *testing.T) {
	defer goleak.VerifyNone(t)
	qm := newQM(t)
	c := connect(qm)
	put(t, c, "DLQ", 30, deadLetter(mqfmt.RCUnknownObjectName, "INVOICE.IN"))
	put(t, c, "ORDERS.IN", 3, text)
	w, stop := startWatcher(t, qm, "ORDERS.IN")
	defer stop()
	s := <-w.Snapshots()
	if !s.Connected || s.QMgr.DeadQ != "DLQ" {
		t.Fatalf("snapshot %+v", s)
	}
	roles := map[string]mqwatch.Role{}
	for _, v := range s.Queues {
		roles[v.Info.Name] = v.Role
	}
	if roles["DLQ"] != mqwatch.RoleDeadQ || roles["ORDERS.BO"] != mqwatch.RoleBOQ || roles["ORDERS.IN"] != mqwatch.RoleInput {
		t.Fatalf("roles %v", roles)
	}
	if _, ok := roles["SYSTEM.HIDDEN"]; ok {
		t.Fatal("SYSTEM.* queue watched by default")
	}
	inv := s.Inventories["DLQ"]
	if inv.Len() != 30 {
		t.Fatalf("DLQ inventory %d, want 30", inv.Len())
	}
	first := inv.At(0)
	// An inventory keeps no body (the message screen reads the message);
	// where the body starts is kept.
	if !first.HasDLH || first.DLHReason != 2085 || first.DLHDestQ != "INVOICE.IN" || first.DLHDestQMgr != "QM2" ||
		first.BodyPrefix != nil || first.BodyOffset != mqfmt.DLHLen {
		t.Fatalf("summary %+v", first)
	}
	if s.Focus == nil || s.Focus.Queue != "ORDERS.IN" || len(s.Focus.Messages) != 3 {
		t.Fatalf("focus %+v", s.Focus)
	}
	if got := string(s.Focus.Messages[0].BodyPrefix); got != "order 0" {
		t.Fatalf("focused message's body prefix %q, want the body's first bytes", got)
	}
}

func TestWatcherIncrementalInventory(t *testing.T) {
	defer goleak.VerifyNone(t)
	qm := newQM(t)
	c := connect(qm)
	put(t, c, "DLQ", 10, deadLetter(mqfmt.RCQFull, "AUDIT.IN"))
	w, stop := startWatcher(t, qm, "")
	defer stop()
	s1 := <-w.Snapshots()
	if d := s1.Deltas["DLQ"]; !d.Resync || s1.Inventories["DLQ"].Len() != 10 {
		t.Fatalf("first poll: %+v len %d", d, s1.Inventories["DLQ"].Len())
	}
	put(t, c, "DLQ", 5, deadLetter(mqfmt.RCQFull, "AUDIT.IN"))
	// a consumer (runmqdlq) takes 3 from the head
	q, _ := c.Open(context.Background(), mqwatch.ObjectDesc{Name: "DLQ"}, mqwatch.OpenOptions{Input: true})
	for i := 0; i < 3; i++ {
		if _, err := q.Get(context.Background(), mqwatch.GetOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	q.Close(context.Background())
	s2 := pollOnce(t, w)
	d := s2.Deltas["DLQ"]
	if d.Resync || len(d.Added) != 5 || len(d.Dropped) != 3 || s2.Inventories["DLQ"].Len() != 12 {
		t.Fatalf("delta resync=%v added=%d dropped=%d len=%d", d.Resync, len(d.Added), len(d.Dropped), s2.Inventories["DLQ"].Len())
	}
	if s2.Poll.Resyncs != 0 {
		t.Fatal("head removals caused a resync")
	}
	// Removal from the middle is only detectable by counts: a resync.
	mid := s2.Inventories["DLQ"].At(5).MsgId
	q, _ = c.Open(context.Background(), mqwatch.ObjectDesc{Name: "DLQ"}, mqwatch.OpenOptions{Input: true})
	if _, err := q.Get(context.Background(), mqwatch.GetOptions{MsgId: &mid}); err != nil {
		t.Fatal(err)
	}
	q.Close(context.Background())
	s3 := pollOnce(t, w)
	if !s3.Deltas["DLQ"].Resync || s3.Inventories["DLQ"].Len() != 11 {
		t.Fatalf("middle removal: resync=%v len=%d", s3.Deltas["DLQ"].Resync, s3.Inventories["DLQ"].Len())
	}
}

func TestWatcherHeadBrowseFindsStuckPoison(t *testing.T) {
	defer goleak.VerifyNone(t)
	qm := newQM(t)
	c := connect(qm)
	put(t, c, "ORDERS.IN", 5, text)
	// a plain MQI consumer rolls the head message back 4 times (R1f)
	ctx := context.Background()
	q, _ := c.Open(ctx, mqwatch.ObjectDesc{Name: "ORDERS.IN"}, mqwatch.OpenOptions{Input: true})
	for i := 0; i < 4; i++ {
		if _, err := q.Get(ctx, mqwatch.GetOptions{Syncpoint: true}); err != nil {
			t.Fatal(err)
		}
		if err := c.Backout(ctx); err != nil {
			t.Fatal(err)
		}
	}
	q.Close(ctx)
	w, stop := startWatcher(t, qm, "")
	defer stop()
	s := <-w.Snapshots()
	head := s.Heads["ORDERS.IN"]
	if len(head) != 5 || head[0].BackoutCount != 4 || head[1].BackoutCount != 0 {
		t.Fatalf("head %d messages, first BackoutCount %v", len(head), head)
	}
}

func TestWatcherReportsBrokenConnectionAndRecovers(t *testing.T) {
	defer goleak.VerifyNone(t)
	qm := newQM(t)
	w := mqwatch.NewWatcher(mqwatch.WatchConfig{Name: "QM1", Connector: qm, Interval: 10 * time.Millisecond, MaxBackoff: 20 * time.Millisecond})
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { w.Run(ctx); close(done) }()
	defer func() { cancel(); <-done }()
	if s := <-w.Snapshots(); !s.Connected {
		t.Fatalf("first poll failed: %v", s.Err)
	}
	qm.BreakAll()
	sawBroken := false
	for i := 0; i < 200; i++ {
		s := <-w.Snapshots()
		if !s.Connected {
			if mqwatch.ReasonOf(s.Err) != mqfmt.RCConnectionBroken || !s.Stale || len(s.Queues) == 0 {
				t.Fatalf("broken snapshot: err=%v stale=%v queues=%d", s.Err, s.Stale, len(s.Queues))
			}
			sawBroken = true
			continue
		}
		if sawBroken {
			return // reconnected
		}
	}
	t.Fatalf("never saw the broken connection and recovery (saw broken: %v)", sawBroken)
}

// A higher-priority arrival goes to the front of the queue but the end of the
// inventory: a head removal must not drop the messages in between.
func TestWatcherPriorityArrivalThenHeadRemoval(t *testing.T) {
	defer goleak.VerifyNone(t)
	qm := newQM(t)
	c := connect(qm)
	put(t, c, "DLQ", 3, deadLetter(mqfmt.RCQFull, "AUDIT.IN"))
	w, stop := startWatcher(t, qm, "")
	defer stop()
	<-w.Snapshots()
	put(t, c, "DLQ", 1, func(i int) (*mqfmt.MQMD, []byte) {
		md, data := deadLetter(mqfmt.RCQFull, "AUDIT.IN")(i)
		md.Priority = 5
		return md, data
	})
	ctx := context.Background()
	q, _ := c.Open(ctx, mqwatch.ObjectDesc{Name: "DLQ"}, mqwatch.OpenOptions{Input: true})
	if _, err := q.Get(ctx, mqwatch.GetOptions{}); err != nil { // runmqdlq takes the priority-5 head
		t.Fatal(err)
	}
	if _, err := q.Get(ctx, mqwatch.GetOptions{}); err != nil { // and the next
		t.Fatal(err)
	}
	q.Close(ctx)
	s := pollOnce(t, w)
	if got := s.Inventories["DLQ"].Len(); got != 2 {
		t.Fatalf("inventory %d, want the 2 messages on the queue", got)
	}
}

// Forget drops keys from the named queue's inventory only: a move keeps the
// MsgId, so the same key may be on the target.
func TestWatcherForgetIsPerQueue(t *testing.T) {
	defer goleak.VerifyNone(t)
	qm := newQM(t)
	c := connect(qm)
	put(t, c, "DLQ", 2, deadLetter(mqfmt.RCQFull, "AUDIT.IN"))
	w, stop := startWatcher(t, qm, "")
	defer stop()
	s := <-w.Snapshots()
	k := s.Inventories["DLQ"].At(0).Key()
	w.Forget("ORDERS.BO", k)
	if s := pollOnce(t, w); s.Inventories["DLQ"].Len() != 2 {
		t.Fatalf("Forget on another queue dropped a DLQ message: %d left", s.Inventories["DLQ"].Len())
	}
}
