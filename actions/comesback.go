package actions

import (
	"fmt"
	"strings"

	"github.com/poisonwatch/poisonwatch/codec/mqfmt"
	"github.com/poisonwatch/poisonwatch/mqwatch"
)

// channelAppls are the putting application names of IBM MQ's channel
// agents: a dead letter they wrote was refused on arrival, not by a consumer.
var channelAppls = []string{"amqrmppa", "runmqchl", "amqcrsta", "runmqlsr"}

// ComesBack says why a dead letter its consumer wrote (or refused: 2362,
// 2363, 2364), put back unchanged on the input queue in whose consumer has
// style st, would come back to the DEADQ (R10f), or "" when its refusal
// would end elsewhere (its BOQ has room) or nothing says it would be
// refused. The route tab and the plan both ask it.
func ComesBack(s *mqwatch.Summary, in InputQueue, inv *QueueIndex, st Style) string {
	switch rc := mqfmt.Reason(s.DLHReason); rc {
	case mqfmt.RCJMSFormatError, mqfmt.RCMsgNotMatched:
		return fmt.Sprintf("consumer of %s refused them for their content (%s %d); put back unchanged they are refused again", in.Base, rc, int32(rc))
	case mqfmt.RCBackoutThresholdReached, mqfmt.RCQFull:
	default:
		return ""
	}
	first, d := refusal(s, in, inv, st)
	if d == nil || d.Fate != MoveToDeadQ {
		return ""
	}
	return fmt.Sprintf("consumer of %s (%s) dead-letters them %s", in.Base, st, whyDeadQ(first, in, inv))
}

// whyDeadQ says why the consumer's refusal ends on the DEADQ: its BOQ
// cannot take the message, or it has none.
func whyDeadQ(first *Decision, in InputQueue, inv *QueueIndex) string {
	boq := strings.TrimSpace(in.BackoutQName)
	if first.Fate == MoveToBOQ && first.Fails != 0 {
		f := inv.Facts(boq)
		switch mqfmt.Reason(first.Fails) {
		case mqfmt.RCQFull:
			return fmt.Sprintf("while %s is full (%d/%d)", boq, f.Depth, f.MaxDepth)
		case mqfmt.RCPutInhibited:
			return "while " + boq + " is put-inhibited"
		}
		return fmt.Sprintf("while a put to %s fails with %s", boq, first.Fails.Describe())
	}
	if boq == "" {
		return fmt.Sprintf("again: %s has no BOQNAME, so at BOTHRESH %d they go to the DEADQ", in.Base, in.BackoutThresh)
	}
	return "again: " + first.lastWhy()
}

// DefaultConsumerStyle is the style assumed for a queue whose consumer is
// not known: IBM MQ classes for JMS, the most common consumer of queues with
// BOTHRESH (the dashboard's model assumes the same).
var DefaultConsumerStyle = SyncTransacted

// WrittenByConsumer reports whether the application that dead-lettered a
// message (the MQDLH's PutApplName) is a consumer of its destination: one of
// appls, the application tags with the queue open for input, or, when none
// is known, any application that is not one of IBM MQ's channel agents.
func WrittenByConsumer(putAppl string, appls []string) bool { return byConsumer(putAppl, appls) }

// byConsumer reports whether the application that dead-lettered a message is
// one of the queue's consumers: named among its input handles or, when
// none is known, any application that is not a channel agent.
func byConsumer(putAppl string, appls []string) bool {
	a := strings.TrimSpace(putAppl)
	if a == "" {
		return false
	}
	for _, c := range appls {
		if c != "" && (strings.EqualFold(c, a) || strings.HasSuffix(strings.ToLower(c), strings.ToLower(a))) {
			return true
		}
	}
	if len(appls) > 0 {
		return false
	}
	for _, ch := range channelAppls {
		if strings.Contains(strings.ToLower(a), ch) {
			return false
		}
	}
	return true
}

// refusal routes s through its consumer once it is refused again: at the
// BackoutCount where the consumer gives up on it (its BOTHRESH, at least
// 1). It returns the consumer's decision and the one that applies once
// the puts the facts say fail have failed.
func refusal(s *mqwatch.Summary, in InputQueue, facts FactSource, st Style) (*Decision, *Decision) {
	md := mqfmt.NewMQMD()
	md.BackoutCount = max(in.BackoutThresh, 1)
	md.Report, md.Expiry = s.Report, s.Expiry
	if s.Persistent {
		md.Persistence = mqfmt.PerPersistent
	}
	r, err := Route(&RouteInput{
		Message: RouteMessage{MD: md, HasRFH2: s.HasRFH2, JMSDestination: s.JMSDst, Length: max(s.Length-mqfmt.DLHLen, 0)},
		Queue:   in, QMgr: qmgrOf(facts), Consumer: ConsumerSpec{Style: st}, Facts: facts,
	})
	if err != nil {
		return nil, nil
	}
	d := &r.Decision
	for _, c := range d.Cases {
		if c.Outcome == OutcomeCommit {
			d = c.Decision
		}
	}
	return d, d.Effective()
}

func qmgrOf(f FactSource) mqwatch.QMgrInfo {
	if inv, ok := f.(*QueueIndex); ok {
		return inv.QMgr
	}
	return mqwatch.QMgrInfo{}
}

// lastWhy is the decision's last explanation, the one that says where the
// message ends.
func (d *Decision) lastWhy() string {
	if len(d.Why) == 0 {
		return d.Fate.String()
	}
	return d.Why[len(d.Why)-1].Text
}
