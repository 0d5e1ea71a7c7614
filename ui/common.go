package ui

import (
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/poisonwatch/poisonwatch/actions/ops"
	"github.com/poisonwatch/poisonwatch/model"
	"github.com/poisonwatch/poisonwatch/mqwatch"
)

// common is what a screen may use of the program, as soft-serve's
// common.Common is for its components: the look (styles, keys), the
// session's options, the model state, navigation and the status line.
// Screens get it in every call (bindings, refresh, resize, view) and keep
// nothing of the App; what only one screen needs is that screen's method,
// not the App's. The App implements it.
type common interface {
	// Styles are the theme's lipgloss styles; Keys the key map.
	Styles() *Styles
	Keys() *KeyMap
	// Opts are how the session was started (read-only, clock, operations).
	Opts() *Options
	// State is what the polls folded, per queue manager.
	State() *model.State
	// QMgrName is the queue manager the header shows.
	QMgrName() string
	// Push opens s above the screen on view; Pop goes back.
	Push(s screen) tea.Cmd
	Pop() tea.Cmd
	// OpenQueue opens a queue of the header's queue manager on its screen
	// (triage for a DEADQ or BOQ); SwitchQMgr shows another queue
	// manager's dashboard.
	OpenQueue(name string) tea.Cmd
	SwitchQMgr(qm string) tea.Cmd
	// Refresh gives the screen on view the state as it is now (after a
	// change that was not a poll) and returns what it starts.
	Refresh() tea.Cmd
	// NextSeq numbers a request whose answer comes later, so an answer
	// for a screen that has gone (or asked again) finds none.
	NextSeq() int
	// OpenMessage opens a message of loc's queue (its body is fetched);
	// OpenDeadQ jumps to the header's queue manager's DEADQ.
	OpenMessage(loc model.Location, s mqwatch.Summary) tea.Cmd
	OpenDeadQ() tea.Cmd
	// InhibitKey is I on the queue q returns (GET off/on, after a dialog).
	InhibitKey(qm string, q func() *model.QueueState) binding
	// Held: live updates are held (warming up, frozen, a dialog open);
	// Warming: the sources' history is still being read.
	Held() bool
	Warming() bool
	// QueueOrder is the dashboards' queue order (s cycles it).
	QueueOrder() *queueSort
	// CloseDialog stops what the dialog on view runs, pops it and folds
	// the polls held while it was open.
	CloseDialog() tea.Cmd
	// WriteNew writes a new host file through the session's file
	// capability (Options.Files); an existing file is refused.
	WriteNew(path string, data []byte) error
	// OpenHelp shows help (?) over the screen.
	OpenHelp()
	// Sel are the marked messages, on the queue SelQueue names: marks
	// never travel to another queue's action. MarkOn starts marking on
	// queue (marks made on another are dropped).
	Sel() *model.Selection
	SelQueue() string
	MarkOn(queue string)
	// ActionKeys are R M P D E on the messages targets returns (marked, or
	// under the cursor) of loc's queue: each opens its dialog on a dry run.
	ActionKeys(targets func() ([]mqwatch.Summary, int), loc model.Location) []binding
	// NoFiles says why this session cannot read or write host files, ""
	// when it can.
	NoFiles() string
	// InhibitedBy says who set attr (GET, PUT) off on queue from this
	// session and when, "" when nobody did.
	InhibitedBy(qm, queue, attr string) string
	// WatchFix keeps a fix dialog closed while it watches for its alert to
	// clear: the flash still tells how it ended.
	WatchFix(d *fixDialog)
	// ReplaySeek pauses a replay and moves it to t (poisonwatch replay).
	ReplaySeek(t time.Time) tea.Cmd
	// RecordRun keeps an action's result: the audit, the requeue-loop
	// check (R10f), and what the watcher no longer has to read.
	RecordRun(res ops.OpResult)
	// Flash sets the one-line status ("copied", why a key does nothing).
	Flash(text string)
	// FixKeys are x and I on the alert sel returns, AckKeys K and Z:
	// they open the fix, inhibit and acknowledgement dialogs.
	FixKeys(sel func() *model.Alert) []binding
	AckKeys(sel func() *model.Alert) []binding
	// Audit is what this session did (in a war room, the room's runs
	// since it joined), newest first.
	Audit() []auditRun
	// Rules is the runmqdlq rules table loaded with :rules and its
	// predictions, nil when none is loaded.
	Rules() *rulesTable
	// ExportDir is where files the session writes go unless the operator
	// types another path.
	ExportDir() string
}

