package warroom

import (
	"encoding/binary"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/poisonwatch/poisonwatch/codec/mqfmt"
	"github.com/poisonwatch/poisonwatch/model"
	"github.com/poisonwatch/poisonwatch/mqwatch"
)

// BenchmarkRoomFold measures what one poll's snapshot costs the room with
// 1, 10 and 50 sessions: one op takes the snapshot into every session.
// "each-session" is the room as it was, every session's App folding the
// snapshot into a model of its own (one book shared); "room" is the room's
// one fold (Fold) and its picture, handed to every session. The snapshot is
// a queue manager's of 200 input queues and a DEADQ of 2,000 messages
// that gains 20 a poll and loses 20 from the head (a handler draining it),
// made off the clock. What a session does with its model after
// (refresh, render) is the same either way and is not timed:
//
//	go test -run '^$' -bench BenchmarkRoomFold -benchmem ./warroom/
func BenchmarkRoomFold(b *testing.B) {
	for _, mode := range []string{"each-session", "room"} {
		for _, n := range []int{1, 10, 50} {
			b.Run(fmt.Sprintf("%s/sessions=%d", mode, n), func(b *testing.B) {
				g := newPollGen(200, 2000, 20)
				take := roomTaker(n)
				if mode == "each-session" {
					take = sessionsTaker(n)
				}
				for range 5 { // history for rates and sparklines
					take(g.next())
				}
				b.ResetTimer()
				batch := make([]*mqwatch.Snapshot, 0, 64)
				for done := 0; done < b.N; done += len(batch) {
					// The polls are made a batch at a time, off the clock.
					b.StopTimer()
					batch = batch[:0]
					for range min(cap(batch), b.N-done) {
						batch = append(batch, g.next())
					}
					b.StartTimer()
					for _, snap := range batch {
						take(snap)
					}
				}
			})
		}
	}
}

// sessionsTaker folds each snapshot into n sessions' models, as every
// session's App did before the room folded once.
func sessionsTaker(n int) func(*mqwatch.Snapshot) {
	book := model.NewAlertBook()
	states := make([]*model.State, n)
	for i := range states {
		states[i] = model.New(nil, 5*time.Second)
		states[i].Book = book
	}
	return func(snap *mqwatch.Snapshot) {
		for _, st := range states {
			st.Fold(snap)
		}
	}
}

// roomTaker folds each snapshot once into the room's model and gives n
// sessions its picture.
func roomTaker(n int) func(*mqwatch.Snapshot) {
	f := NewFold(model.New(nil, 5*time.Second))
	pics := make([]*Pictures, n)
	for i := range pics {
		pics[i] = f.Subscribe()
	}
	return func(snap *mqwatch.Snapshot) {
		f.Fold(snap)
		for _, p := range pics {
			<-p.Pictures()
		}
	}
}

// pollGen makes a watcher's snapshots of one queue manager, poll after
// poll: input queues whose depths move, a DEADQ inventoried with deltas.
type pollGen struct {
	seq     uint64
	now     time.Time
	views   []mqwatch.QueueView
	inv     *mqwatch.Inventory
	nextMsg int
	churn   int
}

func newPollGen(queues, deadq, churn int) *pollGen {
	g := &pollGen{now: time.Date(2026, 12, 1, 20, 0, 0, 0, time.UTC), churn: churn}
	dlq := mqwatch.QueueView{Info: mqwatch.QueueInfo{Name: "QM1.DEADQ", Type: mqwatch.QLocal, MaxDepth: 100000},
		Status: mqwatch.QueueStatus{Name: "QM1.DEADQ", Monitored: true}, HasStatus: true, Role: mqwatch.RoleDeadQ}
	g.views = append(g.views, dlq)
	for i := range queues {
		name := fmt.Sprintf("APP.%03d.IN", i)
		g.views = append(g.views, mqwatch.QueueView{
			Info:   mqwatch.QueueInfo{Name: name, Type: mqwatch.QLocal, MaxDepth: 5000, BackoutThresh: 3, BackoutQName: "QM1.DEADQ"},
			Status: mqwatch.QueueStatus{Name: name, Monitored: true, OpenInput: 1}, HasStatus: true, Role: mqwatch.RoleInput})
	}
	g.inv = g.inv.Append(g.deadLetters(deadq)...)
	return g
}

// deadLetters are n new dead letters, of a few reasons and destinations.
func (g *pollGen) deadLetters(n int) []mqwatch.Summary {
	out := make([]mqwatch.Summary, n)
	for i := range out {
		k := g.nextMsg
		g.nextMsg++
		s := &out[i]
		binary.BigEndian.PutUint64(s.MsgId[:], uint64(k))
		s.PutTime = g.now.Add(-time.Duration(k) * time.Millisecond)
		s.HasDLH, s.DLHReason = true, []int32{int32(mqfmt.RCQFull), 2085, 2053}[k%3]
		s.DLHDestQ, s.DLHDestQMgr = fmt.Sprintf("APP.%03d.IN", k%7), "QM1"
		s.PutApplName, s.Format, s.Length = "orders-app", mqfmt.FmtString, 512
	}
	return out
}

// next is the next poll's snapshot.
func (g *pollGen) next() *mqwatch.Snapshot {
	g.seq++
	g.now = g.now.Add(5 * time.Second)
	added := g.deadLetters(g.churn)
	d := mqwatch.InventoryDelta{Added: added}
	for i := range g.churn {
		d.Dropped = append(d.Dropped, *g.inv.At(i))
	}
	g.inv = g.inv.Append(added...).DropHead(g.churn)
	views := slices.Clone(g.views)
	for i := range views {
		views[i].Status.Depth = int32((int(g.seq)*7 + i*13) % 400)
	}
	views[0].Status.Depth = int32(g.inv.Len())
	return &mqwatch.Snapshot{Seq: g.seq, Time: g.now, QMgrName: "QM1", Connected: true,
		QMgr:   mqwatch.QMgrInfo{Name: "QM1", DeadQ: "QM1.DEADQ"},
		Queues: views, Inventories: map[string]*mqwatch.Inventory{"QM1.DEADQ": g.inv},
		Deltas: map[string]mqwatch.InventoryDelta{"QM1.DEADQ": d}, Poll: mqwatch.PollStats{Duration: 20 * time.Millisecond}}
}
