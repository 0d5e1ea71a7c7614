package ops_test

import (
	"context"
	"fmt"
	"runtime"
	"sync/atomic"
	"testing"
	"time"

	"github.com/poisonwatch/poisonwatch/actions/ops"
	"github.com/poisonwatch/poisonwatch/codec/mqfmt"
	"github.com/poisonwatch/poisonwatch/internal/bodyedit"
	"github.com/poisonwatch/poisonwatch/mqwatch"
)

func TestBodyPatternMatchesInTheBodysCCSIDAndHex(t *testing.T) {
	ebcdic, _ := bodyedit.Encode("ORDER 42 [rush]", 500, mqfmt.EncodingNormal)
	utf16, _ := bodyedit.Encode("Bestellung ÄÖÜ", 1200, mqfmt.EncodingNormal)
	for _, tc := range []struct {
		name, pattern string
		body          []byte
		ccsid         int32
		want          bool
	}{
		{"text in EBCDIC 500", "[rush]", ebcdic, 500, true},
		{"text not in EBCDIC 500", "[slow]", ebcdic, 500, false},
		{"text in UTF-16", "ÄÖÜ", utf16, 1200, true},
		{"text in UTF-8", "qty", []byte(`{"qty":3}`), 1208, true},
		{"hex", "hex:5A", ebcdic, 500, true},
		{"hex with 0x and spaces", "0x d6 d9", ebcdic, 500, true},
		{"hex absent", "hex:FFFF", ebcdic, 500, false},
		{"a character the CCSID lacks never matches", "€", ebcdic, 500, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p, err := ops.ParseBodyPattern(tc.pattern)
			if err != nil {
				t.Fatal(err)
			}
			if got := p.Match(tc.body, tc.ccsid, mqfmt.EncodingNormal); got != tc.want {
				t.Fatalf("Match = %v, want %v", got, tc.want)
			}
		})
	}
	if _, err := ops.ParseBodyPattern("hex:ABC"); err == nil {
		t.Fatal("an odd hex pattern must be refused")
	}
}

func TestSearchBodiesStreamsMatchesAndCanBeCancelled(t *testing.T) {
	f := newOpFixture(t, "")
	c := f.conn()
	for i := range 1200 {
		md, data := original(i)
		if i%100 == 7 {
			data = []byte(fmt.Sprintf(`{"order":%d,"sku":"NEEDLE"}`, i))
		}
		f.putSetAll(c, "PARKING.Q", md, data)
	}
	p, _ := ops.ParseBodyPattern("NEEDLE")
	var found []mqwatch.Summary
	var reports int
	sp, err := f.engine().SearchBodies(f.ctx, "PARKING.Q", p, func(ops.SearchProgress) { reports++ }, func(s mqwatch.Summary) { found = append(found, s) })
	if err != nil || sp.Scanned != 1200 || sp.Depth != 1200 || sp.Matched != 12 || len(found) != 12 || reports != 2 {
		t.Fatalf("search = %+v %v, found %d, reports %d", sp, err, len(found), reports)
	}
	if found[0].MsgId != msgID(7) {
		t.Fatalf("first match %x, want message 7", found[0].MsgId)
	}
	ctx, cancel := context.WithCancel(f.ctx)
	sp, err = f.engine().SearchBodies(ctx, "PARKING.Q", p, func(ops.SearchProgress) { cancel() }, func(mqwatch.Summary) {})
	if err != context.Canceled || sp.Scanned != 500 {
		t.Fatalf("cancelled search = %+v %v, want stopped after the first report", sp, err)
	}
}

// BenchmarkSearchBodies searches 100,000 messages of 1 KiB on the embedded
// queue manager for a text that is in none of them (the worst case: every
// body is looked at whole) and reports messages per second and the peak
// heap the search adds to what the queue manager holds.
func BenchmarkSearchBodies(b *testing.B) {
	const n = 100_000
	f := newOpFixture(b, "")
	c := f.conn()
	q, err := c.Open(f.ctx, mqwatch.ObjectDesc{Name: "PARKING.Q"}, mqwatch.OpenOptions{Output: true})
	if err != nil {
		b.Fatal(err)
	}
	body := make([]byte, 1024)
	for i := range body {
		body[i] = 'a' + byte(i%26)
	}
	for i := range n {
		md := mqfmt.NewMQMD()
		md.Format, md.CodedCharSetId = mqfmt.FmtString, 500
		md.MsgId = msgID(i)
		if err := q.Put(f.ctx, &md, body, mqwatch.PutOptions{}); err != nil {
			b.Fatal(err)
		}
	}
	p, _ := ops.ParseBodyPattern("NO SUCH TEXT")
	eng := f.engine()
	runtime.GC()
	var base runtime.MemStats
	runtime.ReadMemStats(&base) // the queue manager's 100,000 messages
	var peak atomic.Uint64
	stop := make(chan struct{})
	go func() {
		var ms runtime.MemStats
		for {
			runtime.ReadMemStats(&ms)
			if ms.HeapInuse > peak.Load() {
				peak.Store(ms.HeapInuse)
			}
			select {
			case <-stop:
				return
			case <-time.After(20 * time.Millisecond):
			}
		}
	}()
	b.ResetTimer()
	start := time.Now()
	for range b.N {
		sp, err := eng.SearchBodies(f.ctx, "PARKING.Q", p, nil, func(mqwatch.Summary) {})
		if err != nil || sp.Scanned != n {
			b.Fatalf("search = %+v %v", sp, err)
		}
	}
	el := time.Since(start)
	b.StopTimer()
	close(stop)
	b.ReportMetric(float64(n*b.N)/el.Seconds(), "msgs/s")
	runtime.GC()
	var after runtime.MemStats
	runtime.ReadMemStats(&after)
	b.ReportMetric(float64(base.HeapInuse)/(1<<20), "queue-heap-MiB")
	// What the search keeps (matches only: none here); the peak above it is
	// garbage the collector's pacing lets grow with the live heap (GOGC).
	b.ReportMetric((float64(after.HeapInuse)-float64(base.HeapInuse))/(1<<20), "search-retained-MiB")
	b.ReportMetric((float64(peak.Load())-float64(base.HeapInuse))/(1<<20), "search-peak-heap-MiB")
}
