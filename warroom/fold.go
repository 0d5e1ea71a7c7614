package warroom

import (
	"sync"

	"github.com/poisonwatch/poisonwatch/model"
	"github.com/poisonwatch/poisonwatch/mqwatch"
	"github.com/poisonwatch/poisonwatch/ui"
)

// Fold is the room's one model: every feed folds its snapshots into it
// once, whatever the audience, and each fold publishes a picture of it
// (model.State.Picture) that every session shows. A session that joins
// late sees the alerts, counts and histories the others see, and N
// sessions cost one fold and one picture, not N folds. Sessions keep only
// their view of it.
type Fold struct {
	mu     sync.Mutex
	state  *model.State // folded here only, under mu
	pic    *model.State // the latest picture, read by every session
	subs   map[*Pictures]struct{}
	closed bool
	// frames is what the sessions drew from the latest pictures: sessions
	// showing the same dashboard of the same picture draw it once.
	frames *ui.FrameCache
}

// NewFold folds into st (with its book, interval and queue managers'
// consumer styles); it publishes st's picture at once, so a session that
// joins before the first poll paints the queue managers as connecting.
func NewFold(st *model.State) *Fold {
	return &Fold{state: st, pic: st.Picture(nil, ""), subs: map[*Pictures]struct{}{}, frames: ui.NewFrameCache()}
}

// Fold folds snap and gives every session the picture.
func (f *Fold) Fold(snap *mqwatch.Snapshot) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.state.Fold(snap)
	f.publishLocked(f.state.Picture(f.pic, snap.QMgrName))
}

// Warmed says the simulated history has been read (the demo's warm-up):
// from now on a poll that lacks an alert carried over a restart clears it.
func (f *Fold) Warmed() {
	f.mu.Lock()
	f.state.Warming = false
	f.mu.Unlock()
}

// Latest is the newest picture.
func (f *Fold) Latest() *model.State {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.pic
}

// Reannotate publishes the picture with the book's latest histories,
// unless the picture has them already: the acknowledging session and
// every session told of it ask, and one picture serves them all.
func (f *Fold) Reannotate() *model.State {
	f.mu.Lock()
	defer f.mu.Unlock()
	if pic := f.pic.Reannotated(); pic != f.pic {
		f.publishLocked(pic)
	}
	return f.pic
}

// publishLocked makes pic the latest and offers it to every session,
// latest-wins: a session that does not read (a stalled client) skips
// pictures and never holds up the fold.
func (f *Fold) publishLocked(pic *model.State) {
	f.pic = pic
	for p := range f.subs {
		select {
		case <-p.out:
		default:
		}
		p.out <- pic
	}
}

// Subscribe adds a session; Close takes it away.
func (f *Fold) Subscribe() *Pictures {
	p := &Pictures{fold: f, out: make(chan *model.State, 1)}
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.closed {
		close(p.out)
		return p
	}
	f.subs[p] = struct{}{}
	return p
}

// Sessions is how many sessions show the fold's pictures.
func (f *Fold) Sessions() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return len(f.subs)
}

// close ends every subscription: the sessions' waits for a picture end.
func (f *Fold) close() {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.closed = true
	for p := range f.subs {
		close(p.out)
		delete(f.subs, p)
	}
}

// Pictures is one session's subscription to the Fold: the ui.SharedModel
// its App shows.
type Pictures struct {
	fold *Fold
	out  chan *model.State
}

var (
	_ ui.SharedModel = (*Pictures)(nil)
	_ ui.FrameSharer = (*Pictures)(nil)
)

// Frames is what the room's sessions drew from its pictures.
func (p *Pictures) Frames() *ui.FrameCache { return p.fold.frames }

// Pictures delivers the fold's newest picture.
func (p *Pictures) Pictures() <-chan *model.State { return p.out }

// Latest is the fold's newest picture.
func (p *Pictures) Latest() *model.State { return p.fold.Latest() }

// Reannotate asks the fold for the picture with the latest histories.
func (p *Pictures) Reannotate() *model.State { return p.fold.Reannotate() }

// Close ends the subscription and the channel the session's App waits on.
func (p *Pictures) Close() {
	f := p.fold
	f.mu.Lock()
	defer f.mu.Unlock()
	if _, ok := f.subs[p]; !ok {
		return
	}
	delete(f.subs, p)
	close(p.out)
}
