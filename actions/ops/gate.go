package ops

import (
	"context"
	"fmt"
	"strings"

	"github.com/poisonwatch/poisonwatch/codec/mqfmt"
	"github.com/poisonwatch/poisonwatch/mqwatch"
)

// The target gate. Every message the product puts (requeue, move, replay,
// import, a rules table's FWD and RETRY, the parking move, edit and resend)
// is judged here, by the plan and again by the run, on the queue the name
// resolves to (landing): SYSTEM.* (R10g), the destination security refused
// (R10b), the source itself, and what the queue manager would answer to the
// bytes actually put (missing, inhibited, MAXMSGL of the queue and of the
// queue manager, persistence on a temporary dynamic queue). gatePut is the
// one place in the product that calls the port's MQPUT for an operator's
// action (TestGateIsTheOnlyPut).

// gateIn is one put the gate decides on.
type gateIn struct {
	op Op
	tg opTarget
	// msg is the message as the operator saw it: its MQDLH says where
	// security refused it (R10b). Nil for none.
	msg *mqwatch.Summary
	// length is the bytes put (after an MQDLH is removed, after an edit);
	// negative when not known.
	length      int
	persistent  bool
	putAuth     PutAuthority
	allowSystem string
}

// gateOut is the gate's answer: a skip (the put is never made) or a
// failure the queue manager is known to answer now.
type gateOut struct {
	skip  string
	cause SkipCause
	rc    mqfmt.Reason
	why   string
	land  landing
}

// gate judges one put.
func (t *opTargets) gate(in gateIn) gateOut {
	out := gateOut{cause: SkipOther}
	if in.tg.queue == "" {
		return out
	}
	out.land = t.land(in.tg)
	switch {
	case t.systemGuard(in, out.land) != "":
		out.skip = t.systemGuard(in, out.land)
	case in.putAuth == PutAuthDefault && t.refusedAt(out.land, in.tg, in.msg):
		out.skip, out.cause = refusedSkip, SkipRefused
	case in.op.movesMessages() && t.landsOnSource(in.tg, out.land):
		// Through an alias, a QREMOTE back to this queue manager or an
		// MQDLH naming the DEADQ itself: the message would land where it
		// is, its MQDLH stripped or BackoutCount reset.
		out.skip, out.cause = "its target "+in.tg.queue+" is the source queue itself", SkipSelf
		if len(out.land.path) > 0 {
			out.skip += " (" + strings.Join(out.land.path, ", ") + ")"
		}
	default:
		out.rc, out.why = t.predictPut(in, out.land)
	}
	return out
}

// systemGuard says why a put that lands on, or passes through, a SYSTEM.*
// queue is refused (R10g): a dead letter whose DestQName is
// SYSTEM.ADMIN.COMMAND.QUEUE, requeued with its context passed, would have
// the command server run its PCF with the authority of the UserIdentifier
// it carries (mqm), and an alias or a QREMOTE of the command queue is the
// command queue. Only the local DEADQ and transmission queues are routes
// the engine documents; anything else must be named exactly with
// --allow-system-target.
func (t *opTargets) systemGuard(in gateIn, l landing) string {
	for _, name := range l.names {
		q := strings.TrimSpace(name)
		if !strings.HasPrefix(q, "SYSTEM.") || q == strings.TrimSpace(in.allowSystem) || t.documentedRoute(q, l) {
			continue
		}
		via := ""
		if q != in.tg.queue {
			via = " (" + strings.Join(l.path, ", ") + ")"
		}
		return fmt.Sprintf("its target %s%s is a SYSTEM queue (R10g): a put there runs with the authority its context carries "+
			"(SYSTEM.ADMIN.COMMAND.QUEUE executes commands as the message's user); name it exactly with --allow-system-target %s if you mean it",
			in.tg.key(), via, q)
	}
	return ""
}

