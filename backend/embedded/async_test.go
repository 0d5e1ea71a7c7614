package embedded

import (
	"context"
	"testing"
	"time"

	"github.com/poisonwatch/poisonwatch/codec/mqfmt"
	"github.com/poisonwatch/poisonwatch/mqwatch"
)

// MQPMO_ASYNC_RESPONSE: the put call does not report the queue manager's
// answer; MQSTAT(MQSTAT_TYPE_ASYNC_ERROR) returns the counts and the first
// failure since the last MQSTAT, and resets them. A failed asynchronous put
// did not happen; a backout removes the ones that did.
func TestAsyncPutFailuresAreReportedByMQSTAT(t *testing.T) {
	f := newFixture(t, "DEFINE QLOCAL(Q) MAXDEPTH(2)\nDEFINE QLOCAL(R)")
	c := f.connect("")
	q := f.open(c, "Q", mqwatch.OpenOptions{Output: true})
	r := f.open(c, "R", mqwatch.OpenOptions{Output: true})
	for i := range 3 { // the third finds Q full
		md := mqfmt.NewMQMD()
		if err := q.Put(f.ctx, &md, []byte{byte(i)}, mqwatch.PutOptions{Syncpoint: true, AsyncResponse: true}); err != nil {
			t.Fatalf("asynchronous put %d returned %v; its failure belongs to MQSTAT", i, err)
		}
	}
	md := mqfmt.NewMQMD()
	if err := r.Put(f.ctx, &md, nil, mqwatch.PutOptions{Syncpoint: true, AsyncResponse: true}); err != nil {
		t.Fatal(err)
	}
	st, err := c.AsyncStatus(f.ctx)
	if err != nil {
		t.Fatal(err)
	}
	want := mqwatch.AsyncStatus{Succeeded: 3, Failed: 1, Reason: mqfmt.RCQFull, Object: "Q"}
	if st != want {
		t.Fatalf("MQSTAT %+v, want %+v", st, want)
	}
	if st, _ := c.AsyncStatus(f.ctx); st != (mqwatch.AsyncStatus{}) {
		t.Fatalf("second MQSTAT %+v: a successful MQSTAT resets the status", st)
	}
	if err := c.Backout(f.ctx); err != nil {
		t.Fatal(err)
	}
	if d := f.status("Q").Depth + f.status("R").Depth; d != 0 {
		t.Fatalf("depth %d after MQBACK, want 0", d)
	}
}

// An asynchronous put does not wait for the reply: a round trip longer
// than the caller's deadline does not hold it up (a synchronous put would
// end with the deadline); MQSTAT waits for it once.
func TestAsyncPutSavesTheRoundTrip(t *testing.T) {
	f := newFixture(t, "DEFINE QLOCAL(Q)")
	c := f.connect("")
	q := f.open(c, "Q", mqwatch.OpenOptions{Output: true})
	f.qm.Faults().Add(Fault{Verb: VerbPut, Latency: time.Hour})
	ctx, cancel := context.WithTimeout(f.ctx, time.Minute)
	defer cancel()
	for range 10 {
		md := mqfmt.NewMQMD()
		if err := q.Put(ctx, &md, nil, mqwatch.PutOptions{AsyncResponse: true}); err != nil {
			t.Fatal(err)
		}
	}
	if st, err := c.AsyncStatus(f.ctx); err != nil || st.Succeeded != 10 {
		t.Fatalf("MQSTAT %+v %v", st, err)
	}
}

// A connection that is gone fails the call itself, asynchronous or not.
func TestAsyncPutOnABrokenConnectionFailsTheCall(t *testing.T) {
	f := newFixture(t, "DEFINE QLOCAL(Q)")
	c := f.connect("")
	q := f.open(c, "Q", mqwatch.OpenOptions{Output: true})
	if err := f.qm.Break(c); err != nil {
		t.Fatal(err)
	}
	md := mqfmt.NewMQMD()
	wantRC(t, q.Put(f.ctx, &md, nil, mqwatch.PutOptions{AsyncResponse: true}), mqfmt.RCConnectionBroken)
}
