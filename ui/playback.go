package ui

import (
	"fmt"
	"maps"
	"strings"
	"time"

	"github.com/poisonwatch/poisonwatch/incident/journal"

	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/bubbles/textinput"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/poisonwatch/poisonwatch/model"
)

// Playback is a recording the App shows instead of live watchers
// (poisonwatch playback): every screen works, nothing acts. Not to be
// confused with replay, the R10e operation that puts copies of messages.
type Playback = model.Playback

// playbackSpeeds are what > cycles through; 0 is paused.
var playbackSpeeds = []int{0, 1, 10, 60}

// playbackTick is how often a playing playback moves.
const playbackTick = 250 * time.Millisecond

type playbackTickMsg struct{ gen int }

// player is the playback's controls: the recording, its speed, and the
// generation of its ticker (a tick of an older one is dropped). Without a
// recording it does nothing.
type player struct {
	r     Playback
	speed int // index in playbackSpeeds
	gen   int
	// kept are the checkpoints the playback asked for, by number.
	kept  map[int]keptState
	ahead *ahead // the recording being folded ahead, nil when done
}

// keptState is the dashboard's state at a checkpoint of the playback.
type keptState struct {
	state   *model.State
	journal *journal.Journal
}

// copyJournal is a journal holding j's entries.
func copyJournal(j *journal.Journal) *journal.Journal {
	c := journal.New()
	for _, e := range j.Entries() {
		c.Keep(e)
	}
	return c
}

// restart empties the state for steps from the recording's start, or sets
// it to a copy of checkpoint n.
func (p *player) restart(c common, n int) {
	state, o, sess := c.State(), c.Opts(), c.Session()
	if k, ok := p.kept[n]; ok {
		*state = *k.state.Checkpoint()
		state.Now = o.Now // a state folded ahead kept the other player's clock
		sess.journal = copyJournal(k.journal)
		state.Journal = sess.journal
		return
	}
	fresh, j := freshState(o, o.Now)
	*state = *fresh
	// The audit view lists the recording's acts up to the playback's
	// clock: from the start again.
	sess.journal = j
	state.Journal = j
}

// freshState is the dashboard's state before a recording's first frame,
// on the clock now.
func freshState(o *Options, now func() time.Time) (*model.State, *journal.Journal) {
	state := model.New(now, o.Interval)
	for _, s := range o.Sources {
		state.QMgr(s.Name()).Styles = o.ConsumerStyles[s.Name()]
	}
	state.Journal = journal.New()
	return state, state.Journal
}

// seek moves the playback to t and folds what it passed.
func (p *player) seek(c common, t time.Time) tea.Cmd {
	p.adoptSoFar()
	steps, fresh := p.r.Seek(t)
	if fresh {
		n := 0
		if len(steps) > 0 {
			n = steps[0].Restore
		}
		p.restart(c, n)
	}
	sess := c.Session()
	flash := c.Flash
	if fresh {
		flash = nil
	}
	foldSteps(c.State(), sess.journal, steps, flash, func(n int) {
		if p.kept == nil {
			p.kept = map[int]keptState{}
		}
		p.kept[n] = keptState{state: c.State().Checkpoint(), journal: copyJournal(sess.journal)}
	})
	return c.Refresh()
}

// foldSteps folds a playback's steps into state and j, flashing what they
// say (flash may be nil) and keeping the checkpoints they ask for.
func foldSteps(state *model.State, j *journal.Journal, steps []model.PlaybackStep, flash func(string), keep func(n int)) {
	for _, st := range steps {
		switch {
		case st.Snap != nil:
			state.Fold(st.Snap)
		case st.Ack != nil:
			state.Book.Acknowledge(st.Ack.Key, st.Ack.Ack)
		case st.Entry != nil:
			j.Keep(*st.Entry)
		}
		if st.Flash != "" && flash != nil {
			flash(st.Flash)
		}
		if st.Checkpoint > 0 {
			keep(st.Checkpoint)
		}
	}
	state.Reannotate()
}

// aheadMsg asks the playback to fold the next stretch ahead (foldAhead).
type aheadMsg struct{}