// documentedRoute reports whether the SYSTEM queue q is where the put lands
// on this queue manager and is its DEADQ or a transmission queue.
func (t *opTargets) documentedRoute(q string, l landing) bool {
	if t.inv == nil || l.destQMgr != "" || (l.known && l.dest != q) {
		return false
	}
	if q == strings.TrimSpace(t.inv.QMgr.DeadQ) {
		return true
	}
	qi, ok := t.inv.Queue(q)
	return ok && qi.Type == mqwatch.QLocal && qi.Usage == mqwatch.UsageXmitQ
}

// refusedAt reports whether a put to tg lands where security refused the
// 2035 dead letter s (R10b, one rule whatever the action): its MQDLH
// DestQName on DestQMgrName, by name or by the queue both resolve to. A
// put there with the operator's authority would deliver what security
// refused; a put to any other queue (a parking queue, a forward queue)
// bypasses nothing, whichever action makes it.
func (t *opTargets) refusedAt(l landing, tg opTarget, s *mqwatch.Summary) bool {
	if s == nil || !s.HasDLH || mqfmt.Reason(s.DLHReason) != mqfmt.RCNotAuthorized {
		return false
	}
	dst := opTarget{queue: strings.TrimSpace(s.DLHDestQ), qmgr: t.remote(s.DLHDestQMgr)}
	if dst.queue == tg.queue && strings.EqualFold(dst.qmgr, tg.qmgr) {
		return true
	}
	return l.key() == t.land(dst).key()
}

// landsOnSource reports whether tg lands on the source queue.
func (t *opTargets) landsOnSource(tg opTarget, l landing) bool {
	if tg.qmgr == "" && tg.queue == t.source {
		return true
	}
	src := t.land(opTarget{queue: t.source})
	return l.local != "" && l.local == src.local
}

// predictPut is what the queue manager answers now to the put, from the
// queue list: 0 when nothing is known against it.
func (t *opTargets) predictPut(in gateIn, l landing) (mqfmt.Reason, string) {
	if l.rc != 0 {
		return l.rc, l.why
	}
	if t.inv == nil || in.length < 0 {
		return 0, ""
	}
	if qm := t.inv.QMgr.MaxMsgLen; qm > 0 && in.length > int(qm) {
		return mqfmt.RCMsgTooBigForQMgr, fmt.Sprintf("%d bytes are more than the queue manager's MAXMSGL %d", in.length, qm)
	}
	if !l.known {
		return 0, ""
	}
	n, on := in.length, l.local
	if l.xmitq != "" {
		n, on = n+mqfmt.XQHLen, "transmission queue "+l.xmitq // the MQXQH travels with it
	}
	if l.maxMsgLen > 0 && n > int(l.maxMsgLen) {
		return mqfmt.RCMsgTooBigForQ, fmt.Sprintf("%d bytes are more than %s's MAXMSGL %d", n, on, l.maxMsgLen)
	}
	if in.persistent && l.tempDynamic {
		return mqfmt.RCPersistentNotAllowed, "a persistent message cannot go to " + l.local + ", a temporary dynamic queue"
	}
	return 0, ""
}

// putLength is the bytes a requeue, replay or move of s puts: a requeue
// and a replay remove an MQDLH (R10b), a move keeps the message whole.
func putLength(op Op, s *mqwatch.Summary) int {
	if s.Length <= 0 && len(s.BodyPrefix) == 0 {
		return -1
	}
	if op != OpMove && s.Format == strings.TrimSpace(mqfmt.FmtDeadLetter) && s.HasDLH {
		return s.Length - mqfmt.DLHLen
	}
	return s.Length
}

// gatePut is the product's one MQPUT for an operator's action: what the
// gate let through, put on q. It keeps the MQMD the queue manager returns
// on a warning too (2049: put, at MAXPRTY), so the copy's MsgId is known.
func gatePut(ctx context.Context, q mqwatch.Queue, md *mqfmt.MQMD, data []byte, o mqwatch.PutOptions) error {
	err := q.Put(ctx, md, data, o)
	if err != nil && mqwatch.IsWarning(err) {
		return nil
	}
	return err
}
