package ui

import (
	tea "github.com/charmbracelet/bubbletea"

	"github.com/poisonwatch/poisonwatch/model"
)

// SharedModel is a model many Apps show (poisonwatch serve's room): it
// folds each snapshot once, for every session, and publishes a picture of
// the state after each fold (model.State.Picture). An App on it folds
// nothing: it shows the latest picture, so every session of a room sees
// the same alerts, counts and histories, one that just joined included;
// only the view (screens, cursor, filter, marks) is the session's.
type SharedModel interface {
	// Pictures delivers the newest picture, latest-wins: an unread one is
	// replaced. Closed when the session leaves.
	Pictures() <-chan *model.State
	// Latest is the newest picture, for a session that paints at once.
	Latest() *model.State
	// Reannotate gives the alerts the book's latest histories (after an
	// acknowledgement) and returns the picture with them; every session
	// gets it.
	Reannotate() *model.State
}

// pictureMsg carries the shared model's new picture into Update.
type pictureMsg struct {
	pic *model.State
	ok  bool
}

func waitPicture(m SharedModel) tea.Cmd {
	ch := m.Pictures()
	return func() tea.Msg {
		pic, ok := <-ch
		return pictureMsg{pic: pic, ok: ok}
	}
}

// shared is the App's side of its shared model, as warRoom is of its
// room: the newest picture, held while the one on view stands still
// (frozen, or an action dialog open). Only the newest is kept: a picture
// carries all the history before it.
type shared struct {
	m    SharedModel
	held *model.State
}

// arrived shows the shared model's new picture, or holds it.
func (s *shared) arrived(a *App, m pictureMsg) tea.Cmd {
	if !m.ok {
		return nil
	}
	next := waitPicture(s.m)
	if !s.show(a, m.pic) {
		return next
	}
	return tea.Batch(next, a.Refresh())
}

// show makes pic the state on view, unless the picture on view stands
// still: then it holds pic; it says whether pic is on view.
func (s *shared) show(a *App, pic *model.State) bool {
	if a.sess.frozen || a.actionDialog().holds() {
		s.held = pic
		return false
	}
	a.state, s.held = pic, nil
	return true
}

// unhold shows the picture held while the picture stood still.
func (s *shared) unhold(a *App) {
	if s.held != nil {
		a.state, s.held = s.held, nil
	}
}

// Reannotate gives the alerts their latest histories and order, after an
// acknowledgement here or in another session.
func (a *App) Reannotate() {
	if a.shared.m == nil {
		a.state.Reannotate()
		return
	}
	if !a.shared.show(a, a.shared.m.Reannotate()) {
		// The picture on view stands still; who acknowledged what does not.
		a.state = a.state.Reannotated()
	}
}
