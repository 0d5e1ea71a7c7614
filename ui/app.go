// Package ui is poisonwatch's Bubble Tea program: the dashboard, queue, triage
// and message screens, dialogs, help and palette. It renders model state and
// turns keys into model transitions and commands; it decides nothing about MQ.
package ui

import (
	"context"
	"time"

	"github.com/charmbracelet/bubbles/help"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"

	"github.com/poisonwatch/poisonwatch/actions"
	"github.com/poisonwatch/poisonwatch/model"
	"github.com/poisonwatch/poisonwatch/mqwatch"
	"github.com/poisonwatch/poisonwatch/themes"
)

// Options configure the App.
type Options struct {
	Sources []Source
	Ops     Operations // fetches and actions; nil disables both
	// Rules predicts what a loaded rules table would do, as `rules
	// preview` does; nil: the dashboard names each rule but no outcome.
	Rules    RulesOps
	Theme    themes.Theme
	Renderer *lipgloss.Renderer
	ReadOnly bool
	// ReadOnlyWhy is what an action key says when pressed in read-only mode,
	// when there is a better reason than the flag (a war-room viewer).
	ReadOnlyWhy string
	WarRoom     bool // read-only, bodies masked until revealed
	Interval    time.Duration
	Now         func() time.Time
	User        string
	// Warming, when set, is closed once the sources' history is complete
	// (the demo's simulated warm-up); until then the header says so.
	Warming <-chan struct{}
	// ExportDir is where exports go by default (the state directory).
	ExportDir string
	Ctx       context.Context
	// Styles names the consumer style of queues whose consumers are known
	// (the demo's), per queue manager, for route predictions.
	Styles map[string]map[string]actions.Style
	// PauseAfter holds, per queue manager and queue, an asf MDB's
	// maxSequentialDeliveryFailures + 1 (R6i), for route predictions.
	PauseAfter map[string]map[string]int32
	// Room, when set, is the war room this session is in (poisonwatch serve).
	Room Room
	// Diagnosis, when set, returns what the doctor's checks found off on a
	// queue manager (nothing while they run or when all passed); the
	// header shows it beside the queue manager.
	Diagnosis func(qmgr string) []string
	// Events, when set, says which instrumentation events explain dead
	// letters with reason on queue (read from the event queues the
	// operator includes); the triage shows it under the group.
	Events func(qmgr string, reason int32, queue string) string
	// NoExport turns exports off too (a war-room viewer: nothing leaves
	// the host); read-only alone allows them, since an export is a browse.
	NoExport bool
	// Files is how the session reads and writes host files (:rules, W);
	// nil: the local user's own (none with WarRoom).
	Files Files
	// Replay, when set, is the recording shown instead of live sources
	// (whose channels only name the queue managers): read-only.
	Replay Replay
	// Alerts, when set, is the book of alert histories and
	// acknowledgements this App shares (with a state file, with the other
	// sessions of a war room); nil: one of its own.
	Alerts *model.AlertBook
}

// App is the root model of the program.
type App struct {
	opt   Options
	st    Styles
	keys  KeyMap
	help  help.Model
	state *model.State
	// stack is the navigation: the dashboard at the bottom, the screen on
	// view at the top; esc pops exactly what enter pushed.
	stack []screen
	sel   *model.Selection
	// selQueue is the queue the marks belong to: marks never travel to
	// another queue's action.
	selQueue string
	qm       string
	width    int
	height   int

	frozen  bool
	pending [][]*mqwatch.Snapshot // per source, in order, held while frozen

	// auditLog is what this session did, newest first (the audit screen).
	auditLog []auditRun
	// fetchSeq numbers message reads so a late answer finds its screen.
	fetchSeq int
	// sortBy is the dashboard's queue order (s cycles it).
	sortBy queueSort
	filter filterInput
	pal    palette
	// dialogSeq numbers dialogs so a result of a closed one is dropped.
	dialogSeq int

	// rules is the runmqdlq rules table loaded with :rules FILE, nil if none.
	rules *rulesTable

	// fleetFirst: more than fleetFirstAbove queue managers, so the fleet
	// view is the first screen and every dashboard sits above it.
	fleetFirst bool
	warming    bool
	showHelp   bool
	flash      string // one-line status (copied, refused, ...)
	room       roomState
	replay     replayState
	// inhibited says who set GET(DISABLED) on a queue from here and when
	// (qmgr + "/" + queue), for the row and the dialog that enables it.
	inhibited map[string]string
	// verifying are fix dialogs closed while they watched for their alert
	// to clear: the flash still tells how it ended.
	verifying []*fixDialog
}

// New builds the App.
func New(o Options) *App {
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.Renderer == nil {
		o.Renderer = lipgloss.DefaultRenderer()
	}
	if o.Ctx == nil {
		o.Ctx = context.Background()
	}
	if o.WarRoom {
		o.ReadOnly = true
	}
	if o.Replay != nil {
		o.ReadOnly, o.ReadOnlyWhy, o.NoExport, o.Now = true, "a replay is read-only: it shows what happened", true, o.Replay.At
	}
	a := &App{opt: o, keys: DefaultKeyMap(), help: help.New(),
		state: model.New(o.Now, o.Interval), sel: model.NewSelection(),
		pending: make([][]*mqwatch.Snapshot, len(o.Sources))}
	a.setTheme(o.Theme)
	if o.Alerts != nil {
		a.state.Book = o.Alerts
	}
	for _, s := range o.Sources {
		a.state.QMgr(s.Name()).Styles = o.Styles[s.Name()]
		a.state.QMgr(s.Name()).PauseAfter = o.PauseAfter[s.Name()]
	}
	if len(o.Sources) > 0 {
		a.qm = o.Sources[0].Name()
	}
	a.stack = []screen{newDashboard(a.qm)}
	if a.fleetFirst = len(o.Sources) > fleetFirstAbove; a.fleetFirst {
		a.stack = []screen{newFleetScreen()}
	}
	a.pal = newPalette()
	a.filter = newFilterInput()
	a.replayInit()
	return a
}

