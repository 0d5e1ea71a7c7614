package ui

import (
	"fmt"
	"strings"
	"time"

	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/bubbles/textinput"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/poisonwatch/poisonwatch/model"
	"github.com/poisonwatch/poisonwatch/mqwatch"
)

// Replay is a recording the App shows instead of live watchers
// (poisonwatch replay): every screen works, nothing acts.
type Replay interface {
	Interval() time.Duration
	// At is the replay's clock.
	At() time.Time
	// Bounds are the recording's first and last times; loaded is false
	// while the end is still being read.
	Bounds() (first, last time.Time, loaded bool)
	// Seek moves to t. fresh says the steps start from the beginning of
	// the recording: the App folds them into a new model.
	Seek(t time.Time) (steps []ReplayStep, fresh bool)
	// PollTime is the time of the poll n polls away (negative: back).
	PollTime(n int) time.Time
}

// ReplayStep is one recorded thing to show: a snapshot to fold, an
// acknowledgement to take, a flash (an action, who was in the room).
type ReplayStep struct {
	Snap  *mqwatch.Snapshot
	Ack   *model.Episode
	Flash string
}

// replaySpeeds are what > cycles through; 0 is paused.
var replaySpeeds = []int{0, 1, 10, 60}

// replayTick is how often a playing replay moves.
const replayTick = 250 * time.Millisecond

type replayTickMsg struct{ gen int }

// replayer is the replay's controls: the recording, its speed, and the
// generation of its ticker (a tick of an older one is dropped). Without a
// recording it does nothing.
type replayer struct {
	r     Replay
	speed int // index in replaySpeeds
	gen   int
}

// seek moves the replay to t and folds what it passed.
func (p *replayer) seek(c common, t time.Time) tea.Cmd {
	steps, fresh := p.r.Seek(t)
	state, o := c.State(), c.Opts()
	if fresh {
		*state = *model.New(o.Now, o.Interval)
		for _, s := range o.Sources {
			state.QMgr(s.Name()).Styles = o.ConsumerStyles[s.Name()]
		}
	}
	for _, st := range steps {
		switch {
		case st.Snap != nil:
			state.Fold(st.Snap)
		case st.Ack != nil:
			state.Book.Acknowledge(st.Ack.Key, st.Ack.Ack)
		}
		if st.Flash != "" && !fresh {
			c.Flash(st.Flash)
		}
	}
	state.Reannotate()
	return c.Refresh()
}

// pauseAt pauses the replay and moves it to t.
func (p *replayer) pauseAt(c common, t time.Time) tea.Cmd {
	p.speed, p.gen = 0, p.gen+1
	return p.seek(c, t)
}

func (p *replayer) tick(c common, m replayTickMsg) tea.Cmd {
	if m.gen != p.gen || replaySpeeds[p.speed] == 0 {
		return nil
	}
	_, last, loaded := p.r.Bounds()
	next := p.r.At().Add(replayTick * time.Duration(replaySpeeds[p.speed]))
	if loaded && next.After(last) {
		cmd := p.seek(c, last)
		p.speed = 0
		c.Flash("end of the recording")
		return cmd
	}
	return tea.Batch(p.seek(c, next), p.ticker())
}

func (p *replayer) ticker() tea.Cmd {
	gen := p.gen
	return tea.Tick(replayTick, func(time.Time) tea.Msg { return replayTickMsg{gen: gen} })
}

// bindings are the replay's keys; none outside a replay.
func (p *replayer) bindings(c common) []binding {
	if p.r == nil {
		return nil
	}
	r := p.r
	k := c.Keys()
	stepTo := func(t func() time.Time) func() tea.Cmd {
		return func() tea.Cmd { return p.pauseAt(c, t()) }
	}
	return []binding{
		bind(k.ReplayPrev, stepTo(func() time.Time { return r.PollTime(-1) })),
		bind(k.ReplayNext, stepTo(func() time.Time { return r.PollTime(1) }), short),
		bind(k.ReplayBack, stepTo(func() time.Time { return r.At().Add(-time.Minute) })),
		bind(k.ReplayFwd, stepTo(func() time.Time { return r.At().Add(time.Minute) })),
		bind(k.ReplayJump, func() tea.Cmd { return c.Push(newJumpScreen(p)) }, short),
		bind(k.ReplayPlay, func() tea.Cmd {
			p.speed = (p.speed + 1) % len(replaySpeeds)
			p.gen++
			if replaySpeeds[p.speed] == 0 {
				return nil
			}
			return p.ticker()
		}, short),
	}
}

// badge is the header's "REPLAY 20:43:12 ▶10×": nobody mistakes a replay
// for live.
func (p *replayer) badge(st *Styles) string {
	if p.r == nil {
		return ""
	}
	s := " REPLAY " + p.r.At().Format("15:04:05") + " "
	if v := replaySpeeds[p.speed]; v > 0 {
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
	replay *replayer
	in     textinput.Model
	err    string
}

func newJumpScreen(p *replayer) *jumpScreen {
	ti := textinput.New()
	ti.Prompt = "jump to (HH:MM[:SS]): "
	ti.CharLimit = 8
	ti.Focus()
	return &jumpScreen{base: base{loc: model.Location{Screen: model.ScreenDialog, Label: "jump"}}, replay: p, in: ti}
}

func (s *jumpScreen) typeKey(_ common, k tea.KeyMsg) tea.Cmd {
	s.in, _ = s.in.Update(k)
	return nil
}

func (s *jumpScreen) bindings(c common) []binding {
	return []binding{
		bind(key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "jump")), func() tea.Cmd {
			first, last, loaded := s.replay.r.Bounds()
			t, err := JumpTime(s.in.Value(), first, last)
			if err != nil {
				s.err = err.Error()
				if !loaded {
					s.err += "; the rest of the recording is still being read"
				}
				return nil
			}
			return tea.Batch(c.Pop(), s.replay.pauseAt(c, t))
		}, short),
		bind(key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "cancel")), c.Pop, short),
	}
}

func (s *jumpScreen) view(c common, w, h int) string {
	first, last, _ := c.Opts().Replay.Bounds()
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
