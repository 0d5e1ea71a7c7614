package model

import (
	"strings"

	"github.com/poisonwatch/poisonwatch/actions"
)

// FixPlan plans an alert's fix (R10h) against the state the last poll saw:
// each command as the PCF change it is sent as, with its attributes before
// and after and the authority it needs.
func (q *QMgrState) FixPlan(al Alert) actions.FixPlan {
	in := actions.FixInput{ID: al.ID(), Commands: strings.Split(al.Fix, "\n"), Prereq: al.FixFirst, After: al.After, Notes: al.Notes}
	if q.Snap != nil {
		in.QMgr = q.Snap.QMgr
		for _, v := range q.Snap.Queues {
			in.Queues = append(in.Queues, v.Info)
		}
	}
	in.QMgr.Name = q.Name
	return actions.PlanFix(in)
}

// NeedsFirst lists the other alerts whose fixes run al's first: applying
// al also clears the way for them (R8e).
func (q *QMgrState) NeedsFirst(al Alert) []Alert {
	prefix := al.Rule + " " + al.Queue + ":"
	var out []Alert
	for _, o := range q.Alerts {
		if o.ID() == al.ID() {
			continue
		}
		for _, a := range o.After {
			if strings.HasPrefix(a, prefix) {
				out = append(out, o)
				break
			}
		}
	}
	return out
}

// Advice says the alert's fix is prose to follow, not MQSC to apply (R10f's
// "fix the cause before acting again", what to do about stuck poison or a
// stalled consumer): no line of it reads as an MQSC command. Nothing can
// apply it; the screens say "Fix (advice)" and x says why it is off.
func (a Alert) Advice() bool {
	if a.Fix == "" {
		return false
	}
	for _, l := range strings.Split(a.Fix, "\n") {
		if actions.IsMQSC(l) {
			return false
		}
	}
	return true
}
