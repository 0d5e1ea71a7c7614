package ui

import (
	"cmp"
	"fmt"
	"strings"

	"github.com/poisonwatch/poisonwatch/actions/dlqrules"
	"github.com/poisonwatch/poisonwatch/codec/mqfmt"
	"github.com/poisonwatch/poisonwatch/model"
)

// fwdCandidates are the known queues the typed FWDQ begins, for the line
// under the input: tab alone would fill in their common beginning without
// saying what it chose between (the action dialogs list them too).
func (d *rulesDialog) fwdCandidates(c common) string {
	q, qm := splitTarget(d.input.Value())
	if q == "" || strings.HasPrefix(q, "&") {
		return ""
	}
	m := model.CompleteNames(q, knownQueues(c.State(), cmp.Or(qm, d.loc.QMgr)))
	if len(m) == 0 {
		return ""
	}
	shown := m[:min(len(m), maxShownMatches)]
	s := "   " + strings.Join(shown, "  ")
	if len(m) > len(shown) {
		s += fmt.Sprintf(" (+%d more)", len(m)-len(shown))
	}
	return mqfmt.Sanitize(s)
}

// fwdWarnings name the FWD queues the watcher knows do not exist: runmqdlq
// would fail to forward there (2085) and leave the message on the DLQ. A
// queue on a queue manager that is not watched, or named by &DESTQ or
// &REPLYQ, is not judged.
func (d *rulesDialog) fwdWarnings(c common) []string {
	var out []string
	for i, g := range d.groups {
		if g.Choice != dlqrules.Fwd || g.FwdQ == "" || strings.HasPrefix(g.FwdQ, "&") || strings.HasPrefix(g.FwdQM, "&") {
			continue
		}
		qm := cmp.Or(g.FwdQM, d.loc.QMgr)
		known := knownQueues(c.State(), qm)
		if known == nil {
			continue
		}
		found := false
		for _, n := range known {
			found = found || n == g.FwdQ
		}
		if !found {
			out = append(out, mqfmt.Sanitize(fmt.Sprintf("rule %d: %s has no queue %s: runmqdlq would not forward there (2085 UNKNOWN_OBJECT_NAME)", i+1, qm, g.FwdQ)))
		}
	}
	return out
}
