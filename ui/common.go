package ui

import (
	tea "github.com/charmbracelet/bubbletea"

	"github.com/poisonwatch/poisonwatch/model"
)

// common is what a screen may use of the program, as soft-serve's
// common.Common is for its components: the look (styles, keys), the
// session's options, the model state, the session, navigation and the
// status line. Screens get it in every call (bindings, refresh, resize,
// view, receive) and keep nothing of the App; what only one screen needs
// is that screen's method or a function of common, not the App's. The App
// implements it.
type common interface {
	// Styles are the theme's lipgloss styles; Keys the key map.
	Styles() *Styles
	Keys() *KeyMap
	// Opts are how the session was started (read-only, clock, operations).
	Opts() *Options
	// State is what the polls folded, per queue manager: in a war room,
	// the room's picture, which nobody changes; Reannotate changes what it
	// shows.
	State() *model.State
	// Reannotate re-reads the alerts' histories after an acknowledgement.
	Reannotate()
	// Session is what this operator's session did and knows: the journal
	// of its actions, marks, inhibits set, screens still watching an
	// outcome, the rules table, the file capability.
	Session() *session
	// QMgrName is the queue manager the header shows.
	QMgrName() string
	// Push opens s above the screen on view; Pop goes back; Jump replaces
	// everything above the dashboard with s (the DEADQ, a queue from the
	// palette); SwitchQMgr shows another queue manager's dashboard.
	Push(s screen) tea.Cmd
	Pop() tea.Cmd
	Jump(s screen) tea.Cmd
	SwitchQMgr(qm string) tea.Cmd
	// Refresh gives the screen on view the state as it is now (after a
	// change that was not a poll) and returns what it starts.
	Refresh() tea.Cmd
	// Flash sets the one-line status ("copied", why a key does nothing).
	Flash(text string)
}

func (a *App) Styles() *Styles     { return &a.st }
func (a *App) Keys() *KeyMap       { return &a.keys }
func (a *App) Opts() *Options      { return &a.opt }
func (a *App) State() *model.State { return a.state }
func (a *App) Session() *session   { return a.sess }
func (a *App) QMgrName() string    { return a.qm }
func (a *App) Flash(text string)   { a.flash = text }

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
