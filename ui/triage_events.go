package ui

import (
	"github.com/charmbracelet/x/ansi"
)

// eventLine says which instrumentation events explain the dead-letter group
// under the cursor (an authority event for its 2035s, a queue-full event
// for its 2053s, on its destination queue), when the event queues are
// watched (Options.Events); "" otherwise.
func (a *App) eventLine(t *triageScreen, w int) string {
	g := t.selected()
	if a.opt.Events == nil || g == nil || g.Key.DestQ == "" {
		return ""
	}
	s := a.opt.Events(t.loc.QMgr, g.Key.Reason, g.Key.DestQ)
	if s == "" {
		return ""
	}
	return ansi.Truncate(a.st.Warning.Render(" ⚑ "+s), w, "…") // already sanitised
}