func (a *App) setTheme(t themes.Theme) {
	a.opt.Theme = t
	a.st = NewStyles(a.opt.Renderer, t)
	a.help.Styles.ShortKey = a.st.Key
	a.help.Styles.FullKey = a.st.Key
	a.help.Styles.ShortDesc = a.st.Muted
	a.help.Styles.FullDesc = a.st.Base
	a.help.Styles.ShortSeparator = a.st.Muted
	a.help.Styles.FullSeparator = a.st.Muted
}

// Init starts the feeds and the clock.
func (a *App) Init() tea.Cmd {
	cmds := []tea.Cmd{tick()}
	if w := a.opt.Warming; w != nil {
		a.warming = true
		cmds = append(cmds, func() tea.Msg { <-w; return warmedMsg{} })
	}
	for i, s := range a.opt.Sources {
		cmds = append(cmds, waitSnapshot(i, s))
	}
	if f, ok := a.top().(*fleetScreen); ok {
		// A fleet's rows read "connecting…" from the first frame, not
		// from the first tick or snapshot.
		cmds = append(cmds, f.refresh(a))
	}
	return tea.Batch(append(cmds, a.roomInit()...)...)
}

// Update routes messages; each case delegates to a method. Work a screen
// starts off the Update path while refreshing (a filter over 100k messages)
// is the screen's command: every method that refreshes returns it, and the
// commands are batched on the way up, as Bubble Tea's parents batch their
// children's.
func (a *App) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	m, cmd := a.update(msg)
	return m, a.roomUpdated(cmd)
}

func (a *App) update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		a.setSize(msg.Width, msg.Height)
		return a, nil
	case snapshotMsg:
		return a, a.onSnapshot(msg)
	case sourceClosedMsg:
		return a, nil
	case roomMsg:
		return a, a.onRoom(msg)
	case replayTickMsg:
		return a, a.onReplayTick(msg)
	case tickMsg:
		if _, ok := a.top().(*fleetScreen); ok {
			// Ages and staleness move with the clock: a queue manager that
			// stopped answering sends nothing that would refresh its row.
			return a, tea.Batch(a.refreshScreens(), tick())
		}
		return a, tick()
	case warmedMsg:
		// The last polls are from the simulated past: poll now, so no queue
		// manager reads as stale for the rest of an interval.
		a.warming = false
		for _, s := range a.opt.Sources {
			s.Refresh()
		}
		return a, nil
	case tea.MouseMsg:
		return a, a.onMouse(msg)
	case tea.KeyMsg:
		return a, a.onKey(msg)
	case selfApplying:
		return a, msg.apply(a)
	}
	if r, ok := a.top().(receiver); ok {
		if cmd, took := r.receive(a, msg); took {
			return a, cmd
		}
	}
	if cmd, ok := a.onEditMsg(msg); ok {
		return a, cmd
	}
	return a, a.onResult(msg)
}

func (a *App) onSnapshot(m snapshotMsg) tea.Cmd {
	next := waitSnapshot(m.src, a.opt.Sources[m.src])
	if a.frozen || a.activeDialog() != nil {
		// Hold every snapshot, not only the newest: rates and sparklines
		// must count what arrived while the picture stood still. A partial
		// one (a long read in progress) is only worth keeping until the
		// next: the poll's own snapshot carries everything it did.
		held := a.pending[m.src]
		if n := len(held); n > 0 && held[n-1].Partial() {
			held = held[:n-1]
		}
		held = append(held, m.snap)
		if len(held) > model.HistoryLen {
			held = held[len(held)-model.HistoryLen:]
		}
		a.pending[m.src] = held
		return next
	}
	a.state.Fold(m.snap)
	return tea.Batch(next, a.refreshScreens())
}

// setFrozen pauses or resumes live updates; resuming folds what arrived meanwhile.
func (a *App) setFrozen(f bool) tea.Cmd {
	a.frozen = f
	if f {
		return nil
	}
	return a.unhold()
}

func (a *App) unhold() tea.Cmd {
	if a.frozen || a.activeDialog() != nil {
		return nil
	}
	for i, held := range a.pending {
		for _, s := range held {
			a.state.Fold(s)
		}
		a.pending[i] = nil
	}
	return a.refreshScreens()
}

// current returns the state of the queue manager being viewed.
func (a *App) current() *model.QMgrState { return a.state.QMgr(a.qm) }

func (a *App) source(qm string) Source {
	for _, s := range a.opt.Sources {
		if s.Name() == qm {
			return s
		}
	}
	return nil
}

// refreshScreens gives the screen on view the new state, keeping its cursor,
// and returns the work the screen started (a filter's scan, a prediction).
func (a *App) refreshScreens() tea.Cmd {
	cmd := a.top().refresh(a)
	a.verifyFixes()
	return cmd
}
