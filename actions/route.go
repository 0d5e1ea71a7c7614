package actions

import (
	"fmt"
	"strings"

	"github.com/poisonwatch/poisonwatch/codec/mqfmt"
)

// Routing is the engine's prediction for one message at its current
// BackoutCount.
type Routing struct {
	Style Style
	Queue string // the queue whose attributes applied
	// Decision is what the consumer does the next time it gets the message,
	// with the fallback of every put it implies.
	Decision Decision
	// AfterRollback is the decision after the application rolls the message
	// back once more (BackoutCount + 1); nil unless Decision delivers.
	AfterRollback *Decision
	// Warnings are facts the operator must know that do not change the
	// decision (stale cached attributes, a threshold that never fires, a BOQ
	// that is not a local queue).
	Warnings []Line
}

// Route predicts what the consumer in.Consumer does with in.Message (R1–R9).
// It is a pure function of its input; the only error is an unknown style.
func Route(in *RouteInput) (Routing, error) {
	s := in.Consumer.Style
	if !s.jms() && s != MQI && s != DeliveryCount {
		return Routing{}, fmt.Errorf("route: unknown consumer style %d", int(s))
	}
	r := Routing{Style: s, Queue: in.Queue.Base}
	count := in.Message.MD.BackoutCount
	r.Decision = decide(in, count, &r.Warnings)
	if r.Decision.Fate == Deliver {
		after := *in
		if count > 0 && after.Consumer.Cached == nil && s.jms() {
			// Having seen BackoutCount > 0, the consumer has now cached the
			// current attributes (R1b).
			after.Consumer.Cached = &CachedAttrs{BackoutThresh: in.Queue.BackoutThresh, BackoutQName: in.Queue.BackoutQName}
		}
		if f := in.Consumer.Failures; f != nil {
			more := *f + 1 // the rollback is one more delivery failure (R9c)
			after.Consumer.Failures = &more
		}
		next := decide(&after, count+1, nil)
		r.AfterRollback = &next
	}
	return r, nil
}

// warn appends to a warning sink that may be nil (the AfterRollback pass
// must not repeat the warnings of the first).
func warn(w *[]Line, l Line) {
	if w != nil {
		*w = append(*w, l)
	}
}

func decide(in *RouteInput, count int32, w *[]Line) Decision {
	switch in.Consumer.Style {
	case MQI:
		return decideMQI(in, count)
	case DeliveryCount:
		return decideDeliveryCount(in, count, w)
	}
	return decideJMS(in, count, w)
}

// decideMQI applies R1f: the queue manager itself never acts on BOTHRESH or
// BOQNAME (IBM MQ documentation of BackoutRequeueQName), so an application
// that only rolls back meets the same message again, forever.
func decideMQI(in *RouteInput, count int32) Decision {
	q := in.Queue
	if count == 0 {
		return Decision{Fate: Deliver, Why: []Line{line("R1a", "BackoutCount 0: deliver")}}
	}
	why := []Line{line("R1f", "plain MQI consumer: the queue manager never acts on BOTHRESH or BOQNAME, so a message the application rolls back is redelivered forever")}
	switch {
	case q.BackoutThresh == 0:
		why = append(why, line("R1c", "BOTHRESH 0 on %s: poison handling disabled", q.Base))
	case count >= q.BackoutThresh:
		why = append(why, line("R8c", "BackoutCount %d >= BOTHRESH %d on %s: stuck poison, nothing moves it to %s", count, q.BackoutThresh, q.Base, orNone(q.BackoutQName)))
	default:
		why = append(why, line("R1f", "BOTHRESH %d and BOQNAME %s are set but this consumer does not read them", q.BackoutThresh, orNone(q.BackoutQName)))
	}
	return Decision{Fate: LoopForever, Queue: q.Base, Why: why}
}