func (a *App) Styles() *Styles               { return &a.st }
func (a *App) Keys() *KeyMap                 { return &a.keys }
func (a *App) Opts() *Options                { return &a.opt }
func (a *App) State() *model.State           { return a.state }
func (a *App) QMgrName() string              { return a.qm }
func (a *App) Push(s screen) tea.Cmd         { return a.push(s) }
func (a *App) Pop() tea.Cmd                  { return a.pop() }
func (a *App) OpenQueue(name string) tea.Cmd { return a.openQueue(name) }
func (a *App) SwitchQMgr(qm string) tea.Cmd  { return a.switchQMgr(qm) }
func (a *App) Refresh() tea.Cmd              { return a.refreshScreens() }
func (a *App) NextSeq() int                  { a.fetchSeq++; return a.fetchSeq }
func (a *App) OpenMessage(loc model.Location, s mqwatch.Summary) tea.Cmd {
	return a.openMessage(loc, s)
}
func (a *App) OpenDeadQ() tea.Cmd { return a.openDeadQ() }
func (a *App) InhibitKey(qm string, q func() *model.QueueState) binding {
	return a.inhibitKey(qm, q)
}
func (a *App) Held() bool                              { return a.warming || a.frozen || a.activeDialog() != nil }
func (a *App) Warming() bool                           { return a.warming }
func (a *App) QueueOrder() *queueSort                  { return &a.sortBy }
func (a *App) CloseDialog() tea.Cmd                    { return a.closeDialog() }
func (a *App) WriteNew(path string, data []byte) error { return a.writeNew(path, data) }
func (a *App) OpenHelp()                               { a.showHelp = true }
func (a *App) Sel() *model.Selection                   { return a.sel }
func (a *App) SelQueue() string                        { return a.selQueue }
func (a *App) MarkOn(queue string)                     { a.markOn(queue) }
func (a *App) ActionKeys(targets func() ([]mqwatch.Summary, int), loc model.Location) []binding {
	return a.actionKeys(targets, loc)
}
func (a *App) NoFiles() string                           { return a.noFiles() }
func (a *App) InhibitedBy(qm, queue, attr string) string { return a.inhibited[qm+"/"+queue+"/"+attr] }
func (a *App) WatchFix(d *fixDialog)                     { a.verifying = append(a.verifying, d) }
func (a *App) ReplaySeek(t time.Time) tea.Cmd {
	a.replay.speed, a.replay.gen = 0, a.replay.gen+1
	return a.replaySeek(t)
}
func (a *App) RecordRun(res ops.OpResult)                { a.recordRun(res) }
func (a *App) Flash(text string)                         { a.flash = text }
func (a *App) Audit() []auditRun                         { return a.auditLog }
func (a *App) AckKeys(sel func() *model.Alert) []binding { return a.ackBindings(sel) }

func (a *App) FixKeys(sel func() *model.Alert) []binding {
	k := a.keys
	return []binding{
		bind(k.Fix, func() tea.Cmd { return a.openFix(sel()) }, short, a.fixKeyOff(sel)),
		bind(k.Inhibit, func() tea.Cmd { al := sel(); return a.openInhibit(al.QMgr, al.Queue) }, a.inhibitOffAlert(sel)),
	}
}
func (a *App) Rules() *rulesTable { return a.rules }
func (a *App) ExportDir() string  { return a.exportDir() }

// gridKeys are the moves every list shares.
func gridKeys(k *KeyMap, g *Grid) []binding {
	return []binding{
		bind(k.Up, run(func() { g.Move(-1) })),
		bind(k.Down, run(func() { g.Move(1) })),
		bind(k.PgUp, run(func() { g.Page(-1) })),
		bind(k.PgDown, run(func() { g.Page(1) })),
		bind(k.Home, run(g.Home)),
		bind(k.End, run(g.End)),
	}
}
