package record

import (
	"os"
	"path/filepath"
	"runtime"
	"testing"
	"time"

	"github.com/poisonwatch/poisonwatch/mqwatch"
)

// BenchmarkRecordMillionDeadQ records a DEADQ of a million dead letters:
// its first poll in full, then 30 polls of 100 arrivals each. It reports
// the first poll's size, a later poll's, and the heap the write added
// (chunks of 20,000: never the million at once).
func BenchmarkRecordMillionDeadQ(b *testing.B) {
	const n = 1_000_000
	var inv *mqwatch.Inventory
	batch := make([]mqwatch.Summary, 0, 10000)
	for i := 0; i < n; i++ {
		batch = append(batch, dead(i%5000))
		batch[len(batch)-1].Arrival = uint64(i + 1)
		batch[len(batch)-1].MsgId[2], batch[len(batch)-1].MsgId[3] = byte(i>>16), byte(i>>24)
		batch[len(batch)-1].BodyPrefix = nil
		if len(batch) == cap(batch) {
			inv = inv.Append(batch...)
			batch = batch[:0]
		}
	}
	snap := func(seq uint64, inv *mqwatch.Inventory, d mqwatch.InventoryDelta) *mqwatch.Snapshot {
		return &mqwatch.Snapshot{Seq: seq, Time: t0.Add(time.Duration(seq) * 2 * time.Second), QMgrName: "QM1", Connected: true,
			QMgr: mqwatch.QMgrInfo{Name: "QM1", DeadQ: "DLQ"},
			Queues: []mqwatch.QueueView{{Info: mqwatch.QueueInfo{Name: "DLQ", MaxDepth: 999999999}, HasStatus: true, Role: mqwatch.RoleDeadQ,
				Status: mqwatch.QueueStatus{Name: "DLQ", Depth: int32(inv.Len())}}},
			Inventories: map[string]*mqwatch.Inventory{"DLQ": inv}, Deltas: map[string]mqwatch.InventoryDelta{"DLQ": d}}
	}
	for b.Loop() {
		path := filepath.Join(b.TempDir(), "m.pwrec")
		w, err := Create(path, 1<<40, Header{QMgrs: []string{"QM1"}})
		if err != nil {
			b.Fatal(err)
		}
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		w.Snapshot(snap(1, inv, mqwatch.InventoryDelta{Resync: true}))
		runtime.ReadMemStats(&after)
		st, _ := os.Stat(path)
		first := st.Size()
		cur := inv
		for s := uint64(2); s <= 31; s++ {
			var add []mqwatch.Summary
			for j := 0; j < 100; j++ {
				d := dead(int(s)*100 + j)
				d.Arrival, d.BodyPrefix = uint64(n)+s*100+uint64(j), nil
				d.MsgId[4] = 0xff
				add = append(add, d)
			}
			cur = cur.Append(add...)
			w.Snapshot(snap(s, cur, mqwatch.InventoryDelta{Added: add}))
		}
		w.Close()
		st, _ = os.Stat(path)
		b.ReportMetric(float64(first)/1e6, "MB-first-poll")
		b.ReportMetric(float64(st.Size()-first)/30/1e3, "kB/later-poll")
		b.ReportMetric(float64(after.TotalAlloc-before.TotalAlloc)/1e6, "MB-allocated-first-poll")
	}
}