// decideJMS applies R1 for the IBM MQ classes for JMS styles, then R2–R6.
func decideJMS(in *RouteInput, count int32, w *[]Line) Decision {
	m := &in.Message
	if in.Consumer.Style == ASF {
		if m.Unparseable {
			why := line("R6", "ConnectionConsumer cannot parse the message: it is removed from %s", in.Queue.Base)
			return asfRemoval(in, mqfmt.RCJMSFormatError, []Line{why})
		}
		if m.Unmatched {
			why := line("R6", "no ConnectionConsumer selector matches and the connection factory does not retain unwanted messages: it is removed from %s", in.Queue.Base)
			return asfRemoval(in, mqfmt.RCMsgNotMatched, []Line{why})
		}
	}
	if d, ok := mdbPause(in, count); ok {
		return d
	}
	if count == 0 {
		return Decision{Fate: Deliver, Why: []Line{line("R1a", "BackoutCount 0: deliver, no attribute query")}}
	}
	thresh, boq, why := attributes(in, w)
	switch {
	case thresh == 0:
		why = append(why, line("R1c", "BOTHRESH 0: poison handling disabled, the message is redelivered after every rollback (poison loop)"))
		return Decision{Fate: LoopForever, Queue: in.Queue.Base, Why: why}
	case count < thresh:
		why = append(why, line("R1d", "BackoutCount %d < BOTHRESH %d: deliver to the application", count, thresh))
		return Decision{Fate: Deliver, Why: why}
	}
	why = append(why, line("R1e", "BackoutCount %d >= BOTHRESH %d: poison", count, thresh))
	why = append(why, unitOfWork(in))
	if in.Consumer.Style == SyncTransacted && in.Consumer.Outcome == OutcomeRollback {
		why = append(why, line("R3a", "the application rolls back: whatever the move did is undone and the message returns to %s with BackoutCount %d", in.Queue.Base, count+1))
	}
	return poison(in, boq, why, w)
}

// attributes returns the BOTHRESH and BOQNAME the consumer acts on: the ones
// it cached when it first saw BackoutCount > 0 (R1b), else the current ones.
func attributes(in *RouteInput, w *[]Line) (int32, string, []Line) {
	q := in.Queue
	c := in.Consumer.Cached
	if c == nil {
		return q.BackoutThresh, q.BackoutQName, []Line{line("R1b",
			"first BackoutCount > 0 seen: the consumer inquires BOTHRESH %d and BOQNAME %s on %s%s and caches them for the life of its connection",
			q.BackoutThresh, orNone(q.BackoutQName), q.Base, pathNote(q))}
	}
	why := []Line{line("R1b", "the consumer uses the BOTHRESH %d and BOQNAME %s it cached from %s", c.BackoutThresh, orNone(c.BackoutQName), q.Base)}
	if c.BackoutThresh != q.BackoutThresh || c.BackoutQName != q.BackoutQName {
		warn(w, line("R1b", "%s now has BOTHRESH %d BOQNAME %s but the consumer cached BOTHRESH %d BOQNAME %s: the change is not seen until it reconnects",
			q.Base, q.BackoutThresh, orNone(q.BackoutQName), c.BackoutThresh, orNone(c.BackoutQName)))
	}
	return c.BackoutThresh, c.BackoutQName, why
}

// unitOfWork explains R3 for the style. For ConnectionConsumers IBM documents
// that "the requeue process takes place outside of any unit of work associated
// with actual message delivery to application code" (Handling poison messages
// in IBM WebSphere MQ classes for JMS, 7.5), as for a MessageListener.
func unitOfWork(in *RouteInput) Line {
	q := in.Queue.Base
	switch in.Consumer.Style {
	case SyncTransacted:
		return line("R3a", "the move runs inside the unit of work of the receive: it takes effect only when the application commits; a rollback returns the message to %s", q)
	case SyncNonTransacted:
		return line("R3a", "the move runs inside the unit of work that was active when the application called receive")
	}
	return line("R3b", "the move runs outside any unit of work tied to the delivered message and does not hold up other messages")
}

// poison applies R2: the BOQ first, then the report options.
func poison(in *RouteInput, boq string, why []Line, w *[]Line) Decision {
	if boq == "" {
		why = append(why, line("R2b", "BOQNAME is blank: the message's Report options decide"))
		return removal(in, mqfmt.RCBackoutThresholdReached, why)
	}
	m := &in.Message
	hdr := 0
	why = append(why, line("R2a", "BOQNAME %s → move there", boq))
	if m.HasRFH2 {
		why = append(why, line("R5a", "the message has an MQRFH2: BackoutCount reset to 0, Expiry set to what remained when it was received"))
	} else {
		hdr = rfh2FixedLen
		why = append(why, line("R5b", "no MQRFH2: one is added; MQMD Format MQHRF2, CCSID 1208, Encoding 273, BackoutCount 0; the original Format/CCSID/Encoding move into the RFH2"))
	}
	f := in.facts(boq)
	if l, ok := notLocalWarning("R8b", "BOQ", boq, f); ok {
		warn(w, l)
	}
	d := Decision{Fate: MoveToBOQ, Queue: boq, Why: why}
	d.Fails, d.FailsWhy = predictPut(boq, f, moveLen(m, hdr), in.QMgr.MaxMsgLen)
	var fall []Line
	if in.Consumer.Style == ASF {
		// A ConnectionConsumer that fails to requeue to the BOQ removes the
		// message with the failed put's reason code (IBM: Reason and feedback
		// codes in ASF).
		fall = []Line{line("R6", "the ConnectionConsumer could not requeue it to %s: it is removed from %s", boq, in.Queue.Base)}
		next := asfRemoval(in, d.Fails, fall)
		d.OnFailure = &next
		return d
	}
	// IBM: a MessageConsumer whose requeue to the BOQ fails removes the
	// message as ASF does ("see Removing messages from the queue in ASF"),
	// and the MQDLH Reason then describes why the requeue failed (Reason and
	// feedback codes in ASF).
	fall = []Line{line("R2b", "the put to %s failed: the message's Report options decide", boq)}
	next := removal(in, d.Fails, fall)
	d.OnFailure = &next
	return d
}

