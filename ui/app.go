// Package ui is poisonwatch's Bubble Tea program: the dashboard, queue, triage
// and message screens, dialogs, help and palette. It renders model state and
// turns keys into model transitions and commands; it decides nothing about MQ.
package ui

import (
	"context"
	"time"

	"github.com/poisonwatch/poisonwatch/incident/journal"

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
	// ConsumerStyles names the consumer style of queues whose consumers
	// are known (the demo's), per queue manager, for route predictions.
	ConsumerStyles map[string]map[string]actions.Style
	// PauseAfter holds, per queue manager and queue, an asf MDB's
	// maxSequentialDeliveryFailures + 1 (R6i), for route predictions.
	PauseAfter map[string]map[string]int32
	// UnattendedAfter is, per queue manager, how long its dead letters may
	// wait before R8f (model.QMgrState.UnattendedAfter; missing: a day).
	UnattendedAfter map[string]time.Duration
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
	// Journal is the account of acts every view reads: the process's (the
	// engines write to it) or, in a war room, the room's. nil: the session
	// keeps one of its own.
	Journal *journal.Journal
	// Playback, when set, is the recording shown instead of live sources
	// (whose channels only name the queue managers): read-only.
	Playback Playback
	// Alerts, when set, is the book of alert histories and
	// acknowledgements this App shares (with a state file); nil: one of
	// its own.
	Alerts *model.AlertBook
	// Shared, when set, is the model this App shows instead of folding
	// the sources' snapshots itself (a war room's: every session the same
	// picture). The sources still take refreshes, focus and forgets.
	Shared SharedModel
	// Fleet, when set, is the fleet as a monitoring system holds it
	// (--prometheus): the first screen is the fleet view on its rows, and
	// the Sources are only the connections the operator named, which enter
	// opens live.
	Fleet FleetFeed
}

// App is the root model of the program: the navigation stack, the live
// feed, the layers over the screen (palette, filter, help), the war room
// and the playback. What the operator's session did and knows is its
// session; each result goes back to the screen that asked (receive).
type App struct {
	opt  Options
	st   Styles
	keys KeyMap
	help help.Model
	// quitAsked: q asked whether to quit (marks or a war-room seat would
	// be lost); the next key answers (quitOrAsk).
	quitAsked bool
	state     *model.State
	sess      *session
	// stack is the navigation: the dashboard at the bottom, the screen on
	// view at the top; esc pops exactly what enter pushed.
	stack  []screen
	qm     string
	width  int
	height int

	pending [][]*mqwatch.Snapshot // per source, in order, held while the picture stands still
	shared  shared                // the shared model, when the App shows one

	filter filterInput
	pal    palette

	// fleetFirst: more than fleetFirstAbove queue managers, so the fleet
	// view is the first screen and every dashboard sits above it.
	fleetFirst bool
	showHelp   bool
	flash      string // one-line status (copied, refused, ...)
	room       warRoom
	playback   player
	// look numbers the styles as they render (styleID), for the keys of
	// drawings shared in a room; drawAlone turns sharing them off (tests).
	look      int
	drawAlone bool
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
	if o.Playback != nil {
		o.ReadOnly, o.ReadOnlyWhy, o.NoExport, o.Now = true, "a playback is read-only: it shows what happened", true, o.Playback.At
	}
	a := &App{opt: o, keys: DefaultKeyMap(), help: help.New(),
		state: model.New(o.Now, o.Interval), pending: make([][]*mqwatch.Snapshot, len(o.Sources))}
	a.sess = newSession(&a.opt)
	a.state.Journal = a.sess.journal // alerts about acts read what was done
	a.setTheme(o.Theme)
	if o.Alerts != nil {
		a.state.Book = o.Alerts
	}
	for _, s := range o.Sources {
		a.state.QMgr(s.Name()).Styles = o.ConsumerStyles[s.Name()]
		a.state.QMgr(s.Name()).PauseAfter = o.PauseAfter[s.Name()]
		a.state.QMgr(s.Name()).UnattendedAfter = o.UnattendedAfter[s.Name()]
	}
	if a.shared.m = o.Shared; o.Shared != nil {
		a.state = o.Shared.Latest()
	}
	if fs, ok := o.Shared.(FrameSharer); ok {
		a.sess.frames = fs.Frames()
	}
	if len(o.Sources) > 0 {
		a.qm = o.Sources[0].Name()
	}
	a.stack = []screen{newDashboard(a.qm)}
	if a.fleetFirst = len(o.Sources) > fleetFirstAbove; a.fleetFirst {
		a.stack = []screen{newFleetScreen()}
	}
	if o.Fleet != nil {
		a.fleetFirst, a.stack = true, []screen{newRemoteFleetScreen()}
	}
	a.pal = newPalette()
	a.filter = newFilterInput()
	a.room = warRoom{r: o.Room}
	if o.Playback != nil {
		a.playback = player{r: o.Playback}
		first, _, _ := o.Playback.Bounds()
		a.playback.seek(a, first) // before Init: the dashboard's refresh starts nothing
	}
	return a
}

