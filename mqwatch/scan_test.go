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
)

// startScanWatcher watches qm with partial snapshots every 100 messages,
// and slows each browse of the DLQ so that a reader sees them go by.
func startScanWatcher(t *testing.T, qm *embeddedtest.QM) (*mqwatch.Watcher, func()) {
	t.Helper()
	id := qm.Faults().Add(embedded.Fault{Verb: embedded.VerbBrowse, Queue: "DLQ", Latency: 200 * time.Microsecond})
	w := mqwatch.NewWatcher(mqwatch.WatchConfig{Name: "QM1", Connector: qm, Interval: time.Hour,
		ScanEvery: 100, ScanInterval: time.Hour})
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { w.Run(ctx); close(done) }()
	return w, func() { cancel(); <-done; qm.Faults().Remove(id) }
}

// untilComplete reads snapshots up to and including the next one that is
// not partial.
func untilComplete(t *testing.T, w *mqwatch.Watcher) (partials []*mqwatch.Snapshot, last *mqwatch.Snapshot) {
	t.Helper()
	deadline := time.After(time.Minute)
	for {
		select {
		case s := <-w.Snapshots():
			if !s.Connected {
				t.Fatalf("poll failed: %v", s.Err)
			}
			if !s.Partial() {
				return partials, s
			}
			partials = append(partials, s)
		case <-deadline:
			t.Fatal("no complete snapshot within a minute")
		}
	}
}

// The first read of a large DEADQ publishes partial snapshots: each holds
// the messages read so far, in queue order, says how far it got out of
// CURDEPTH, and is numbered before the poll's own snapshot, which has them
// all.
func TestWatcherFirstScanPublishesPartialSnapshots(t *testing.T) {
	defer goleak.VerifyNone(t)
	qm := newQM(t)
	c := connect(qm)
	put(t, c, "DLQ", 1000, deadLetter(mqfmt.RCUnknownObjectName, "INVOICE.IN"))
	put(t, c, "ORDERS.BO", 10, text)
	w, stop := startScanWatcher(t, qm)
	defer stop()
	partials, final := untilComplete(t, w)
	if len(partials) < 2 {
		t.Fatalf("%d partial snapshots, want several for 1,000 messages read 100 at a time", len(partials))
	}
	all := final.Inventories["DLQ"]
	if all.Len() != 1000 || final.Scan != nil || !final.Deltas["DLQ"].Resync {
		t.Fatalf("final snapshot: %d messages, scan %+v, delta %+v", all.Len(), final.Scan, final.Deltas["DLQ"])
	}
	prev := uint64(0)
	for _, p := range partials {
		inv := p.Inventories["DLQ"]
		if p.Scan.Queue != "DLQ" || p.Scan.Depth != 1000 || p.Scan.Scanned != inv.Len() || inv.Len() > 1000 || inv.Len()%100 != 0 {
			t.Fatalf("partial %d: scan %+v, inventory of %d", p.Seq, *p.Scan, inv.Len())
		}
		if d := p.Deltas["DLQ"]; !d.Resync || len(d.Added) != 0 {
			t.Fatalf("partial %d of a first read: delta resync=%v added=%d, want a bare resync", p.Seq, d.Resync, len(d.Added))
		}
		for i := 0; i < inv.Len(); i++ {
			if inv.Key(i) != all.Key(i) {
				t.Fatalf("partial %d: message %d is not the queue's %dth", p.Seq, i, i)
			}
		}
		if p.Seq <= prev || p.Seq >= final.Seq {
			t.Fatalf("partial numbered %d after %d, final %d", p.Seq, prev, final.Seq)
		}
		prev = p.Seq
		if len(p.Queues) != len(final.Queues) {
			t.Fatalf("partial %d shows %d queues, want the poll's %d", p.Seq, len(p.Queues), len(final.Queues))
		}
	}
}

// A burst on a known DEADQ is read incrementally: the partial snapshots'
// deltas and the poll's own list every new message once, in order, so the
// dashboard counts each arrival once.
func TestWatcherBurstPublishesItsArrivalsOnce(t *testing.T) {
	defer goleak.VerifyNone(t)
	qm := newQM(t)
	c := connect(qm)
	put(t, c, "DLQ", 10, deadLetter(mqfmt.RCQFull, "AUDIT.IN"))
	w, stop := startScanWatcher(t, qm)
	defer stop()
	if _, first := untilComplete(t, w); first.Inventories["DLQ"].Len() != 10 {
		t.Fatalf("first poll: %d messages", first.Inventories["DLQ"].Len())
	}
	put(t, c, "DLQ", 450, deadLetter(mqfmt.RCQFull, "AUDIT.IN"))
	w.Refresh()
	partials, final := untilComplete(t, w)
	if len(partials) == 0 {
		t.Fatal("a burst of 450 read 100 at a time published no partial snapshot")
	}
	var added []mqwatch.Key
	for _, s := range append(partials, final) {
		d := s.Deltas["DLQ"]
		if d.Resync {
			t.Fatalf("snapshot %d: a burst re-read the DEADQ", s.Seq)
		}
		for i := range d.Added {
			added = append(added, d.Added[i].Key())
		}
	}
	inv := final.Inventories["DLQ"]
	if len(added) != 450 || inv.Len() != 460 {
		t.Fatalf("%d arrivals listed, inventory %d; want 450 and 460", len(added), inv.Len())
	}
	for i, k := range added {
		if inv.Key(10+i) != k {
			t.Fatalf("arrival %d listed out of order", i)
		}
	}
}

// A DEADQ a handler empties stays known: what arrives after is an arrival,
// not a re-read.
func TestWatcherEmptiedDeadQStaysIncremental(t *testing.T) {
	defer goleak.VerifyNone(t)
	qm := newQM(t)
	c := connect(qm)
	put(t, c, "DLQ", 3, deadLetter(mqfmt.RCQFull, "AUDIT.IN"))
	w, stop := startWatcher(t, qm, "")
	defer stop()
	<-w.Snapshots()
	ctx := context.Background()
	q, _ := c.Open(ctx, mqwatch.ObjectDesc{Name: "DLQ"}, mqwatch.OpenOptions{Input: true})
	for i := 0; i < 3; i++ {
		if _, err := q.Get(ctx, mqwatch.GetOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	q.Close(ctx)
	s := pollOnce(t, w)
	if d := s.Deltas["DLQ"]; d.Resync || len(d.Dropped) != 3 || s.Inventories["DLQ"].Len() != 0 {
		t.Fatalf("emptied: resync=%v dropped=%d len=%d", d.Resync, len(d.Dropped), s.Inventories["DLQ"].Len())
	}
	if _, ok := s.Inventories["DLQ"]; !ok {
		t.Fatal("an empty DEADQ has no inventory in the snapshot")
	}
	put(t, c, "DLQ", 2, deadLetter(mqfmt.RCQFull, "AUDIT.IN"))
	s = pollOnce(t, w)
	if d := s.Deltas["DLQ"]; d.Resync || len(d.Added) != 2 || s.Inventories["DLQ"].Len() != 2 {
		t.Fatalf("refilled: resync=%v added=%d len=%d", d.Resync, len(d.Added), s.Inventories["DLQ"].Len())
	}
}
