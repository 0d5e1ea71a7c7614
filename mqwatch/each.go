package mqwatch

import "context"

// SnapshotSource is anything that delivers snapshots as a Watcher does: the
// watcher itself, a war room's feed of one, a recording being replayed.
type SnapshotSource interface {
	Snapshots() <-chan *Snapshot
}

// Each calls fn with each snapshot src delivers until its channel closes
// (the watcher stopped) or ctx is done, then returns. fn runs on the
// caller's goroutine, one snapshot at a time; while it runs the source keeps
// only the newest snapshot (latest wins), so a slow fn skips snapshots
// rather than queueing them.
func Each(ctx context.Context, src SnapshotSource, fn func(*Snapshot)) {
	in := src.Snapshots()
	for {
		select {
		case snap, ok := <-in:
			if !ok {
				return
			}
			fn(snap)
		case <-ctx.Done():
			return
		}
	}
}