func (a *App) setTheme(t themes.Theme) {
	a.opt.Theme = t
	a.st = NewStyles(a.opt.Renderer, t)
	a.look = styleID(&a.st)
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
		a.sess.warming = true
		if a.shared.m == nil {
			a.state.Warming = true
		}
		cmds = append(cmds, func() tea.Msg { <-w; return warmedMsg{} })
	}
	if a.shared.m != nil {
		// The room's latest picture is on view from the first frame.
		cmds = append(cmds, waitPicture(a.shared.m), a.Refresh())
	} else {
		for i, s := range a.opt.Sources {
			cmds = append(cmds, waitSnapshot(i, s))
		}
	}
	if a.playback.r != nil {
		cmds = append(cmds, a.playback.foldAhead(&a.opt))
	}
	if f, ok := a.top().(*fleetScreen); ok {
		// A fleet's rows read "connecting…" from the first frame, not
		// from the first tick or snapshot.
		cmds = append(cmds, f.refresh(a))
	}
	if feed := a.opt.Fleet; feed != nil {
		// The answer read before the program started is on the first frame.
		_, seq := feed.Latest()
		cmds = append(cmds, waitFleet(a.opt.Ctx, feed, seq), refresh(a.top(), a))
	}
	if a.opt.Room != nil {
		cmds = append(cmds, waitRoom(a.opt.Room))
	}
	return tea.Batch(cmds...)
}

// Update routes messages; each case delegates to a method. Work a screen
// starts off the Update path while refreshing (a filter over 100k messages)
// is the screen's command: every method that refreshes returns it, and the
// commands are batched on the way up, as Bubble Tea's parents batch their
// children's.
func (a *App) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	cmd := a.handle(msg)
	a.room.publish(a.sessionView) // the room learns where this session is
	return a, cmd
}

// handle routes one message: the core ones here (the terminal, the feeds,
// the room, the playback, keys), every other one is a result (receive).
func (a *App) handle(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		a.setSize(msg.Width, msg.Height)
		return nil
	case snapshotMsg:
		return a.onSnapshot(msg)
	case sourceClosedMsg:
		return nil
	case pictureMsg:
		return a.shared.arrived(a, msg)
	case roomMsg:
		return a.onRoom(msg)
	case playbackTickMsg:
		return a.playback.tick(a, msg)
	case aheadMsg:
		return a.playback.aheadStep()
	case tickMsg:
		switch a.top().(type) {
		case *fleetScreen, *remoteFleetScreen:
			// Ages and staleness move with the clock: a queue manager that
			// stopped answering sends nothing that would refresh its row.
			return tea.Batch(a.Refresh(), tick())
		}
		return tick()
	case fleetAnswerMsg:
		next := waitFleet(a.opt.Ctx, a.opt.Fleet, msg.seq)
		if _, ok := a.top().(*remoteFleetScreen); ok && !a.sess.frozen {
			return tea.Batch(next, a.Refresh())
		}
		return next
	case flashMsg:
		a.flash = string(msg)
		return nil
	case helpMsg:
		a.showHelp = true
		return nil
	case warmedMsg:
		// The last polls are from the simulated past: poll now, so no queue
		// manager reads as stale for the rest of an interval.
		a.sess.warming = false
		if a.shared.m == nil {
			a.state.Warming = false
		}
		for _, s := range a.opt.Sources {
			s.Refresh()
		}
		return nil
	case tea.MouseMsg:
		return a.onMouse(msg)
	case tea.KeyMsg:
		return a.onKey(msg)
	}
	return a.receive(msg)
}

// receive is the one route a result takes back to the screen that asked
// (each result carries its identity: a seq, or the screen itself): it is
// offered to the screens on the stack, top first, then to those still
// watching an outcome (a closed fix dialog checking its alert, a define
// or a prediction sent); the first that takes it ends the offer. Nothing
// else handles results. News for every screen (goneMsg) is taken by none.
func (a *App) receive(msg tea.Msg) tea.Cmd {
	defer a.sess.stopWatching()
	for i := len(a.stack) - 1; i >= 0; i-- {
		if r, ok := a.stack[i].(receiver); ok {
			if cmd, took := r.receive(a, msg); took {
				return cmd
			}
		}
	}
	for _, w := range a.sess.watching {
		if cmd, took := w.receive(a, msg); took {
			return cmd
		}
	}
	return nil
}

func (a *App) onSnapshot(m snapshotMsg) tea.Cmd {
	next := waitSnapshot(m.src, a.opt.Sources[m.src])
	if a.sess.frozen || a.actionDialog().holds() {
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
	// What was held while the picture stood still (a dialog that now
	// checks for messages coming back holds no more) is folded first, in
	// order.
	for _, held := range a.pending {
		if len(held) > 0 {
			a.unhold()
			break
		}
	}
	a.state.Fold(m.snap)
	return tea.Batch(next, a.Refresh())
}

// unhold folds the snapshots held while the picture stood still, unless it
// still does.
func (a *App) unhold() tea.Cmd {
	if a.sess.frozen || a.actionDialog().holds() {
		return nil
	}
	a.shared.unhold(a)
	for i, held := range a.pending {
		for _, s := range held {
			a.state.Fold(s)
		}
		a.pending[i] = nil
	}
	return a.Refresh()
}

// actionDialog is the action dialog (R M P D E) on view, nil when none is
// open: live updates are held while it holds (dialog.holds).
func (a *App) actionDialog() *dialog {
	d, _ := a.top().(*dialog)
	return d
}

// current returns the state of the queue manager being viewed.
func (a *App) current() *model.QMgrState { return a.state.QMgr(a.qm) }

// Refresh gives the screen on view the new state, keeping its cursor, and
// returns the work the screen started (a filter's scan, a prediction);
// the screens still watching an outcome see the poll too (polledMsg).
func (a *App) Refresh() tea.Cmd {
	cmd := refresh(a.top(), a)
	for _, w := range a.sess.watching {
		w.receive(a, polledMsg{})
	}
	a.sess.stopWatching()
	return cmd
}