// aheadStretch is how much of the recording one aheadMsg folds: a few
// milliseconds of a million-message DEADQ's polls, so keys are answered
// between stretches.
const aheadStretch = time.Minute

// ahead is the recording folded ahead of the operator, on a player of its
// own, in stretches on the App's own loop (the recording's inventories
// are not to be changed from two goroutines). Once at the end, its
// checkpoints replace the playback's: a jump anywhere, forward as back,
// then folds at most CheckpointEvery of the recording.
type ahead struct {
	p       model.Playback
	state   *model.State
	journal *journal.Journal
	kept    map[int]keptState
}

// adoptSoFar takes the checkpoints folded ahead so far, while the fold
// goes on: a jump typed before it ends starts from the last of them.
func (p *player) adoptSoFar() {
	a := p.ahead
	fa, ok := p.r.(model.FoldAhead)
	if a == nil || !ok || len(a.kept) <= len(p.kept) {
		return
	}
	fa.Adopt(a.p)
	p.kept = maps.Clone(a.kept)
}

// foldAhead starts folding ahead; nil for a playback that cannot
// (model.FoldAhead).
func (p *player) foldAhead(o *Options) tea.Cmd {
	fa, ok := p.r.(model.FoldAhead)
	if !ok {
		return nil
	}
	a := fa.Ahead()
	state, j := freshState(o, a.At)
	p.ahead = &ahead{p: a, state: state, journal: j, kept: map[int]keptState{}}
	return func() tea.Msg { return aheadMsg{} }
}

// aheadStep folds the next stretch ahead, and adopts the checkpoints at
// the end of a recording read whole.
func (p *player) aheadStep() tea.Cmd {
	a := p.ahead
	if a == nil {
		return nil
	}
	_, last, loaded := a.p.Bounds()
	if !a.p.At().Before(last) {
		if !loaded {
			// Caught up with the reading: look again shortly.
			return tea.Tick(100*time.Millisecond, func(time.Time) tea.Msg { return aheadMsg{} })
		}
		if fa, ok := p.r.(model.FoldAhead); ok {
			fa.Adopt(a.p)
			p.kept = a.kept
		}
		p.ahead = nil
		return nil
	}
	to := a.p.At().Add(aheadStretch)
	if to.After(last) {
		to = last
	}
	steps, _ := a.p.Seek(to)
	foldSteps(a.state, a.journal, steps, nil, func(n int) {
		a.kept[n] = keptState{state: a.state.Checkpoint(), journal: copyJournal(a.journal)}
	})
	return func() tea.Msg { return aheadMsg{} }
}

// pauseAt pauses the playback and moves it to t.
func (p *player) pauseAt(c common, t time.Time) tea.Cmd {
	p.speed, p.gen = 0, p.gen+1
	return p.seek(c, t)
}

func (p *player) tick(c common, m playbackTickMsg) tea.Cmd {
	if m.gen != p.gen || playbackSpeeds[p.speed] == 0 {
		return nil
	}
	_, last, loaded := p.r.Bounds()
	next := p.r.At().Add(playbackTick * time.Duration(playbackSpeeds[p.speed]))
	if loaded && next.After(last) {
		cmd := p.seek(c, last)
		p.speed = 0
		c.Flash("end of the recording")
		return cmd
	}
	return tea.Batch(p.seek(c, next), p.ticker())
}

func (p *player) ticker() tea.Cmd {
	gen := p.gen
	return tea.Tick(playbackTick, func(time.Time) tea.Msg { return playbackTickMsg{gen: gen} })
}

