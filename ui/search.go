package ui

import (
	"context"

	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/bubbles/textinput"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/poisonwatch/poisonwatch/actions/ops"
	"github.com/poisonwatch/poisonwatch/model"
	"github.com/poisonwatch/poisonwatch/mqwatch"
)

// searchOps is what searching every body needs of Operations; without it
// ctrl+f is off.
type searchOps interface {
	SearchBodies(ctx context.Context, qmgr, queue string, p *ops.BodyPattern, progress func(ops.SearchProgress), found func(mqwatch.Summary)) (ops.SearchProgress, error)
}

// maxSearchHits bounds the matches a search lists: summaries only, never
// bodies, but a search that matches everything should not hold a million.
const maxSearchHits = 10_000

// searchKeys are the keys of the body search.
type searchKeys struct{ Search, Start key.Binding }

func newSearchKeys() searchKeys {
	return searchKeys{
		Search: key.NewBinding(key.WithKeys("ctrl+f"), key.WithHelp("ctrl+f", "search all bodies")),
		Start:  key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "search / open")),
	}
}

// searchEvent is what the browsing goroutine reports, in order.
type searchEvent struct {
	found []mqwatch.Summary
	how   []ops.Hit // for each of found: text or bytes, and the line showing the match
	prog  ops.SearchProgress
	done  bool
	err   error
}

type searchMsg struct {
	seq int
	ev  searchEvent
	ch  <-chan searchEvent
}

// searchScreen searches every body of a queue by browsing it: matches are
// listed as they are found, progress says how far it came, esc cancels.
type searchScreen struct {
	base
	seq     int
	queue   model.Location // the list it was opened from: matches open as its messages
	in      textinput.Model
	pattern *ops.BodyPattern
	hits    []mqwatch.Summary
	how     []ops.Hit // for each of hits; zero when the searcher did not say
	byBytes int       // hits matched on bytes
	prog    ops.SearchProgress
	running bool
	done    bool
	err     error
	cancel  context.CancelFunc
	grid    Grid
	more    bool // matches beyond maxSearchHits were not listed
}

// searchBinding is the message list's ctrl+f.
func (s *queueScreen) searchBinding(c common) binding {
	_, can := c.Opts().Ops.(searchOps)
	return bind(newSearchKeys().Search, func() tea.Cmd { return openSearch(c, s.loc) }, offWhen(func() string {
		if _, ok := c.Opts().Ops.(searchOps); !ok {
			return "this dashboard has no connection of its own to search with"
		}
		return ""
	}), hideIf(!can))
}

func openSearch(c common, loc model.Location) tea.Cmd {
	seq := c.Session().nextSeq()
	in := textinput.New()
	in.Prompt = "search every body (text, or hex:0A1B…): "
	in.Focus()
	s := &searchScreen{base: base{loc: model.Location{Screen: model.ScreenDialog, QMgr: loc.QMgr, Queue: loc.Queue, Label: "search bodies"}},
		seq: seq, queue: loc, in: in}
	return c.Push(s)
}

// start begins the search on its own goroutine; events come back through a
// channel read by a re-arming command, so Update never blocks.
func (s *searchScreen) start(c common) tea.Cmd {
	p, err := ops.ParseBodyPattern(s.in.Value())
	if err != nil {
		c.Flash(err.Error())
		return nil
	}
	searcher, _ := c.Opts().Ops.(searchOps)
	ctx, cancel := context.WithCancel(c.Opts().Ctx)
	s.pattern, s.cancel, s.running, s.done, s.err, s.hits, s.more = p, cancel, true, false, nil, nil, false
	s.how, s.byBytes = nil, 0
	s.grid.SetRows(0)
	s.prog = ops.SearchProgress{}
	s.in.Blur()
	ch := make(chan searchEvent, 64)
	qm, queue := s.loc.QMgr, s.loc.Queue
	var last ops.Hit // OnHit comes on the search's goroutine just before found
	p.OnHit = func(h ops.Hit) { last = h }
	go func() {
		defer close(ch)
		send := func(ev searchEvent) {
			select {
			case ch <- ev:
			case <-ctx.Done():
			}
		}
		sp, err := searcher.SearchBodies(ctx, qm, queue, p, func(sp ops.SearchProgress) { send(searchEvent{prog: sp}) },
			func(m mqwatch.Summary) {
				send(searchEvent{found: []mqwatch.Summary{m}, how: []ops.Hit{last}})
				last = ops.Hit{}
			})
		send(searchEvent{prog: sp, done: true, err: err}) // dropped once cancelled: nobody reads then
	}()
	s.seq = c.Session().nextSeq() // a search started again is a new one: the old one's late events find no screen
	return waitSearch(s.seq, ch)
}

// waitSearch reads the next events: everything already there, so a burst
// of matches is one frame.
func waitSearch(seq int, ch <-chan searchEvent) tea.Cmd {
	return func() tea.Msg {
		ev, ok := <-ch
		if !ok {
			return nil
		}
		for len(ch) > 0 {
			next := <-ch
			ev.found, ev.how = append(ev.found, next.found...), append(ev.how, next.how...)
			if next.prog.Scanned >= ev.prog.Scanned {
				ev.prog = next.prog
			}
			ev.done, ev.err = ev.done || next.done, next.err
		}
		return searchMsg{seq: seq, ev: ev, ch: ch}
	}
}

// receive folds the search's events into the screen, also under a message
// opened from it (it keeps listing); a closed screen's events are dropped
// (its context is cancelled, so they stop).
func (s *searchScreen) receive(_ common, msg tea.Msg) (tea.Cmd, bool) {
	m, ok := msg.(searchMsg)
	if !ok || m.seq != s.seq {
		return nil, false
	}
	return s.found(m), true
}

func (s *searchScreen) found(m searchMsg) tea.Cmd {
	room := maxSearchHits - len(s.hits)
	if len(m.ev.found) > room {
		m.ev.found, s.more = m.ev.found[:room], true
	}
	for i := range m.ev.found {
		var h ops.Hit
		if i < len(m.ev.how) {
			h = m.ev.how[i]
		}
		if h.Kind == ops.NoMatch { // a searcher that does not say: the match in the summary's body prefix, if there
			f := &m.ev.found[i]
			h = s.pattern.Find(f.BodyPrefix, f.BodyCCSID, f.Encoding)
		}
		if h.Kind == ops.ByteMatch {
			s.byBytes++
		}
		s.how = append(s.how, h)
	}
	s.hits = append(s.hits, m.ev.found...)
	if m.ev.prog.Scanned >= s.prog.Scanned {
		s.prog = m.ev.prog
	}
	s.grid.SetRows(len(s.hits))
	if m.ev.done {
		s.running, s.done, s.err = false, true, m.ev.err
		s.cancel()
		return nil
	}
	return waitSearch(m.seq, m.ch)
}

// stop cancels a running search and closes the screen.
func (s *searchScreen) stop(c common) tea.Cmd {
	if s.cancel != nil {
		s.cancel()
	}
	return c.Pop()
}
