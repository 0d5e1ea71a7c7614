package mqwatch

import (
	"context"
	"testing"
	"time"
)

type chanSource chan *Snapshot

func (c chanSource) Snapshots() <-chan *Snapshot { return c }

func TestEachUntilTheChannelCloses(t *testing.T) {
	src := make(chanSource, 3)
	for _, n := range []string{"QM1", "QM2", "QM3"} {
		src <- &Snapshot{QMgrName: n}
	}
	close(src)
	var got []string
	Each(context.Background(), src, func(s *Snapshot) { got = append(got, s.QMgrName) })
	if len(got) != 3 || got[0] != "QM1" || got[2] != "QM3" {
		t.Errorf("got %v, want QM1 QM2 QM3 in order", got)
	}
}

func TestEachUntilTheContextIsDone(t *testing.T) {
	src := make(chanSource) // never closed
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	seen := make(chan string, 1)
	go func() {
		defer close(done)
		Each(ctx, src, func(s *Snapshot) { seen <- s.QMgrName })
	}()
	src <- &Snapshot{QMgrName: "QM1"}
	if n := <-seen; n != "QM1" {
		t.Fatalf("fn got %s", n)
	}
	cancel()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("Each still reading after its context was cancelled")
	}
}

// A watcher's own channel closes when Run returns: Each ends with it.
func TestEachEndsWithTheWatcher(t *testing.T) {
	w := NewWatcher(WatchConfig{Name: "QM1", Connector: refusing{}, Interval: time.Hour})
	ctx, cancel := context.WithCancel(context.Background())
	go w.Run(ctx)
	n := 0
	Each(context.Background(), w, func(*Snapshot) {
		if n++; n == 1 {
			cancel()
		}
	})
	if n == 0 {
		t.Error("no snapshot before the watcher stopped")
	}
}

// refusing is a queue manager that never answers a connect.
type refusing struct{}

func (refusing) Connect(context.Context, ConnectOptions) (Conn, error) {
	return nil, context.DeadlineExceeded
}
