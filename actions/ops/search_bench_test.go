package ops_test

import (
	"context"
	"encoding/binary"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/poisonwatch/poisonwatch/actions/ops"
	"github.com/poisonwatch/poisonwatch/backend/embedded"
	"github.com/poisonwatch/poisonwatch/codec/mqfmt"
	"github.com/poisonwatch/poisonwatch/mqwatch"
)

// millionQueue is the queue manager of BenchmarkBodySearch1M, with
// 1,000,000 messages of 1 KiB on SEARCH.Q. Putting them takes longer than
// a search, so it is built once per benchmark process and shared by every
// run (-count) of the benchmark; a search only browses, so each run sees
// the same queue.
var millionQueue = sync.OnceValues(func() (*embedded.QMgr, error) {
	const n = 1_000_000
	qm := embedded.New(embedded.Options{Name: "QM1", ProcessUser: "mqm", ProgramName: "searchbench"})
	if _, err := qm.RunMQSC(strings.NewReader("DEFINE QLOCAL(SEARCH.Q) MAXDEPTH(1000000)\n")); err != nil {
		return nil, err
	}
	ctx := context.Background()
	c, err := qm.Connect(ctx, mqwatch.ConnectOptions{})
	if err != nil {
		return nil, err
	}
	defer c.Close()
	q, err := c.Open(ctx, mqwatch.ObjectDesc{Name: "SEARCH.Q"}, mqwatch.OpenOptions{Output: true})
	if err != nil {
		return nil, err
	}
	defer q.Close(ctx)
	body := make([]byte, 1024)
	for i := range body {
		body[i] = 'a' + byte(i%26)
	}
	md := mqfmt.NewMQMD()
	md.Format, md.CodedCharSetId = mqfmt.FmtString, 500
	for i := range n {
		binary.BigEndian.PutUint64(md.MsgId[16:], uint64(i))
		if err := q.Put(ctx, &md, body, mqwatch.PutOptions{}); err != nil {
			return nil, err
		}
	}
	return qm, nil
})

// BenchmarkBodySearch1M is the search of ctrl+f and --body at the scale
// the dashboard promises (#28 §5): 1,000,000 messages of 1 KiB on the
// embedded queue manager, for a text in none of them, so every body is
// read whole. It reports messages per second, what the search allocates
// per message, what it keeps once done (no body: nothing but its
// progress) and the peak heap above the queue manager's own.
//
//	go test ./actions/ops -run '^$' -bench 'BodySearch1M' -benchtime 1x -count 3
func BenchmarkBodySearch1M(b *testing.B) {
	const n = 1_000_000
	qm, err := millionQueue()
	if err != nil {
		b.Fatal(err)
	}
	dir := b.TempDir()
	eng, err := ops.NewEngine(ops.EngineOptions{Connector: qm, QMgr: "QM1", User: "bench",
		AuditPath: filepath.Join(dir, "audit.jsonl"), ArchiveDir: filepath.Join(dir, "archive")})
	if err != nil {
		b.Fatal(err)
	}
	p, _ := ops.ParseBodyPattern("NO SUCH TEXT")
	base := settledHeap()
	peak := samplePeakHeap()
	b.ReportAllocs()
	b.ResetTimer()
	cpu0, _ := processCPU()
	start := time.Now()
	for range b.N {
		sp, err := eng.SearchBodies(context.Background(), "SEARCH.Q", p, nil, func(mqwatch.Summary) {})
		if err != nil || sp.Scanned != n {
			b.Fatalf("search = %+v %v", sp, err)
		}
	}
	el := time.Since(start)
	cpu1, cpuOK := processCPU()
	b.StopTimer()
	top := peak()
	b.ReportMetric(float64(n*b.N)/el.Seconds(), "msgs/s")
	// On a shared machine the wall clock measures the neighbours too; the
	// process's CPU time (the search, the queue manager answering it and
	// the collector) does not.
	if cpuOK {
		b.ReportMetric(float64(n*b.N)/(cpu1-cpu0).Seconds(), "msgs/cpu-s")
	}
	b.ReportMetric(float64(base)/(1<<20), "queue-heap-MiB")
	b.ReportMetric((float64(settledHeap())-float64(base))/(1<<20), "search-retained-MiB")
	b.ReportMetric((float64(top)-float64(base))/(1<<20), "search-peak-heap-MiB")
}

// settledHeap is the heap in use after a collection: what is kept.
func settledHeap() uint64 {
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return ms.HeapInuse
}

// samplePeakHeap samples the heap in use every 20 ms until the function
// it returns is called, which returns the largest seen.
func samplePeakHeap() func() uint64 {
	var top atomic.Uint64
	stop, done := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(done)
		var ms runtime.MemStats
		for {
			runtime.ReadMemStats(&ms)
			if ms.HeapInuse > top.Load() {
				top.Store(ms.HeapInuse)
			}
			select {
			case <-stop:
				return
			case <-time.After(20 * time.Millisecond):
			}
		}
	}()
	return func() uint64 {
		close(stop)
		<-done
		return top.Load()
	}
}
