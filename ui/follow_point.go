package ui

import (
	"fmt"

	"github.com/poisonwatch/poisonwatch/internal/words"
	"github.com/poisonwatch/poisonwatch/mqwatch/mqfmt"
)

// showPoint marks the row the followed session points at. A row this
// screen does not have (its data or filter differ) is said, not marked on
// the last row; and the sentence goes when the pointing stops.
func (a *App) showPoint(g *Grid, user string, v SessionView) {
	g.CursorMark = ""
	if !v.Pointing {
		if a.flash != "" && a.flash == a.room.pointFlash {
			a.flash = ""
		}
		a.room.pointFlash = ""
		return
	}
	who := mqfmt.Sanitize(user)
	if v.Cursor >= g.Rows {
		a.flash = fmt.Sprintf("%s points at row %d; this screen has %s (its data or filter differ)", who, v.Cursor+1, words.Count(g.Rows, "row"))
	} else {
		g.CursorMark = pointMark
		a.flash = fmt.Sprintf("%s points at row %d", who, v.Cursor+1)
	}
	a.room.pointFlash = a.flash
}

// newDriverOffer is what a follower whose driver left is offered: the
// session driving now, if another one does.
func (a *App) newDriverOffer() string {
	for _, m := range a.room.st.Members {
		if m.Driving && m.ID != a.room.st.Self {
			return "; " + mqfmt.Sanitize(m.User) + " drives now: F follows them"
		}
	}
	return ""
}
