package ui

import (
	"fmt"
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
type Playback interface {
	Interval() time.Duration
	// At is the playback's clock.
	At() time.Time
	// Bounds are the recording's first and last times; loaded is false
	// while the end is still being read.
	Bounds() (first, last time.Time, loaded bool)
	// Seek moves to t. fresh says the steps start from the beginning of
	// the recording: the App folds them into a new model, or, when the
	// first step has Restore, into a copy of the checkpoint it kept when a
	// step asked it to (PlaybackStep.Checkpoint).
	Seek(t time.Time) (steps []model.PlaybackStep, fresh bool)
	// PollTime is the time of the poll n polls away (negative: back).
	PollTime(n int) time.Time
}

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
	kept map[int]keptState
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
		sess.journal = copyJournal(k.journal)
		state.Journal = sess.journal
		return
	}
	*state = *model.New(o.Now, o.Interval)
	for _, s := range o.Sources {
		state.QMgr(s.Name()).Styles = o.ConsumerStyles[s.Name()]
	}
	// The audit view lists the recording's acts up to the playback's
	// clock: from the start again.
	sess.journal = journal.New()
	state.Journal = sess.journal
}

// seek moves the playback to t and folds what it passed.
func (p *player) seek(c common, t time.Time) tea.Cmd {
	steps, fresh := p.r.Seek(t)
	state, sess := c.State(), c.Session()
	if fresh {
		n := 0
		if len(steps) > 0 {
			n = steps[0].Restore
		}
		p.restart(c, n)
	}
	for _, st := range steps {
		switch {
		case st.Snap != nil:
			state.Fold(st.Snap)
		case st.Ack != nil:
			state.Book.Acknowledge(st.Ack.Key, st.Ack.Ack)
		case st.Entry != nil:
			sess.journal.Keep(*st.Entry)
		}
		if st.Flash != "" && !fresh {
			c.Flash(st.Flash)
		}
		if st.Checkpoint > 0 {
			if p.kept == nil {
				p.kept = map[int]keptState{}
			}
			p.kept[st.Checkpoint] = keptState{state: state.Checkpoint(), journal: copyJournal(sess.journal)}
		}
	}
	state.Reannotate()
	return c.Refresh()
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
