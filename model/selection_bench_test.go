package model

import (
	"runtime"
	"testing"

	"github.com/poisonwatch/poisonwatch/mqwatch"
)

// BenchmarkSelectionMarkAll1M is what marking every message of a
// 1,000,000-message DEADQ (ctrl+a) keeps alive: the live heap the selection
// adds after a GC, the inventory itself not counted (MiB/1M-marks, B/mark). One op is one selection of a
// million marks; run it once:
//
//	go test -run '^$' -bench BenchmarkSelectionMarkAll1M -benchtime 1x ./model/
func BenchmarkSelectionMarkAll1M(b *testing.B) {
	const n = 1_000_000
	s := mqwatch.Summary{Format: "MQSTR", HasDLH: true, DLHReason: 2053, DLHDestQ: "ORDERS.IN", DLHDestQMgr: "QM1",
		DLHPutAppl: "amqrmppa", PutApplName: "orders-app", UserId: "app", ReplyToQMgr: "QM1", Length: 512, Persistent: true}
	var inv *mqwatch.Inventory
	batch := make([]mqwatch.Summary, 0, 4096)
	for i := range n {
		s.MsgId[0], s.MsgId[1], s.MsgId[2], s.MsgId[3] = byte(i), byte(i>>8), byte(i>>16), byte(i>>24)
		s.Arrival = uint64(i + 1)
		if batch = append(batch, s); len(batch) == cap(batch) || i == n-1 {
			inv, batch = inv.Append(batch...), batch[:0]
		}
	}
	var perMark float64
	for b.Loop() {
		b.StopTimer()
		before := selHeap()
		b.StartTimer()
		sel := NewSelection()
		for i := range n {
			sel.MarkAt(inv, i) // as ctrl+a on the DEADQ's triage or list does
		}
		b.StopTimer()
		perMark = float64(selHeap()-before) / n
		if sel.Len() != n {
			b.Fatalf("%d marked, want %d", sel.Len(), n)
		}
		runtime.KeepAlive(sel)
		b.StartTimer()
	}
	b.ReportMetric(perMark*n/(1<<20), "MiB/1M-marks")
	b.ReportMetric(perMark, "B/mark")
}

func selHeap() int64 {
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return int64(m.HeapAlloc)
}
