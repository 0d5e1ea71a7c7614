package ops

import (
	"fmt"
	"strings"

	"github.com/poisonwatch/poisonwatch/mqwatch"
	"github.com/poisonwatch/poisonwatch/mqwatch/mqfmt"
)

// systemTargetSkip says why a put to a SYSTEM.* queue is refused (R10g): a
// dead letter whose DestQName is SYSTEM.ADMIN.COMMAND.QUEUE, requeued with
// its context passed, would have the command server run its PCF with the
// authority of the UserIdentifier it carries (mqm). Only the local DEADQ
// and transmission queues are routes the engine documents; anything else
// must be named exactly with --allow-system-target.
func (t *opTargets) systemTargetSkip(req *OpRequest, tg opTarget) string {
	q := strings.TrimSpace(tg.queue)
	if !strings.HasPrefix(q, "SYSTEM.") || q == strings.TrimSpace(req.AllowSystemTarget) {
		return ""
	}
	if tg.qmgr == "" && t.inv != nil {
		if q == strings.TrimSpace(t.inv.QMgr.DeadQ) {
			return ""
		}
		if qi, ok := t.inv.Queue(q); ok && qi.Type == mqwatch.QLocal && qi.Usage == mqwatch.UsageXmitQ {
			return ""
		}
	}
	return fmt.Sprintf("its target %s is a SYSTEM queue (R10g): a put there runs with the authority its context carries "+
		"(SYSTEM.ADMIN.COMMAND.QUEUE executes commands as the message's user); name it exactly with --allow-system-target %s if you mean it",
		tg.key(), q)
}

// isDestination reports whether tg is a dead letter's destination: its
// MQDLH DestQName, by name or, locally, by the queue it resolves to.
func (t *opTargets) isDestination(tg opTarget, s *mqwatch.Summary) bool {
	if !s.HasDLH || tg.queue == "" {
		return false
	}
	dq, dqm := strings.TrimSpace(s.DLHDestQ), t.remote(s.DLHDestQMgr)
	if !strings.EqualFold(dqm, tg.qmgr) {
		return false
	}
	if dq == tg.queue {
		return true
	}
	if tg.qmgr != "" || t.inv == nil {
		return false
	}
	a, b := t.inv.Facts(dq), t.inv.Facts(tg.queue)
	return a.Resolved != "" && a.Resolved == b.Resolved
}

// refusedDestination reports whether tg is the destination security refused
// a 2035 dead letter at (R10b, one rule whatever the action): the MQDLH's
// DestQName on its DestQMgrName, by name or, locally, by the queue it
// resolves to. A put there with the operator's authority would deliver what
// security refused; a put to any other queue (a parking queue, a forward
// queue) bypasses nothing, whichever action makes it and whether the MQDLH
// stays or goes.
func (t *opTargets) refusedDestination(tg opTarget, s *mqwatch.Summary) bool {
	return s.HasDLH && mqfmt.Reason(s.DLHReason) == mqfmt.RCNotAuthorized && t.isDestination(tg, s)
}
