package record

import (
	"fmt"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/poisonwatch/poisonwatch/model"
)

// Player replays a recording for the dashboard: it keeps the position
// (the last frame shown) and rebuilds the snapshots to fold on the way.
// Every CheckpointEvery of the recording passed going forward it keeps a
// checkpoint (its rebuilt state, and a step asking the dashboard to keep
// a copy of its own, model.PlaybackStep.Checkpoint); going back restarts
// from the last checkpoint before the target (model.PlaybackStep.Restore),
// not from the first frame.
type Player struct {
	rec  *Recording
	reb  *Rebuilder
	pos  int // frames applied so far
	at   time.Time
	told bool // that reading stopped early
	// CheckpointEvery is how much recorded time lies between checkpoints;
	// 0 keeps none (every seek back refolds from the start).
	CheckpointEvery time.Duration
	marks           []mark
}

// mark is a checkpoint: the rebuilt state after pos frames.
type mark struct {
	pos int
	at  time.Time
	reb *Rebuilder
}

// DefaultCheckpointEvery is a new Player's CheckpointEvery: a seek back
// folds at most two minutes of polls.
const DefaultCheckpointEvery = 2 * time.Minute

// NewPlayer starts a playback before the recording's first poll.
func NewPlayer(r *Recording) *Player {
	p := &Player{rec: r, reb: NewRebuilder(), CheckpointEvery: DefaultCheckpointEvery}
	if fr := r.Frames(); len(fr) > 0 {
		p.at = fr[0].Time()
	}
	return p
}

// Interval is the recorded poll interval.
func (p *Player) Interval() time.Duration { return p.rec.Header.Interval }

// QMgrs are the queue managers recorded.
func (p *Player) QMgrs() []string { return p.rec.Header.QMgrs }

// At is the replay's clock: the time of the last frame shown.
func (p *Player) At() time.Time { return p.at }

// Bounds are the first and last frame's times; the last moves while the
// recording is still being read.
func (p *Player) Bounds() (first, last time.Time, loaded bool) {
	fr := p.rec.Frames()
	if len(fr) == 0 {
		return time.Time{}, time.Time{}, p.rec.Loaded()
	}
	return fr[0].Time(), fr[len(fr)-1].Time(), p.rec.Loaded()
}

// Seek moves to the last frame at or before t (at least the first poll).
func (p *Player) Seek(t time.Time) (steps []model.PlaybackStep, fresh bool) {
	frames := p.rec.Frames()
	end := sort.Search(len(frames), func(i int) bool { return frames[i].Time().After(t) })
	end = max(end, p.firstPolls(frames))
	if end < p.pos || p.markAhead(end) {
		steps, fresh = p.rewind(end), true
	}
	for p.pos < end {
		fr, err := p.rec.Full(p.pos)
		if err != nil {
			// The playback stays where it is; what it shows is still
			// what the recording held up to there.
			return append(steps, model.PlaybackStep{Flash: err.Error()}), fresh
		}
		st := p.step(fr)
		p.pos++
		p.at = fr.Time()
		if fr.Poll != nil {
			st.Checkpoint = p.checkpoint()
		}
		steps = append(steps, st)
	}
	if err := p.rec.Err(); err != nil && p.pos == len(frames) && p.rec.Loaded() && !p.told {
		// The frames after a refused one are not shown: say why once, where
		// the playback stops.
		p.told = true
		steps = append(steps, model.PlaybackStep{Flash: "the recording ends here: " + err.Error()})
	}
	if fresh || len(steps) > 0 || t.Before(p.at) {
		return steps, fresh
	}
	// Between frames: the clock moves on, nothing else does.
	p.at = t
	return steps, fresh
}

// rewind goes back to the last checkpoint at or before frame end, or to
// the start without one; the step returned says which.
func (p *Player) rewind(end int) []model.PlaybackStep {
	i := sort.Search(len(p.marks), func(i int) bool { return p.marks[i].pos > end }) - 1
	if i < 0 {
		p.reb, p.pos = NewRebuilder(), 0
		return nil
	}
	m := p.marks[i]
	p.reb, p.pos, p.at = m.reb.clone(), m.pos, m.at
	return []model.PlaybackStep{{Restore: i + 1}}
}

// markAhead says a checkpoint lies at or before frame end and at least
// CheckpointEvery past the position: jumping there costs less than
// folding the frames between. A shorter step folds them, so that an act
// stepped past still flashes.
func (p *Player) markAhead(end int) bool {
	i := sort.Search(len(p.marks), func(i int) bool { return p.marks[i].pos > end }) - 1
	return i >= 0 && p.marks[i].pos > p.pos && p.marks[i].at.Sub(p.at) >= p.CheckpointEvery
}

// Ahead is a player of the same recording from its start, for folding
// ahead (model.FoldAhead).
func (p *Player) Ahead() model.Playback {
	a := NewPlayer(p.rec)
	a.CheckpointEvery = p.CheckpointEvery
	return a
}

