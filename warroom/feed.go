// Package warroom serves the dashboard to many SSH sessions at once
// (poisonwatch serve): one set of watchers whose snapshots every session
// shares, a room that knows who is connected and who drives, and the
// operations each session may run according to its role.
package warroom

import (
	"context"
	"sync"

	"github.com/poisonwatch/poisonwatch/mqwatch"
	"github.com/poisonwatch/poisonwatch/ui"
)

// Feed is one watcher shared by every session: the queue manager is polled
// once per interval whatever the audience, each snapshot is folded once
// into the room's model (Fold), whose picture the sessions show, and
// sessions' focus, refresh and forget requests reach the one watcher.
// Subscribers that read the snapshots themselves (a session without the
// room's model) read latest-wins, as from the watcher, so a slow one skips
// snapshots (the deltas' sequence numbers let its model catch up) and
// never holds up the others or the watcher.
type Feed struct {
	src  ui.Source
	fold *Fold // nil: snapshots are only handed out

	mu     sync.Mutex
	subs   map[*Sub]struct{}
	last   *mqwatch.Snapshot
	closed bool
	seq    int // orders focus requests: the newest one wins
	focus  string
}

// NewFeed shares src, folding its snapshots into fold (nil: none); Run
// must be started to move snapshots.
func NewFeed(src ui.Source, fold *Fold) *Feed {
	return &Feed{src: src, fold: fold, subs: map[*Sub]struct{}{}}
}

// Run folds every snapshot of the source and copies it to the subscribers
// until the source's channel closes (its watcher stopped); it then closes
// theirs. The fold comes first: a subscriber that has a snapshot finds the
// picture of it published.
func (f *Feed) Run(ctx context.Context) {
	mqwatch.Each(ctx, f.src, func(snap *mqwatch.Snapshot) {
		if f.fold != nil {
			f.fold.Fold(snap)
		}
		f.mu.Lock()
		f.last = snap
		for s := range f.subs {
			s.offer(snap)
		}
		f.mu.Unlock()
	})
	f.close()
}

func (f *Feed) close() {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.closed = true
	for s := range f.subs {
		close(s.out)
		delete(f.subs, s)
	}
}

// Subscribe adds a session. It starts with the latest snapshot, so a new
// session paints at once instead of waiting an interval.
func (f *Feed) Subscribe() *Sub {
	s := &Sub{feed: f, out: make(chan *mqwatch.Snapshot, 1)}
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.closed {
		close(s.out)
		return s
	}
	if f.last != nil {
		s.out <- f.last
	}
	f.subs[s] = struct{}{}
	return s
}

// Sessions is how many sessions read the feed.
func (f *Feed) Sessions() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return len(f.subs)
}

// Sub is one session's view of a Feed; it is the ui.Source the session's
// App asks for polls, focus and forgets.
type Sub struct {
	feed  *Feed
	out   chan *mqwatch.Snapshot
	focus string
	seq   int // when focus was set; 0 for never
}

var _ ui.Source = (*Sub)(nil)

// offer replaces an unread snapshot with snap; called with the feed locked.
func (s *Sub) offer(snap *mqwatch.Snapshot) {
	select {
	case <-s.out:
	default:
	}
	s.out <- snap
}

// Name is the queue manager's name.
func (s *Sub) Name() string { return s.feed.src.Name() }

// Snapshots delivers the feed's latest snapshot.
func (s *Sub) Snapshots() <-chan *mqwatch.Snapshot { return s.out }

// Refresh asks for a poll now; requests from many sessions coalesce into one
// poll, as the watcher's own wake-up does.
func (s *Sub) Refresh() { s.feed.src.Refresh() }

// Forget passes removed messages to the watcher.
func (s *Sub) Forget(queue string, keys ...mqwatch.Key) { s.feed.src.Forget(queue, keys...) }

// SetFocus records the queue this session has open. The watcher browses one
// focus: the queue most recently opened by any session that still has one
// open, so a session going back to the dashboard does not take away another
// session's queue.
func (s *Sub) SetFocus(queue string) {
	f := s.feed
	f.mu.Lock()
	f.seq++
	s.focus, s.seq = queue, f.seq
	f.applyFocusLocked()
	f.mu.Unlock()
}

// applyFocusLocked tells the watcher the focus when it changed: sessions
// moving between screens that share a focus cost no poll.
func (f *Feed) applyFocusLocked() {
	if focus := f.focusLocked(); focus != f.focus {
		f.focus = focus
		f.src.SetFocus(focus)
	}
}

func (f *Feed) focusLocked() string {
	best, seq := "", 0
	for s := range f.subs {
		if s.focus != "" && s.seq > seq {
			best, seq = s.focus, s.seq
		}
	}
	return best
}

// Close ends the session's subscription and gives up its focus. It closes
// the channel the session's App waits on, so that wait ends with the
// session instead of holding the App (and its goroutines) for good.
func (s *Sub) Close() {
	f := s.feed
	f.mu.Lock()
	if _, ok := f.subs[s]; !ok {
		f.mu.Unlock()
		return
	}
	delete(f.subs, s)
	close(s.out)
	f.applyFocusLocked()
	f.mu.Unlock()
}
