package model

import (
	"fmt"
	"strings"

	"github.com/poisonwatch/poisonwatch/actions"
	"github.com/poisonwatch/poisonwatch/actions/ops"
	"github.com/poisonwatch/poisonwatch/codec/mqfmt"
	"github.com/poisonwatch/poisonwatch/incident/journal"
)

// loopCause says whether what brought a run's messages back (R10f) is gone
// now: the queue their new MQDLH names is no longer full, takes puts
// again, or exists. note says so, with the act that removed the cause
// when the journal has one ("cause fixed at 21:31 by alice (MAXDEPTH 40 →
// 5000): run it again"). A cause that cannot be seen from the queue
// manager (content the consumer refuses) is never gone.
func (q *QMgrState) loopCause(l RequeueLoop) (note string, gone bool) {
	for _, c := range l.Check.Causes {
		why, ok := q.causeGone(c)
		if !ok {
			return "", false
		}
		if note == "" {
			note = why
		}
	}
	if note == "" {
		return "", false
	}
	if e := q.lastChange(l); e != nil {
		return fmt.Sprintf("cause fixed at %s by %s (%s): run it again", e.At.Format("15:04"), e.Who(), stepsSaid(e)), true
	}
	return "cause gone: " + note + ": run it again", true
}

// causeGone judges one cause of a come-back against the queue its MQDLH
// named, as the last poll saw it.
func (q *QMgrState) causeGone(c ops.OpCount) (string, bool) {
	qs := q.Queues[c.Queue]
	if c.Queue == "" || qs == nil {
		return "", false
	}
	info, st := &qs.View.Info, &qs.View.Status
	switch mqfmt.Reason(c.Reason) {
	case mqfmt.RCQFull:
		if qs.View.HasStatus && info.MaxDepth > 0 && st.Depth < info.MaxDepth {
			return fmt.Sprintf("%s no longer full (%d/%d)", c.Queue, st.Depth, info.MaxDepth), true
		}
	case mqfmt.RCPutInhibited:
		if !info.InhibitPut {
			return c.Queue + " takes puts again", true
		}
	case mqfmt.RCUnknownObjectName:
		return c.Queue + " exists now", true
	}
	return "", false
}

// lastChange is the newest fix, inhibit or definition of the journal on
// one of the queues the loop's causes name, made after the run.
func (q *QMgrState) lastChange(l RequeueLoop) *journal.Entry {
	es := q.acts.Entries()
	for i := len(es) - 1; i >= 0; i-- {
		e := &es[i]
		if e.QMgr != q.Name || e.At.Before(l.Check.Started) || (e.Kind != journal.Fix && e.Kind != journal.Inhibit && e.Kind != journal.Define) {
			continue
		}
		for _, c := range l.Check.Causes {
			if c.Queue != "" && (e.Queue == c.Queue || strings.Contains(e.Text, c.Queue)) {
				return e
			}
		}
	}
	return nil
}

// stepsSaid is a change's steps as a note says them: the attributes
// before → after, or the MQSC.
func stepsSaid(e *journal.Entry) string {
	var out []string
	for _, s := range e.Steps {
		if s.Before != "" {
			out = append(out, s.Before+" → "+s.After)
		} else {
			out = append(out, s.MQSC)
		}
	}
	return strings.Join(out, "; ")
}

// getInhibitedBy says who set GET(DISABLED) on queue from this room or
// dashboard and when, as the journal has it ("" when nobody did, or it was
// enabled again since).
func (q *QMgrState) getInhibitedBy(queue string) string {
	if e, ok := q.acts.Inhibited(q.Name, queue, "GET"); ok {
		return fmt.Sprintf("GET(DISABLED) by %s at %s", e.Who(), e.At.Format("15:04"))
	}
	return ""
}

// explainedByActs turns the findings an operator's own act explains into
// what they are: a consumer that stopped getting, or a browse refused with
// MQRC_GET_INHIBITED, on a queue whose gets someone here disabled, is that
// inhibit, not a new alarm.
func (q *QMgrState) explainedByActs(out []Alert) {
	if q.acts.Len() == 0 {
		return
	}
	for i := range out {
		a := &out[i]
		if a.Queue == "" || !(a.Rule == "R4f" || a.Rule == "" && strings.Contains(a.Text, "2016")) {
			continue
		}
		if by := q.getInhibitedBy(a.Queue); by != "" {
			a.Severity = actions.Info
			a.Text = by + ": " + a.Text
		}
	}
}