// Adopt takes the checkpoints a player from Ahead kept, in place of this
// one's: the dashboard takes its states for them at the same time.
func (p *Player) Adopt(ahead model.Playback) {
	if a, ok := ahead.(*Player); ok && a.rec == p.rec {
		p.marks = slices.Clone(a.marks)
	}
}

// checkpoint keeps the state after the frames applied when the last
// checkpoint is CheckpointEvery behind, and returns its number (0: none
// kept).
func (p *Player) checkpoint() int {
	if p.CheckpointEvery <= 0 {
		return 0
	}
	since := p.rec.Frames()[0].Time()
	if n := len(p.marks); n > 0 {
		if p.pos <= p.marks[n-1].pos {
			return 0 // passed again after a seek back: kept already
		}
		since = p.marks[n-1].at
	}
	if p.at.Sub(since) < p.spacing() {
		return 0
	}
	p.marks = append(p.marks, mark{pos: p.pos, at: p.at, reb: p.reb.clone()})
	return len(p.marks)
}

// markRun is how many checkpoints are kept at one spacing before it
// doubles: a long recording keeps a number of them that grows with the
// logarithm of its length (32 in its first hour, 128 in 16 hours), each
// a copy of the dashboard's state, and a seek folds at most the spacing
// where it lands.
const markRun = 32

// spacing is the recorded time from the last checkpoint to the next.
func (p *Player) spacing() time.Duration {
	return p.CheckpointEvery << min(len(p.marks)/markRun, 10)
}

// firstPolls is how many frames the first poll of every queue manager
// takes: a replay never shows less.
func (p *Player) firstPolls(frames []Frame) int {
	seen := map[string]bool{}
	for i, fr := range frames {
		if fr.Poll != nil {
			seen[fr.Poll.QMgr] = true
		}
		if len(seen) >= max(len(p.rec.Header.QMgrs), 1) {
			return i + 1
		}
	}
	return len(frames)
}

// PollTime is the time of the poll n polls from the replay's position
// (polls of several queue managers within half an interval are one).
func (p *Player) PollTime(n int) time.Time {
	frames := p.rec.Frames()
	half := p.Interval() / 2
	t := p.at
	for i := p.pos - 1; n < 0 && i >= 0; i-- {
		if fr := frames[i]; fr.Poll != nil && fr.Poll.Time.Before(t.Add(-half)) {
			t = fr.Poll.Time
			n++
		}
	}
	for i := p.pos; n > 0 && i < len(frames); i++ {
		if fr := frames[i]; fr.Poll != nil && fr.Poll.Time.After(t.Add(half)) {
			t = fr.Poll.Time
			n--
		}
	}
	// All frames of the poll reached: the last of its queue managers.
	for i := sort.Search(len(frames), func(i int) bool { return frames[i].Time().After(t) }); i < len(frames); i++ {
		if frames[i].Time().After(t.Add(half)) {
			break
		}
		t = frames[i].Time()
	}
	return t
}

func (p *Player) step(fr Frame) model.PlaybackStep {
	switch {
	case fr.Poll != nil:
		return model.PlaybackStep{Snap: p.reb.Apply(fr.Poll)}
	case fr.Chunk != nil:
		p.reb.Chunk(fr.Chunk)
	case fr.Alert != nil && (fr.Alert.Kind == "acked" || fr.Alert.Kind == "snoozed"):
		ep := fr.Alert.Episode
		return model.PlaybackStep{Ack: &ep, Flash: ep.AckSentence()}
	case fr.Entry != nil:
		e := *fr.Entry
		return model.PlaybackStep{Entry: &e, Flash: e.At.Format("15:04:05") + " " + e.Sentence()}
	case fr.Action != nil:
		e := fr.Action.AsEntry()
		return model.PlaybackStep{Entry: &e, Flash: e.At.Format("15:04:05") + " " + e.Sentence()}
	case fr.Presence != nil:
		return model.PlaybackStep{Flash: PresenceSentence(*fr.Presence)}
	}
	return model.PlaybackStep{}
}

// ActionSentence says what an operator did and what came back.
func ActionSentence(a Action) string {
	s := fmt.Sprintf("%s %s: %s: done %d, skipped %d, failed %d", a.At.Format("15:04:05"), a.User, a.Summary, a.Done, a.Skipped, a.Failed)
	if a.Summary == "" {
		s = fmt.Sprintf("%s %s: %s %s on %s: done %d, skipped %d, failed %d", a.At.Format("15:04:05"), a.User, a.Op, a.Queue, a.QMgr, a.Done, a.Skipped, a.Failed)
	}
	if a.Stopped != "" {
		s += " (stopped: " + a.Stopped + ")"
	}
	if a.Err != "" {
		s += " (" + a.Err + ")"
	}
	return s
}

// PresenceSentence says who is in the war room.
func PresenceSentence(p Presence) string {
	var who []string
	for _, m := range p.Members {
		s := m.User + " " + m.Role
		if m.Driving {
			s += " driving"
		}
		who = append(who, s)
	}
	return fmt.Sprintf("in the room at %s: %s", p.At.Format("15:04:05"), strings.Join(who, ", "))
}
