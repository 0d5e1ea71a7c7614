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

// replayState is the App's side of a replay.
type replayState struct {
	speed int // index in replaySpeeds
	gen   int
}

// replayInit shows the recording's first poll.
func (a *App) replayInit() {
	if a.opt.Replay == nil {
		return
	}
	first, _, _ := a.opt.Replay.Bounds()
	a.replaySeek(first) // before Init: the dashboard's refresh starts nothing
}

// replaySeek moves the replay and folds what it passed.
func (a *App) replaySeek(t time.Time) tea.Cmd {
	steps, fresh := a.opt.Replay.Seek(t)
	if fresh {
		*a.state = *model.New(a.opt.Now, a.opt.Interval)
		for _, s := range a.opt.Sources {
			a.state.QMgr(s.Name()).Styles = a.opt.Styles[s.Name()]
		}
	}
	for _, st := range steps {
		switch {
		case st.Snap != nil:
			a.state.Fold(st.Snap)
		case st.Ack != nil:
			a.state.Book.Acknowledge(st.Ack.Key, st.Ack.Ack)
		}
		if st.Flash != "" && !fresh {
			a.flash = st.Flash
		}
	}
	a.state.Reannotate()
	return a.refreshScreens()
}

func (a *App) onReplayTick(m replayTickMsg) tea.Cmd {
	if m.gen != a.replay.gen || replaySpeeds[a.replay.speed] == 0 {
		return nil
	}
	_, last, loaded := a.opt.Replay.Bounds()
	next := a.opt.Replay.At().Add(replayTick * time.Duration(replaySpeeds[a.replay.speed]))
	if loaded && next.After(last) {
		cmd := a.replaySeek(last)
		a.replay.speed = 0
		a.flash = "end of the recording"
		return cmd
	}
	return tea.Batch(a.replaySeek(next), a.replayTicker())
}

func (a *App) replayTicker() tea.Cmd {
	gen := a.replay.gen
	return tea.Tick(replayTick, func(time.Time) tea.Msg { return replayTickMsg{gen: gen} })
}

// replayBindings are the replay's keys; none outside a replay.
func (a *App) replayBindings() []binding {
	if a.opt.Replay == nil {
		return nil
	}
	r := a.opt.Replay
	k := a.keys
	stepTo := func(t func() time.Time) func() tea.Cmd {
		return func() tea.Cmd { return a.ReplaySeek(t()) }
	}
	return []binding{
		bind(k.ReplayPrev, stepTo(func() time.Time { return r.PollTime(-1) })),
		bind(k.ReplayNext, stepTo(func() time.Time { return r.PollTime(1) }), short),
		bind(k.ReplayBack, stepTo(func() time.Time { return r.At().Add(-time.Minute) })),
		bind(k.ReplayFwd, stepTo(func() time.Time { return r.At().Add(time.Minute) })),
		bind(k.ReplayJump, func() tea.Cmd { return a.push(newJumpScreen()) }, short),
		bind(k.ReplayPlay, func() tea.Cmd {
			a.replay.speed = (a.replay.speed + 1) % len(replaySpeeds)
			a.replay.gen++
			if replaySpeeds[a.replay.speed] == 0 {
				return nil
			}
			return a.replayTicker()
		}, short),
	}
}

// replayBadge is the header's "REPLAY 20:43:12 ▶10×": nobody mistakes a
// replay for live.
func (a *App) replayBadge() string {
	if a.opt.Replay == nil {
		return ""
	}
	s := " REPLAY " + a.opt.Replay.At().Format("15:04:05") + " "
	if v := replaySpeeds[a.replay.speed]; v > 0 {
		s += fmt.Sprintf("▶%d× ", v)
	} else {
		s += "⏸ "
	}
	return a.st.Banner.Render(s)
}

// jumpScreen asks for the time to jump to: HH:MM or HH:MM:SS on the
// recording's days.
type jumpScreen struct {
	base
	in  textinput.Model
	err string
}

func newJumpScreen() *jumpScreen {
	ti := textinput.New()
	ti.Prompt = "jump to (HH:MM[:SS]): "
	ti.CharLimit = 8
	ti.Focus()
	return &jumpScreen{base: base{loc: model.Location{Screen: model.ScreenDialog, Label: "jump"}}, in: ti}
}

func (s *jumpScreen) refresh(common) tea.Cmd  { return nil }
func (s *jumpScreen) resize(common, int, int) {}
func (s *jumpScreen) scroll(int)              {}
func (s *jumpScreen) filter() *string         { return nil }
func (s *jumpScreen) typeKey(_ common, k tea.KeyMsg) tea.Cmd {
	s.in, _ = s.in.Update(k)
	return nil
}

func (s *jumpScreen) bindings(c common) []binding {
	return []binding{
		bind(key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "jump")), func() tea.Cmd {
			first, last, loaded := c.Opts().Replay.Bounds()
			t, err := JumpTime(s.in.Value(), first, last)
			if err != nil {
				s.err = err.Error()
				if !loaded {
					s.err += "; the rest of the recording is still being read"
				}
				return nil
			}
			return tea.Batch(c.Pop(), c.ReplaySeek(t))
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
