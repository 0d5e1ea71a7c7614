package model

import (
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/poisonwatch/poisonwatch/mqwatch"
)

// seen is what a session reads of a queue manager's picture: alerts with
// their histories, a queue's figures and history, the DEADQ's groups.
func seen(s *State) string {
	q := s.QMgr("QM1")
	out := fmt.Sprintf("seq %d\n", q.Snap.Seq)
	for _, al := range q.Alerts {
		out += fmt.Sprintf("%s %s %s flaps %d acked %v\n", al.Rule, al.Queue, al.Text, al.History.Flaps, al.History.Ack.By)
	}
	qs := q.Queues["DLQ"]
	rate, _ := qs.DepthPerMinute()
	out += fmt.Sprintf("depth %v %v arrivals %v\n", qs.Depth.Values(), rate, qs.Arrived.Values())
	for _, g := range q.Groups["DLQ"].Groups(DimReason) {
		out += fmt.Sprintf("group %+v %d %s..%s %v\n", g.Key, g.Count, g.Oldest, g.Newest, g.Spark.Values())
	}
	return out
}

// TestPictureStandsStillWhileTheStateFolds: what a picture shows does not
// move when the state it was taken of folds on; a picture taken after
// shows the new polls.
func TestPictureStandsStillWhileTheStateFolds(t *testing.T) {
	s := New(func() time.Time { return t0 }, 5*time.Second)
	b := &snapBuilder{}
	growing(s, b, t0, 4, 3, 2)
	pic := s.Picture(nil, "")
	before := seen(pic)
	if before != seen(s) {
		t.Fatalf("the picture shows\n%s\nthe state\n%s", before, seen(s))
	}
	growing(s, b, t0.Add(time.Hour), 10, 3, 5)
	if got := seen(pic); got != before {
		t.Fatalf("the picture moved with the fold:\nwas\n%s\nnow\n%s", before, got)
	}
	if got, now := seen(s.Picture(pic, "QM1")), seen(s); got != now {
		t.Fatalf("a new picture shows\n%s\nthe state\n%s", got, now)
	}
}

// TestPictureSharesTheQueueManagersThatDidNotChange: a fleet's fold copies
// the queue manager it folded, not the others.
func TestPictureSharesTheQueueManagersThatDidNotChange(t *testing.T) {
	s := New(func() time.Time { return t0 }, 5*time.Second)
	s.QMgr("QM2")
	growing(s, &snapBuilder{}, t0, 4, 2, 2)
	first := s.Picture(nil, "")
	next := s.Picture(first, "QM1")
	if next.QMgrs["QM2"] != first.QMgrs["QM2"] || next.QMgrs["QM1"] == first.QMgrs["QM1"] {
		t.Fatal("a picture after QM1's fold copied QM2 or kept QM1's old figures")
	}
	if !next.IsPicture() || s.IsPicture() {
		t.Fatal("IsPicture")
	}
	if q := next.QMgr("QM9"); q == nil || len(next.QMgrs) != 2 {
		t.Fatal("a picture kept a queue manager a reader asked for")
	}
}

// TestReannotatedPictureHasTheAcknowledgement: after an acknowledgement
// the picture is made again with it (alerts only); without one it is the
// same picture.
func TestReannotatedPictureHasTheAcknowledgement(t *testing.T) {
	s := New(func() time.Time { return t0 }, 5*time.Second)
	growing(s, &snapBuilder{}, t0, 4, 3, 2)
	pic := s.Picture(nil, "")
	if pic.Reannotated() != pic {
		t.Fatal("a picture with nothing new was made again")
	}
	r8d, _ := firingRule(pic, "R8d")
	if _, ok := s.Book.Acknowledge(r8d.Key(), Ack{By: "alice", At: t0}); !ok {
		t.Fatal("acknowledge")
	}
	again := pic.Reannotated()
	if got, _ := firingRule(again, "R8d"); got.History.Ack.By != "alice" {
		t.Fatalf("reannotated R8d %+v, want alice's acknowledgement", got.History)
	}
	if got, _ := firingRule(pic, "R8d"); got.History.Ack.By != "" {
		t.Fatal("the acknowledgement changed the old picture")
	}
	if again.QMgrs["QM1"].Queues["DLQ"] != pic.QMgrs["QM1"].Queues["DLQ"] {
		t.Fatal("reannotating copied more than the alerts")
	}
}

