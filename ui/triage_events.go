package ui

import (
	"github.com/charmbracelet/x/ansi"
)

// eventLine says which instrumentation events explain the dead-letter group
// under the cursor (an authority event for its 2035s, a queue-full event
// for its 2053s, on its destination queue), when the event queues are
// watched (Options.Events); "" otherwise.
func (t *triageScreen) eventLine(c common, w int) string {
	g := t.selected()
	if c.Opts().Events == nil || g == nil || g.Key.DestQ == "" {
		return ""
	}
	s := c.Opts().Events(t.loc.QMgr, g.Key.Reason, g.Key.DestQ)
	if s == "" {
		return ""
	}
	return ansi.Truncate(c.Styles().Warning.Render(" ⚑ "+s), w, "…") // already sanitised
}
