package ui

import (
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/poisonwatch/poisonwatch/mqwatch"
)

// Source is a live feed of one queue manager's snapshots: a watcher.
type Source interface {
	Name() string
	Snapshots() <-chan *mqwatch.Snapshot
	Refresh()
	SetFocus(queue string)
	Forget(queue string, keys ...mqwatch.Key)
}

// snapshotMsg carries a snapshot from source src.
type snapshotMsg struct {
	src  int
	snap *mqwatch.Snapshot
}

// sourceClosedMsg says a watcher stopped (the program is ending).
type sourceClosedMsg struct{ src int }

// tickMsg advances ages and staleness once a second.
type tickMsg time.Time

// waitSnapshot reads one snapshot; Update re-arms it after each, so the feed
// never blocks Update and never needs Program.Send.
func waitSnapshot(src int, s Source) tea.Cmd {
	ch := s.Snapshots()
	return func() tea.Msg {
		snap, ok := <-ch
		if !ok {
			return sourceClosedMsg{src}
		}
		return snapshotMsg{src: src, snap: snap}
	}
}

func tick() tea.Cmd {
	return tea.Tick(time.Second, func(t time.Time) tea.Msg { return tickMsg(t) })
}

// warmedMsg says the sources' history is complete.
type warmedMsg struct{}

// polledMsg tells the screens still watching an outcome that a poll was
// folded.
type polledMsg struct{}

// goneMsg is news for every screen: a run or an edit of this session took
// these messages off qmgr's queue (why says how). Message screens showing
// one say it has gone; no screen takes it, so each sees it.
type goneMsg struct {
	qmgr, queue string
	why         map[mqwatch.Key]string
}

// flashMsg is a sentence a command says on the status line (copied, or
// why not).
type flashMsg string

// helpMsg opens help over the screen (? in a dialog that takes every key).
type helpMsg struct{}

func showHelp() tea.Msg { return helpMsg{} }

// sourceOf is the watcher of queue manager qm, nil when none watches it.
func sourceOf(o *Options, qm string) Source {
	for _, s := range o.Sources {
		if s.Name() == qm {
			return s
		}
	}
	return nil
}

// pollNow asks qm's watcher for a poll now (after a change the operator
// waits to see), when one watches it.
func pollNow(o *Options, qm string) {
	if s := sourceOf(o, qm); s != nil {
		s.Refresh()
	}
}