// TestPicturesReadWhileTheStateFolds: sessions read pictures while the
// next snapshot is folded (go test -race tells a write they share).
func TestPicturesReadWhileTheStateFolds(t *testing.T) {
	s := New(func() time.Time { return t0 }, 5*time.Second)
	b := &snapBuilder{}
	var inv *mqwatch.Inventory
	fold := func(i int, drop bool) {
		var d mqwatch.InventoryDelta
		if drop && inv.Len() > 0 {
			var first mqwatch.Summary
			inv.Load(0, &first)
			d.Dropped = []mqwatch.Summary{first}
			inv = inv.DropHead(1)
		}
		add := dlqMsg(i)
		d.Added = []mqwatch.Summary{add}
		inv = inv.Append(add)
		b.views = []mqwatch.QueueView{local("DLQ", int32(inv.Len()), 100, 0, "")}
		b.views[0].Role = mqwatch.RoleDeadQ
		b.invs = map[string]*mqwatch.Inventory{"DLQ": inv}
		b.delta = map[string]mqwatch.InventoryDelta{"DLQ": d}
		s.Fold(b.snap(t0.Add(time.Duration(i) * time.Second)))
	}
	for i := range 5 {
		fold(i, false)
	}
	for i := 5; i < 30; i++ {
		pic := s.Picture(nil, "")
		var wg sync.WaitGroup
		for range 4 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				_ = seen(pic)
				for _, d := range DLQDims {
					pic.QMgrs["QM1"].Groups["DLQ"].Groups(d)
				}
				_ = pic.QMgrs["QM1"].Findings()
			}()
		}
		fold(i, true) // drains the head: the live groups' ages go stale
		wg.Wait()
	}
	if len(s.QMgr("QM1").Groups["DLQ"].Groups(DimReason)) != 2 {
		t.Fatal("the DEADQ's two reasons were not grouped")
	}
}

// dlqMsg is a dead letter with reason and put time, for groups with ages.
func dlqMsg(i int) mqwatch.Summary {
	s := msg(byte(i), 0)
	s.HasDLH, s.DLHReason, s.DLHDestQ = true, int32(2035+i%2*50), "APP.IN"
	s.PutTime = t0.Add(time.Duration(i) * time.Second)
	return s
}

// TestRingCloneKeepsItsPoints: a ring cloned for a picture keeps adding
// as a ring does, and the clone keeps the points it had, whenever it was
// taken (empty, filling, full, full again after its buffer moved on).
func TestRingCloneKeepsItsPoints(t *testing.T) {
	for _, size := range []int{1, 3, 8, 120} {
		t.Run(fmt.Sprint(size), func(t *testing.T) {
			plain, shared := NewRing(size), NewRing(size)
			type taken struct {
				c    *Ring
				want []float64
			}
			var clones []taken
			for i := range 5 * size {
				if i%2 == 0 || i == 0 {
					c := shared.clone()
					clones = append(clones, taken{c, c.Values()})
				}
				at := t0.Add(time.Duration(i) * time.Second)
				plain.Add(at, float64(i))
				shared.Add(at, float64(i))
				if !slices.Equal(plain.Values(), shared.Values()) {
					t.Fatalf("after %d adds: shared ring %v, a ring %v", i+1, shared.Values(), plain.Values())
				}
				if p, s := plain.At(0), shared.At(0); !p.T.Equal(s.T) {
					t.Fatalf("after %d adds: oldest at %s, want %s", i+1, s.T, p.T)
				}
			}
			for i, c := range clones {
				if !slices.Equal(c.c.Values(), c.want) {
					t.Fatalf("clone %d changed: %v, was %v", i, c.c.Values(), c.want)
				}
			}
		})
	}
}

// TestPictureSortsItsQueuesOnce: a picture's queues come in the state's
// order (sorted once, when the picture is made, for every session that
// shows it), and a caller that sorts its copy again leaves the next
// caller's order alone.
func TestPictureSortsItsQueuesOnce(t *testing.T) {
	s := New(func() time.Time { return t0 }, 5*time.Second)
	b := &snapBuilder{}
	for _, name := range []string{"ORDERS.IN", "AUDIT.IN", "ZULU.IN", "BILLING.IN", "DLQ"} {
		b.views = append(b.views, local(name, 1, 100, 0, ""))
	}
	b.views[2].HasStatus = false // listed after those with status
	s.Fold(b.snap(t0))
	names := func(qs []*QueueState) []string {
		var out []string
		for _, qs := range qs {
			out = append(out, qs.View.Info.Name)
		}
		return out
	}
	want := names(s.QMgr("QM1").SortedQueues())
	pic := s.Picture(nil, "")
	got := pic.QMgr("QM1").SortedQueues()
	if len(want) != 5 || want[4] != "ZULU.IN" || !slices.Equal(names(got), want) {
		t.Fatalf("picture's queues %v, the state's %v", names(got), want)
	}
	slices.Reverse(got)
	if again := names(pic.QMgr("QM1").SortedQueues()); !slices.Equal(again, want) {
		t.Fatalf("after a caller reordered its copy: %v, want %v", again, want)
	}
}
