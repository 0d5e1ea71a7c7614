package actions

import (
	"github.com/poisonwatch/poisonwatch/codec/mqfmt"
)

// ASF puts these in the MQDLH of messages it dead-letters and in the MQMD of
// its report messages (Removing messages from the queue in ASF).
const (
	ASFPutApplType = mqfmt.ATJava // MQAT_JAVA, 0x1C
	ASFPutApplName = "MQ JMS ConnectionConsumer"
)

// roExceptionMask covers the three MQRO_EXCEPTION* values, which nest:
// WITH_FULL_DATA includes WITH_DATA's bits, which include EXCEPTION's.
const roExceptionMask = mqfmt.ROExceptionWithFullData

// asfRemoval applies R6: a ConnectionConsumer removes the message, its Report
// options deciding between the DEADQ (the default) and discarding, and
// whether a report message goes to the ReplyToQ as well. IBM documents that
// the reason code goes to the report's Feedback when an MQRO_EXCEPTION*
// option is set and to the MQDLH's Reason when the message is dead-lettered
// (2362 MQRC_BACKOUT_THRESHOLD_REACHED): both can happen to one message.
// reason 0 means the reason code of a put failure not known in advance.
func asfRemoval(in *RouteInput, reason mqfmt.Reason, why []Line) Decision {
	rep := in.Message.MD.Report
	plan := reportPlan(in, reason)
	if plan == nil {
		why = append(why, line("R6f", "no MQRO_EXCEPTION* option: no report message"))
	}
	if rep&mqfmt.RODiscardMsg != 0 {
		why = append(why, line("R6b", "Report has MQRO_DISCARD_MSG: discard"))
		return Decision{Fate: Discard, Reason: reason, Report: plan, Why: why}
	}
	why = append(why, line("R6a", "Report has MQRO_DEAD_LETTER_Q (the default): move to the DEADQ %s with an MQDLH: Reason %s, PutApplType MQAT_JAVA (28), PutApplName %q",
		orNone(in.QMgr.DeadQ), reasonText(reason), ASFPutApplName))
	d := deadLetter(in, reason, why)
	d.Report = plan
	next := asfDeadQFailed(in)
	d.OnFailure = &next
	return d
}

// asfDeadQFailed applies R6h with R4e/R4f: the DEADQ put failed too.
func asfDeadQFailed(in *RouteInput) Decision {
	if persistent(in) {
		return Decision{Fate: StopConsumers, Queue: in.Queue.Base, Why: []Line{line("R4f",
			"the DEADQ put failed too, and the message is persistent: delivery to every ConnectionConsumer (ASF) on %s stops; close them, fix the problem, re-create them", in.Queue.Base)}}
	}
	return Decision{Fate: Discard, Why: []Line{line("R4e", "the DEADQ put failed too, and the message is non-persistent: ASF discards it, no report message generated")}}
}

// persistent resolves MQPER_PERSISTENCE_AS_Q_DEF with the queue's DEFPSIST; a
// got message normally carries the resolved value already.
func persistent(in *RouteInput) bool {
	switch in.Message.MD.Persistence {
	case mqfmt.PerPersistent:
		return true
	case mqfmt.PerPersistenceAsDef:
		return in.Queue.DefPersistent
	}
	return false
}

// reportPlan applies R6c–R6g: which report message, if any, accompanies the
// removal, and how its identifiers are set.
func reportPlan(in *RouteInput, reason mqfmt.Reason) *ReportPlan {
	md := &in.Message.MD
	var why []Line
	data := md.Report & roExceptionMask
	switch data {
	case mqfmt.ROExceptionWithFullData:
		why = append(why, line("R6e", "MQRO_EXCEPTION_WITH_FULL_DATA: a report message with all the original data"))
	case mqfmt.ROExceptionWithData:
		why = append(why, line("R6d", "MQRO_EXCEPTION_WITH_DATA: a report message with the MQMD, the MQ headers and the first 100 bytes of the body"))
	case mqfmt.ROException:
		why = append(why, line("R6c", "MQRO_EXCEPTION: a report message with the original MQMD, no body"))
	default:
		return nil
	}
	msgID, correlID := "a new MsgId (MQRO_NEW_MSG_ID)", "the original's MsgId (MQRO_COPY_MSG_ID_TO_CORREL_ID)"
	if md.Report&mqfmt.ROPassMsgId != 0 {
		msgID = "the original's MsgId (MQRO_PASS_MSG_ID)"
	}
	if md.Report&mqfmt.ROPassCorrelId != 0 {
		correlID = "the original's CorrelId (MQRO_PASS_CORREL_ID)"
	}
	why = append(why, line("R6g", "the report has %s, CorrelId %s, Feedback %s, PutApplType MQAT_JAVA, PutApplName %q",
		msgID, correlID, reasonText(reason), ASFPutApplName))
	toQ, toQM := mqfmt.Trim(md.ReplyToQ), mqfmt.Trim(md.ReplyToQMgr)
	if toQ == "" {
		why = append(why, line("R6g", "ReplyToQ is blank: the report cannot reach the sender; IBM puts a report it cannot deliver to the ReplyToQ on the DEADQ"))
	} else {
		why = append(why, line("R6g", "the report goes to %s%s; if that put fails it goes to the DEADQ", toQ, atQMgr(toQM)))
	}
	return &ReportPlan{Data: data, ToQ: toQ, ToQMgr: toQM, Feedback: reason, Why: why}
}

func atQMgr(qm string) string {
	if qm == "" {
		return ""
	}
	return " on " + qm
}

// reasonText names a reason, or says it is the failed put's when unknown.
func reasonText(r mqfmt.Reason) string {
	if r == 0 {
		return "= the reason code of the failed BOQ put"
	}
	return r.Describe()
}