// removal applies R2b for the sync and async styles (ASF has its own, R6).
func removal(in *RouteInput, reason mqfmt.Reason, why []Line) Decision {
	if in.Consumer.Style == ASF {
		return asfRemoval(in, reason, why)
	}
	rep := in.Message.MD.Report
	if rep&mqfmt.RODiscardMsg != 0 {
		why = append(why, line("R2b", "Report has MQRO_DISCARD_MSG: discard"))
		return Decision{Fate: Discard, Why: why}
	}
	why = append(why, line("R2b", "Report has %s: move to the DEADQ %s with an MQDLH, Reason %s", dispositionName(rep), orNone(in.QMgr.DeadQ), reasonText(reason)))
	d := deadLetter(in, reason, why)
	next := deadQFailed(in)
	d.OnFailure = &next
	return d
}

// dispositionName names the disposition bits R2b reads. MQRO_DEAD_LETTER_Q is
// 0, so "set" and "neither set" are the same bits; the wording says which
// rule text applies.
func dispositionName(report int32) string {
	if report&mqfmt.RODiscardMsg != 0 {
		return "MQRO_DISCARD_MSG"
	}
	return "MQRO_DEAD_LETTER_Q (or neither option)"
}

// deadLetter builds the DEADQ move with its predicted failure. With no DEADQ
// defined the put cannot be made; MQRC_UNKNOWN_OBJECT_NAME is what opening a
// blank queue name returns.
func deadLetter(in *RouteInput, reason mqfmt.Reason, why []Line) Decision {
	name := in.QMgr.DeadQ
	d := Decision{Fate: MoveToDeadQ, Queue: name, Reason: reason, Why: why}
	if name == "" {
		d.Fails, d.FailsWhy = mqfmt.RCUnknownObjectName, "the queue manager has no DEADQ"
		return d
	}
	d.Fails, d.FailsWhy = predictPut(name, in.facts(name), moveLen(&in.Message, dlhLen), in.QMgr.MaxMsgLen)
	return d
}

// deadQFailed applies R4a–R4d: the DEADQ put failed too.
func deadQFailed(in *RouteInput) Decision {
	q := in.Queue.Base
	switch in.Consumer.Style {
	case SyncTransacted:
		commit := Decision{Fate: Discard, Why: []Line{line("R4a", "sync-transacted, transaction committed: the message is discarded")}}
		back := Decision{Fate: ReturnToInput, Queue: q, Why: []Line{line("R4b", "sync-transacted, transaction rolled back: the message goes back to %s (BackoutCount + 1) and is poison again on the next receive", q)}}
		switch in.Consumer.Outcome {
		case OutcomeCommit:
			return commit
		case OutcomeRollback:
			return back
		}
		return Decision{Fate: DependsOnOutcome, Queue: q,
			Why:   []Line{line("R4", "sync-transacted: the application's commit or rollback decides")},
			Cases: []Case{{OutcomeCommit, &commit}, {OutcomeRollback, &back}}}
	case SyncNonTransacted:
		return Decision{Fate: Discard, Why: []Line{line("R4c", "sync-nontransacted: the message is discarded")}}
	}
	return Decision{Fate: ReturnToInput, Queue: q, Why: []Line{line("R4d", "async: the message is returned to %s and is poison again on the next delivery", q)}}
}

func orNone(s string) string {
	if s == "" {
		return "(blank)"
	}
	return s
}

func pathNote(q InputQueue) string {
	if len(q.Path) == 0 {
		return ""
	}
	return " (" + strings.Join(q.Path, " → ") + ")"
}
