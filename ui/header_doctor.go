package ui

import (
	"fmt"

	"github.com/charmbracelet/x/ansi"

	"github.com/poisonwatch/poisonwatch/codec/mqfmt"
)

// doctorBadge shows what the doctor's checks found off on a queue manager
// (Options.Diagnosis): on the one on view the first problem, on the others
// their count; `poisonwatch doctor` prints each with its fix.
func (a *App) doctorBadge(name string) string {
	if a.opt.Diagnosis == nil {
		return ""
	}
	probs := a.opt.Diagnosis(name)
	if len(probs) == 0 {
		return ""
	}
	if name != a.qm {
		return a.st.Warning.Render(fmt.Sprintf(" ✘%d", len(probs)))
	}
	first := ansi.Truncate(mqfmt.Sanitize(probs[0]), 60, "…")
	more := ""
	if len(probs) > 1 {
		more = fmt.Sprintf(" (+%d more)", len(probs)-1)
	}
	return a.st.Warning.Render(" ✘ " + first + more + ": poisonwatch doctor")
}
