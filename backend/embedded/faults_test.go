package embedded

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/poisonwatch/poisonwatch/codec/mqfmt"
	"github.com/poisonwatch/poisonwatch/mqwatch"
)

func TestFaultRules(t *testing.T) {
	tests := []struct {
		name  string
		fault Fault
		calls int
		want  []bool // which of the puts fail
	}{
		{"fail the third call", Fault{After: 2, Times: 1, RC: mqfmt.RCQFull}, 4, []bool{false, false, true, false}},
		{"fail every matching call", Fault{Verb: VerbPut, RC: mqfmt.RCQFull}, 3, []bool{true, true, true}},
		{"verb filter lets other verbs through", Fault{Verb: VerbGet, RC: mqfmt.RCQFull}, 2, []bool{false, false}},
		{"queue filter", Fault{Queue: "OTHER", RC: mqfmt.RCQFull}, 2, []bool{false, false}},
		{"twice after one", Fault{Verb: VerbPut, After: 1, Times: 2, RC: mqfmt.RCQFull}, 4, []bool{false, true, true, false}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFixture(t, "DEFINE QLOCAL(Q)")
			q := f.open(f.connect(""), "Q", outOnly)
			f.qm.Faults().Add(tt.fault)
			for i := range tt.calls {
				md := mqfmt.NewMQMD()
				err := q.Put(f.ctx, &md, nil, mqwatch.PutOptions{})
				if failed := mqwatch.IsReason(err, mqfmt.RCQFull); failed != tt.want[i] {
					t.Fatalf("put %d: err %v, want failure %v", i, err, tt.want[i])
				}
			}
		})
	}
}

func TestFaultProbabilityIsSeeded(t *testing.T) {
	pattern := func() []bool {
		f := newFixture(t, "DEFINE QLOCAL(Q)")
		q := f.open(f.connect(""), "Q", outOnly)
		f.qm.Faults().Add(Fault{Verb: VerbPut, Probability: 0.5, RC: mqfmt.RCQFull})
		var out []bool
		for range 40 {
			md := mqfmt.NewMQMD()
			out = append(out, q.Put(f.ctx, &md, nil, mqwatch.PutOptions{}) != nil)
		}
		return out
	}
	a, b := pattern(), pattern()
	hits := 0
	for i := range a {
		if a[i] != b[i] {
			t.Fatal("same seed, different fault pattern")
		}
		if a[i] {
			hits++
		}
	}
	if hits == 0 || hits == len(a) {
		t.Fatalf("%d of %d calls hit at probability 0.5", hits, len(a))
	}
}

func TestFaultLatencyHonoursTheContext(t *testing.T) {
	f := newFixture(t, "DEFINE QLOCAL(Q)")
	c := f.connect("")
	f.qm.Faults().SetLatency(time.Hour)
	ctx, cancel := context.WithTimeout(f.ctx, 20*time.Millisecond)
	defer cancel()
	_, err := c.QMgr(ctx)
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("err = %v", err)
	}
	f.qm.Faults().Clear()
	if _, err := c.QMgr(f.ctx); err != nil {
		t.Fatalf("after Clear: %v", err)
	}
}

func TestBrokenConnection(t *testing.T) {
	for _, how := range []string{"at a chosen call", "now"} {
		t.Run(how, func(t *testing.T) {
			f := newFixture(t, "DEFINE QLOCAL(Q)")
			c := f.connect("")
			q := f.open(c, "Q", inOut)
			f.put(q, "m", 0, false)
			f.put(q, "uncommitted put", 0, true)
			f.get(q, mqwatch.GetOptions{Syncpoint: true})
			if how == "now" {
				if err := f.qm.Break(c); err != nil {
					t.Fatal(err)
				}
			} else {
				f.qm.Faults().Add(Fault{Verb: VerbCommit, Break: true})
			}
			wantRC(t, c.Commit(f.ctx), mqfmt.RCConnectionBroken)
			_, err := q.Get(f.ctx, mqwatch.GetOptions{})
			wantRC(t, err, mqfmt.RCConnectionBroken)
			wantRC(t, c.Close(), mqfmt.RCConnectionBroken)
			st := f.status("Q")
			if st.Depth != 1 || st.Uncommitted != 0 || st.OpenInput != 0 {
				t.Fatalf("after the break: %+v; want the unit of work backed out and the handle gone", st)
			}
			m, err := f.open(f.connect(""), "Q", browseIn).Get(f.ctx, mqwatch.GetOptions{})
			if err != nil || m.MD.BackoutCount != 1 {
				t.Fatalf("message after break: %v BackoutCount %d", err, m.MD.BackoutCount)
			}
		})
	}
}

func TestCallAccounting(t *testing.T) {
	f := newFixture(t, "DEFINE QLOCAL(Q)")
	c := f.connect("")
	q := f.open(c, "Q", mqwatch.OpenOptions{Input: true, Browse: true, Output: true})
	f.qm.ResetStats()
	f.put(q, "12345", 0, false)
	f.put(q, "678", 0, false)
	if _, err := q.Browse(f.ctx, mqwatch.BrowseOptions{MaxBytes: 2}); err != nil {
		t.Fatal(err)
	}
	f.get(q, mqwatch.GetOptions{})
	_, _ = q.Get(f.ctx, mqwatch.GetOptions{MaxBytes: 1})
	s := f.qm.Stats()
	want := map[string]VerbStats{
		VerbPut:    {Calls: 2},
		VerbBrowse: {Calls: 1, Bytes: 2},
		VerbGet:    {Calls: 2, Failed: 1, Bytes: 6}, // 2080 still hands over the first byte
	}
	for v, w := range want {
		if s.Verbs[v] != w {
			t.Errorf("%s: %+v, want %+v", v, s.Verbs[v], w)
		}
	}
	if tot := s.Total(); tot.Calls != 5 {
		t.Errorf("total calls %d", tot.Calls)
	}
	f.qm.ResetStats()
	if n := len(f.qm.Stats().Verbs); n != 0 {
		t.Errorf("%d verbs after reset", n)
	}
}

// A hung call ignores its context (as a call stuck in the MQ client does)
// and answers once the fault is removed; other connections are not held.
func TestFaultHangIgnoresTheContextUntilRemoved(t *testing.T) {
	f := newFixture(t, "DEFINE QLOCAL(Q)")
	hung, free := f.connect(""), f.connect("")
	f.open(hung, "Q", outOnly)
	hs, err := free.Handles(f.ctx, "Q")
	if err != nil || len(hs) != 1 {
		t.Fatalf("handles %v %v", hs, err)
	}
	id := f.qm.Faults().Add(Fault{Verb: VerbInquireQMgr, ConnID: hs[0].ConnID, Hang: true})
	ctx, cancel := context.WithCancel(f.ctx)
	defer cancel()
	answered := make(chan error, 1)
	go func() { _, err := hung.QMgr(ctx); answered <- err }()
	// End the context only once the call is held: ended before the call
	// starts, the call would rightly refuse at once, which is not a hang.
	for f.qm.Faults().Hits(id) == 0 {
		time.Sleep(time.Millisecond)
	}
	cancel()
	if _, err := free.QMgr(f.ctx); err != nil {
		t.Fatalf("another connection is held too: %v", err)
	}
	select {
	case err := <-answered:
		t.Fatalf("a hung call answered with its context ended: %v", err)
	default:
	}
	f.qm.Faults().Remove(id)
	if err := <-answered; err != nil {
		t.Fatalf("after the fault is removed: %v", err)
	}
}
