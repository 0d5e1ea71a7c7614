package report

import (
	"path/filepath"
	"testing"
	"time"

	"github.com/poisonwatch/poisonwatch/incident/journal"

	"github.com/poisonwatch/poisonwatch/actions"
	"github.com/poisonwatch/poisonwatch/incident/record"
	"github.com/poisonwatch/poisonwatch/model"
	"github.com/poisonwatch/poisonwatch/mqwatch"
)

// warm is when the war room's recording starts: one warm-up poll, then
// nothing for 15 minutes, then a poll a minute from 21:35 to 21:50.
var warm = time.Date(2026, 12, 1, 21, 20, 0, 0, time.UTC)

// queues are one queue manager's queues at one poll.
type queues struct {
	qm          string
	deadQ, boq  int32 // depths
	boqMax      int32
	arrive      int // dead letters added since the last poll
	arriveCause int32
}

// recorder writes a recording poll by poll, keeping each DEADQ's
// inventory as the watcher does.
type recorder struct {
	t    *testing.T
	w    *record.Writer
	path string
	inv  map[string]*mqwatch.Inventory
	seq  uint64
	n    uint64
}

func newRecorder(t *testing.T, h record.Header) *recorder {
	t.Helper()
	path := filepath.Join(t.TempDir(), "r.pwrec")
	w, err := record.Create(path, 0, h)
	if err != nil {
		t.Fatal(err)
	}
	return &recorder{t: t, w: w, path: path, inv: map[string]*mqwatch.Inventory{}}
}

// poll records one connected poll of q.qm at at.
func (r *recorder) poll(at time.Time, q queues) {
	first := r.inv[q.qm] == nil
	var added []mqwatch.Summary
	for i := 0; i < q.arrive; i++ {
		r.n++
		s := mqwatch.Summary{HasDLH: true, DLHReason: q.arriveCause, DLHDestQ: "ORDERS.IN", DLHDestQMgr: q.qm, Arrival: r.n, DLHPutTime: at}
		s.MsgId[0], s.MsgId[1], s.MsgId[2] = byte(r.n), byte(r.n>>8), byte(r.n>>16)
		added = append(added, s)
	}
	r.inv[q.qm] = r.inv[q.qm].Append(added...)
	d := mqwatch.InventoryDelta{Added: added, Resync: first}
	r.seq++
	views := []mqwatch.QueueView{{Info: mqwatch.QueueInfo{Name: "DLQ", Type: mqwatch.QLocal, MaxDepth: 50000, MaxMsgLen: 4194304}, HasStatus: true, Role: mqwatch.RoleDeadQ,
		Status: mqwatch.QueueStatus{Name: "DLQ", Depth: q.deadQ}}}
	if q.boqMax > 0 {
		views = append(views, mqwatch.QueueView{Info: mqwatch.QueueInfo{Name: "ORDERS.BO", Type: mqwatch.QLocal, MaxDepth: q.boqMax, MaxMsgLen: 4194304}, HasStatus: true,
			Role: mqwatch.RoleBOQ, Status: mqwatch.QueueStatus{Name: "ORDERS.BO", Depth: q.boq}})
	}
	r.w.Snapshot(&mqwatch.Snapshot{Seq: r.seq, Time: at, QMgrName: q.qm, Connected: true,
		QMgr: mqwatch.QMgrInfo{Name: q.qm, DeadQ: "DLQ"}, Queues: views,
		Inventories: map[string]*mqwatch.Inventory{"DLQ": r.inv[q.qm]}, Deltas: map[string]mqwatch.InventoryDelta{"DLQ": d}})
}

func (r *recorder) done() *record.Recording {
	r.t.Helper()
	if err := r.w.Close(); err != nil {
		r.t.Fatal(err)
	}
	rec, err := record.ReadAll(r.path)
	if err != nil {
		r.t.Fatal(err)
	}
	return rec
}

// warRoom is the incident as recorded by serve: QM1's ORDERS.BO fills
// while its DEADQ grows by 3 a minute; QM2's DEADQ holds 2,000 dead
// letters and gains a few; alice requeues 21 messages; bob watches.
func warRoom(t *testing.T) *record.Recording {
	t.Helper()
	r := newRecorder(t, record.Header{Started: warm, Interval: time.Minute, Source: "serve", QMgrs: []string{"QM1", "QM2"}})
	r.poll(warm, queues{qm: "QM1", boqMax: 40})
	r.poll(warm, queues{qm: "QM2", deadQ: 2000, arrive: 2000, arriveCause: 2085})
	start := warm.Add(15 * time.Minute)
	for i := 0; i <= 15; i++ {
		at := start.Add(time.Duration(i) * time.Minute)
		r.poll(at, queues{qm: "QM1", deadQ: int32(3 * (i + 1)), arrive: 3, arriveCause: 2053, boq: int32(min(40, 4*i)), boqMax: 40})
		r.poll(at.Add(2*time.Second), queues{qm: "QM2", deadQ: int32(2000 + i), arrive: 1, arriveCause: 2085})
	}
	ep := model.Episode{Key: "k", QMgr: "QM1", Rule: "R8d", Queue: "DLQ", Sev: actions.Warning, Text: "growing: +3/min net", Start: start.Add(time.Minute)}
	r.w.Transitions([]model.Transition{{Kind: "fired", At: ep.Start, Episode: ep}})
	ep.Ack = model.Ack{By: "alice", At: start.Add(3 * time.Minute), Note: "ORDERS consumer down"}
	r.w.Transitions([]model.Transition{{Kind: "acked", At: ep.Ack.At, Episode: ep}})
	room := func(at time.Duration, ms ...record.Member) {
		r.w.Presence(record.Presence{At: start.Add(at), Members: ms})
	}
	alice := record.Member{User: "alice", Role: "operator", Where: "dashboard"}
	bob := record.Member{User: "bob", Role: "viewer", Where: "dashboard"}
	room(30*time.Second, alice)
	for i, where := range []string{"dlq", "message", "dlq", "dashboard"} { // alice looks around: the room's list changes, who is in it does not
		alice.Where = where
		room(time.Duration(35+5*i)*time.Second, alice)
	}
	room(2*time.Minute, alice, bob)
	alice.Driving = true
	room(3*time.Minute, alice, bob)
	room(9*time.Minute, alice)
	room(14*time.Minute, alice, bob)
	room(15 * time.Minute) // serve stops: the room empties
	run := journal.Entry{Seq: 1, At: start.Add(10 * time.Minute), Kind: journal.Run, User: "alice", Op: "requeue", QMgr: "QM1", Queue: "DLQ",
		Text: "Requeue 21 messages from DLQ to ORDERS.IN", Outcome: "21 requeued", Status: journal.OK,
		Counts: journal.Counts{Requested: 21, Done: 21}, Files: []string{"/state/audit.jsonl"}}
	r.w.Entry(run)
	r.w.Entry(journal.Entry{Seq: 2, Ref: 1, At: start.Add(10*time.Minute + 5*time.Second), Kind: journal.CameBack, User: "alice", Op: "requeue",
		QMgr: "QM1", Queue: "DLQ", Text: "the check after requeue 21 messages from DLQ to ORDERS.IN", Status: journal.Returned,
		Outcome: "all 21 came back (R10f) to DLQ within 4 s (2053: ORDERS.IN full)", Counts: journal.Counts{Requested: 21, Done: 21, CameBack: 21}})
	return r.done()
}

// recordHeader is a one-queue-manager dashboard recording's, polled a
// minute apart.
func recordHeader() record.Header {
	return record.Header{Started: warm, Interval: time.Minute, Source: "dashboard", QMgrs: []string{"QM1"}}
}
