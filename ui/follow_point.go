package ui

import (
	"fmt"

	"github.com/poisonwatch/poisonwatch/codec/mqfmt"
	"github.com/poisonwatch/poisonwatch/internal/words"
)

// point marks the row the followed session points at, and says so in
// flash. A row this screen does not have (its data or filter differ) is
// said, not marked on the last row; and the sentence goes when the
// pointing stops.
func (r *warRoom) point(g *Grid, user string, v SessionView, flash *string) {
	if g != nil {
		g.CursorMark = ""
	}
	if !v.Pointing || g == nil {
		if *flash != "" && *flash == r.pointFlash {
			*flash = ""
		}
		r.pointFlash = ""
		return
	}
	who := mqfmt.Sanitize(user)
	if v.Cursor >= g.Rows {
		*flash = fmt.Sprintf("%s points at row %d; this screen has %s (its data or filter differ)", who, v.Cursor+1, words.Count(g.Rows, "row"))
	} else {
		g.CursorMark = pointMark
		*flash = fmt.Sprintf("%s points at row %d", who, v.Cursor+1)
	}
	r.pointFlash = *flash
}

// newDriverOffer is what a follower whose driver left is offered: the
// session driving now, if another one does.
func (r *warRoom) newDriverOffer() string {
	for _, m := range r.st.Members {
		if m.Driving && m.ID != r.st.Self {
			return "; " + mqfmt.Sanitize(m.User) + " drives now: F follows them"
		}
	}
	return ""
}

// selfRole is this session's role in the room ("operator", "viewer"), ""
// before the room has said.
func (r *warRoom) selfRole() string {
	if m := r.member(r.st.Self); m != nil {
		return m.Role
	}
	return ""
}
