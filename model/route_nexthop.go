package model

import (
	"fmt"
	"strings"

	"github.com/poisonwatch/poisonwatch/actions"
	"github.com/poisonwatch/poisonwatch/codec/mqfmt"
	"github.com/poisonwatch/poisonwatch/mqwatch"
)

// nextHop says where a dead letter ends if a requeue puts it back and its
// consumer refuses it again, as it did before (R10f): with the consumer
// style the dashboard knows and the queues as they are now.
func (q *QMgrState) nextHop(s *mqwatch.Summary) []string {
	in, ok := q.consumerDeadLetter(s)
	if !ok {
		return nil
	}
	style, _ := q.styleOf(s.DLHDestQ)
	why := actions.ComesBack(s, in, q.inv, style)
	if why == "" {
		if boq := strings.TrimSpace(in.BackoutQName); boq != "" {
			return []string{fmt.Sprintf("R10f refused again by its consumer, it would end on %s, which has room now", boq)}
		}
		return nil
	}
	return []string{"R10f a requeue would bring it back to the DEADQ: the " + why}
}

// consumerDeadLetter resolves the destination of a dead letter its consumer
// wrote or refused (2053 by an application that is not a channel agent,
// 2362, 2363, 2364).
func (q *QMgrState) consumerDeadLetter(s *mqwatch.Summary) (actions.InputQueue, bool) {
	if q.inv == nil || !s.HasDLH || (s.DLHDestQMgr != "" && s.DLHDestQMgr != q.Name) {
		return actions.InputQueue{}, false
	}
	switch mqfmt.Reason(s.DLHReason) {
	case mqfmt.RCQFull:
		if !actions.WrittenByConsumer(s.DLHPutAppl, nil) {
			return actions.InputQueue{}, false
		}
	case mqfmt.RCBackoutThresholdReached, mqfmt.RCJMSFormatError, mqfmt.RCMsgNotMatched:
	default:
		return actions.InputQueue{}, false
	}
	in, err := q.inv.ResolveInput(s.DLHDestQ)
	return in, err == nil
}

// DLHReasonText explains a dead letter's MQDLH reason for the message and
// group screens. For MQRC_Q_FULL written by the consumer of its
// destination, the queue that was full is the consumer's BOQ, not the
// destination: it says whose queue it was and how full it is now.
func (q *QMgrState) DLHReasonText(rc int32, destQ, destQMgr, putAppl string) string {
	r := mqfmt.Reason(rc)
	if r != mqfmt.RCQFull || q.inv == nil || (destQMgr != "" && destQMgr != q.Name) || !actions.WrittenByConsumer(putAppl, nil) {
		return r.Describe()
	}
	in, err := q.inv.ResolveInput(destQ)
	boq := strings.TrimSpace(in.BackoutQName)
	if err != nil || boq == "" {
		return r.Describe()
	}
	f, dest := q.inv.Facts(boq), q.inv.Facts(in.Base)
	if dest.Full {
		return r.Describe() // the destination is full now too: it may have been the one
	}
	// The MQDLH says how it was when the message was dead-lettered; the
	// depth is now's, and may be anything since (the BOQ enlarged, drained).
	now := fmt.Sprintf("now %d/%d", f.Depth, f.MaxDepth)
	if f.Full {
		now += ", still full"
	}
	return fmt.Sprintf("%s (%d): backout queue %s was full when dead-lettered; %s: %s, the consumer of %s, dead-lettered it; %s had room",
		r, rc, boq, now, mqfmt.Sanitize(strings.TrimSpace(putAppl)), in.Base, in.Base)
}