// bindings are the playback's keys; none outside a playback.
func (p *player) bindings(c common) []binding {
	if p.r == nil {
		return nil
	}
	r := p.r
	k := c.Keys()
	stepTo := func(t func() time.Time) func() tea.Cmd {
		return func() tea.Cmd { return p.pauseAt(c, t()) }
	}
	return []binding{
		bind(k.PlaybackPrev, stepTo(func() time.Time { return r.PollTime(-1) })),
		bind(k.PlaybackNext, stepTo(func() time.Time { return r.PollTime(1) }), short),
		bind(k.PlaybackBack, stepTo(func() time.Time { return r.At().Add(-time.Minute) })),
		bind(k.PlaybackFwd, stepTo(func() time.Time { return r.At().Add(time.Minute) })),
		bind(k.PlaybackJump, func() tea.Cmd { return c.Push(newJumpScreen(p)) }, short),
		bind(k.PlaybackPlay, func() tea.Cmd {
			p.speed = (p.speed + 1) % len(playbackSpeeds)
			p.gen++
			if playbackSpeeds[p.speed] == 0 {
				return nil
			}
			return p.ticker()
		}, short),
	}
}

// badge is the header's "PLAYBACK 20:43:12 ▶10×": nobody mistakes a playback
// for live.
func (p *player) badge(st *Styles) string {
	if p.r == nil {
		return ""
	}
	s := " PLAYBACK " + p.r.At().Format("15:04:05") + " "
	if v := playbackSpeeds[p.speed]; v > 0 {
		s += fmt.Sprintf("▶%d× ", v)
	} else {
		s += "⏸ "
	}
	return st.Banner.Render(s)
}

// jumpScreen asks for the time to jump to: HH:MM or HH:MM:SS on the
// recording's days.
type jumpScreen struct {
	base
	playback *player
	in       textinput.Model
	err      string
}

func newJumpScreen(p *player) *jumpScreen {
	ti := textinput.New()
	ti.Prompt = "jump to (HH:MM[:SS]): "
	ti.CharLimit = 8
	ti.Focus()
	return &jumpScreen{base: base{loc: model.Location{Screen: model.ScreenDialog, Label: "jump"}}, playback: p, in: ti}
}

func (s *jumpScreen) typeKey(_ common, k tea.KeyMsg) tea.Cmd {
	s.in, _ = s.in.Update(k)
	return nil
}

func (s *jumpScreen) bindings(c common) []binding {
	return []binding{
		bind(key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "jump")), func() tea.Cmd {
			first, last, loaded := s.playback.r.Bounds()
			t, err := JumpTime(s.in.Value(), first, last)
			if err != nil {
				s.err = err.Error()
				if !loaded {
					s.err += "; the rest of the recording is still being read"
				}
				return nil
			}
			return tea.Batch(c.Pop(), s.playback.pauseAt(c, t))
		}, short),
		bind(key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "cancel")), c.Pop, short),
	}
}

func (s *jumpScreen) view(c common, w, h int) string {
	first, last, _ := c.Opts().Playback.Bounds()
	lines := []string{section(c.Styles(), "Jump to a time of the recording", w, true), "",
		" the recording runs from " + first.Format("15:04:05") + " to " + last.Format("15:04:05"), "", " " + s.in.View()}
	if s.err != "" {
		lines = append(lines, "", c.Styles().Danger.Render(" "+s.err))
	}
	return fitHeight(strings.Join(lines, "\n"), h)
}

// JumpTime reads HH:MM[:SS] as a time within [first, last]: on the first
// day, or the next when the recording runs past midnight and the time is
// earlier than its start.
func JumpTime(text string, first, last time.Time) (time.Time, error) {
	text = strings.TrimSpace(text)
	var t time.Time
	var err error
	for _, layout := range []string{"15:04:05", "15:04"} {
		if t, err = time.Parse(layout, text); err == nil {
			break
		}
	}
	if err != nil {
		return time.Time{}, fmt.Errorf("%q: type a time as HH:MM or HH:MM:SS", text)
	}
	y, m, d := first.Date()
	at := time.Date(y, m, d, t.Hour(), t.Minute(), t.Second(), 0, first.Location())
	if at.Before(first.Truncate(time.Second)) && last.Day() != first.Day() {
		at = at.AddDate(0, 0, 1)
	}
	if at.Before(first.Truncate(time.Minute)) || at.After(last) {
		return time.Time{}, fmt.Errorf("%s is outside the recording (%s to %s)", text, first.Format("15:04:05"), last.Format("15:04:05"))
	}
	return at, nil
}
