package mqwatch_test

import (
	"context"
	"testing"
	"time"

	"go.uber.org/goleak"

	"github.com/poisonwatch/poisonwatch/backend/embedded"
	"github.com/poisonwatch/poisonwatch/backend/embedded/embeddedtest"
	"github.com/poisonwatch/poisonwatch/codec/mqfmt"
	"github.com/poisonwatch/poisonwatch/mqwatch"
	"github.com/poisonwatch/poisonwatch/mqwatch/pcf"
)

// startPCFWatcher watches qm through PCF and its command server, as the IBM
// MQ backend watches a real queue manager.
func startPCFWatcher(t *testing.T, qm *embeddedtest.QM) (*mqwatch.Watcher, *embedded.CommandServer, func()) {
	t.Helper()
	srv, err := qm.StartCommandServer()
	if err != nil {
		t.Fatal(err)
	}
	via := &pcf.Connector{Connector: qm, Wait: 2 * time.Second}
	w := mqwatch.NewWatcher(mqwatch.WatchConfig{Name: "QM1", Connector: via, Interval: time.Hour})
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { w.Run(ctx); close(done) }()
	return w, srv, func() {
		cancel()
		<-done
		if err := srv.Stop(); err != nil {
			t.Errorf("command server: %v", err)
		}
	}
}

func viewOf(s *mqwatch.Snapshot, name string) (mqwatch.QueueView, bool) {
	for _, v := range s.Queues {
		if v.Info.Name == name {
			return v, true
		}
	}
	return mqwatch.QueueView{}, false
}

// TestWatcherKeepsQueuesWhenOneObjectFails is defect 1 seen on the
// dashboard: a BOQ that one poll's DISPLAY QUEUE(*) could not report on
// (2101), and a temporary queue gone mid-command (2085), leave every other
// queue in place; the BOQ keeps its row and inventory, marked with the
// failure, and nothing is re-read.
func TestWatcherKeepsQueuesWhenOneObjectFails(t *testing.T) {
	defer goleak.VerifyNone(t)
	qm := newQM(t)
	c := connect(qm)
	put(t, c, "DLQ", 20, deadLetter(mqfmt.RCUnknownObjectName, "INVOICE.IN"))
	put(t, c, "ORDERS.BO", 3, text)
	w, srv, stop := startPCFWatcher(t, qm)
	defer stop()
	first := <-w.Snapshots()
	if !first.Connected || first.Inventories["ORDERS.BO"].Len() != 3 || first.Inventories["DLQ"].Len() != 20 {
		t.Fatalf("first poll: %v %+v", first.Err, first.Inventories)
	}
	srv.FailObject("ORDERS.BO", mqfmt.RCObjectDamaged)
	srv.FailObject("AMQ.TEMP.GONE", mqfmt.RCUnknownObjectName)
	s := pollOnce(t, w)
	if !s.Connected || s.Err != nil || len(s.Queues) != len(first.Queues) {
		t.Fatalf("poll with failing objects: connected=%v err=%v, %d queues (was %d)", s.Connected, s.Err, len(s.Queues), len(first.Queues))
	}
	bo, ok := viewOf(s, "ORDERS.BO")
	if !ok || !mqwatch.IsReason(bo.InquireErr, mqfmt.RCObjectDamaged) || bo.Role != mqwatch.RoleBOQ {
		t.Errorf("ORDERS.BO row: %+v", bo)
	}
	if s.Inventories["ORDERS.BO"].Len() != 3 || s.Deltas["DLQ"].Resync || s.Poll.Resyncs != 0 {
		t.Errorf("inventories re-read: BO %d, DLQ delta %+v, resyncs %d", s.Inventories["ORDERS.BO"].Len(), s.Deltas["DLQ"], s.Poll.Resyncs)
	}
	if len(s.ObjectErrs) < 2 {
		t.Errorf("object errors: %+v", s.ObjectErrs)
	}
	srv.FailObject("ORDERS.BO", 0)
	if s := pollOnce(t, w); s.Err != nil {
		t.Fatal(s.Err)
	} else if v, _ := viewOf(s, "ORDERS.BO"); v.InquireErr != nil || s.Inventories["ORDERS.BO"].Len() != 3 {
		t.Errorf("recovered row: %+v", v)
	}
}

// TestWatcherReconnectsOnTheFirstLostConnectionReason is defect 5: a reason
// that means the connection is going (2203 here) drops the connection at
// once, so the next poll reconnects instead of failing again on it.
func TestWatcherReconnectsOnTheFirstLostConnectionReason(t *testing.T) {
	defer goleak.VerifyNone(t)
	for _, rc := range []mqfmt.Reason{2202, 2203, 2548} {
		qm := newQM(t)
		w, stop := startWatcher(t, qm, "")
		if s := <-w.Snapshots(); !s.Connected {
			t.Fatal(s.Err)
		}
		qm.Faults().Add(embedded.Fault{Verb: embedded.VerbInquireQueue, RC: rc, Times: 1})
		if s := pollOnce(t, w); s.Connected || mqwatch.ReasonOf(s.Err) != rc {
			t.Fatalf("%d: poll %v %v", rc, s.Connected, s.Err)
		}
		if s := pollOnce(t, w); !s.Connected {
			t.Fatalf("%d: %v", rc, s.Err)
		}
		if n := qm.Stats().Verbs[embedded.VerbConnect].Calls; n != 2 {
			t.Errorf("%d: %d connects, want a reconnect after the failing poll", rc, n)
		}
		stop()
	}
}

func TestConnectionLostIsOneSharedList(t *testing.T) {
	for rc, want := range map[mqfmt.Reason]bool{2009: true, 2018: true, 2059: true, 2161: true, 2162: true,
		2202: true, 2203: true, 2537: true, 2538: true, 2548: true,
		2033: false, 2035: false, 2085: false, 2219: false, 2080: false} {
		if got := mqwatch.ConnectionLost(rc); got != want {
			t.Errorf("ConnectionLost(%d) = %v, want %v", rc, got, want)
		}
	}
}
