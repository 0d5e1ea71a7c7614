package embedded

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/poisonwatch/poisonwatch/codec/mqfmt"
	"github.com/poisonwatch/poisonwatch/mqwatch"
)

// benchQueue returns a queue holding depth messages, and their MsgIds.
func benchQueue(b *testing.B, depth int) (mqwatch.Queue, [][24]byte) {
	b.Helper()
	qm := New(Options{Name: "BENCH", ProcessUser: "mqm"})
	if _, err := qm.RunMQSC(strings.NewReader("DEFINE QLOCAL(Q) MAXDEPTH(999999999)")); err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	c, err := qm.Connect(ctx, mqwatch.ConnectOptions{})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { _ = c.Close() })
	q, err := c.Open(ctx, mqwatch.ObjectDesc{Name: "Q"}, mqwatch.OpenOptions{Input: true, Browse: true, Output: true})
	if err != nil {
		b.Fatal(err)
	}
	ids := make([][24]byte, depth)
	body := []byte("poison message body")
	for i := range depth {
		md := mqfmt.NewMQMD()
		if err := q.Put(ctx, &md, body, mqwatch.PutOptions{}); err != nil {
			b.Fatal(err)
		}
		ids[i] = md.MsgId
	}
	return q, ids
}

// BenchmarkPutGet measures a put followed by a get on a shallow queue.
func BenchmarkPutGet(b *testing.B) {
	q, _ := benchQueue(b, 0)
	ctx := context.Background()
	body := []byte("poison message body")
	for b.Loop() {
		md := mqfmt.NewMQMD()
		if err := q.Put(ctx, &md, body, mqwatch.PutOptions{}); err != nil {
			b.Fatal(err)
		}
		if _, err := q.Get(ctx, mqwatch.GetOptions{}); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "msgs/s")
}

// BenchmarkGetByMsgId gets a message by MsgId from a deep queue and puts it
// back (same MsgId, at the tail), so the depth stays put. Flat ns/op between
// depths shows the MsgId index at work.
func BenchmarkGetByMsgId(b *testing.B) {
	for _, depth := range []int{1e3, 1e6} {
		b.Run(fmt.Sprintf("depth=1e%d", len(fmt.Sprint(depth))-1), func(b *testing.B) {
			q, ids := benchQueue(b, depth)
			ctx := context.Background()
			i := 0
			for b.Loop() {
				id := ids[i%len(ids)]
				i++
				m, err := q.Get(ctx, mqwatch.GetOptions{MsgId: &id})
				if err != nil {
					b.Fatal(err)
				}
				if err := q.Put(ctx, &m.MD, m.Data, mqwatch.PutOptions{}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkBrowseNext browses a deep queue from end to end, starting again at
// the end.
func BenchmarkBrowseNext(b *testing.B) {
	for _, depth := range []int{1e3, 1e6} {
		b.Run(fmt.Sprintf("depth=1e%d", len(fmt.Sprint(depth))-1), func(b *testing.B) {
			q, _ := benchQueue(b, depth)
			ctx := context.Background()
			opts := mqwatch.BrowseOptions{MaxBytes: 64}
			for b.Loop() {
				_, err := q.Browse(ctx, opts)
				if mqwatch.IsReason(err, mqfmt.RCNoMsgAvailable) {
					_, err = q.Browse(ctx, mqwatch.BrowseOptions{First: true, MaxBytes: 64})
				}
				if err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkBrowseUnmarked reads a deep queue the way a watcher does, each
// message once, with browse marks.
func BenchmarkBrowseUnmarked(b *testing.B) {
	q, _ := benchQueue(b, 1e5)
	ctx := context.Background()
	opts := mqwatch.BrowseOptions{First: true, Unmarked: true, MaxBytes: 64}
	for b.Loop() {
		_, err := q.Browse(ctx, opts)
		if mqwatch.IsReason(err, mqfmt.RCNoMsgAvailable) {
			b.StopTimer()
			_ = q.Close(ctx)
			q, _ = benchQueue(b, 1e5)
			b.StartTimer()
			continue
		}
		if err != nil {
			b.Fatal(err)
		}
	}
}
