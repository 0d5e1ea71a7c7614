package mqfmt

import "fmt"

// Feedback is the MQMD Feedback field of a report message (MQFB_*). IBM lets
// it carry MQRC_* reason codes too (an exception report says why a message
// could not be put, e.g. MQRC_Q_FULL), so its names fall back to reason codes.
type Feedback int32

// Feedback codes the poison engine and the views meet most. Values are IBM's.
const (
	FBNone                Feedback = 0
	FBQuit                Feedback = 256
	FBExpiration          Feedback = 258
	FBCOA                 Feedback = 259
	FBCOD                 Feedback = 260
	FBChannelCompleted    Feedback = 262
	FBChannelFailRetry    Feedback = 263
	FBChannelFail         Feedback = 264
	FBApplCannotBeStarted Feedback = 265
	FBTMError             Feedback = 266
	FBApplTypeError       Feedback = 267
	FBStoppedByMsgExit    Feedback = 268
	FBActivity            Feedback = 269
	FBXmitQMsgError       Feedback = 271
	FBPAN                 Feedback = 275
	FBNAN                 Feedback = 276
)

// Feedback ranges IBM defines by bounds rather than names (MQFB_IMS_FIRST..
// MQFB_IMS_LAST, MQFB_IMS_NACK_1A_REASON_FIRST..LAST, MQFB_SYSTEM_LAST,
// MQFB_APPL_FIRST..MQFB_APPL_LAST).
const (
	mqfbIMSFirst       = 301
	mqfbIMSLast        = 399
	mqfbIMSNack1AFirst = 600
	mqfbIMSNack1ALast  = 855
	mqfbSystemLast     = 65535
	mqfbApplFirst      = 65536
	mqfbApplLast       = 999999999
)

// String returns IBM's name: an MQFB_* name, else the MQRC_* name the field
// may carry, else "MQFB_<n>".
func (f Feedback) String() string {
	if n, ok := feedbackName(int32(f)); ok {
		return n
	}
	if n, ok := mqrcName(int32(f)); ok {
		return n
	}
	return numberedName("MQFB_", int32(f))
}

// Explain returns one line an operator understands; never empty.
func (f Feedback) Explain() string {
	v := int32(f)
	if n, ok := mqfbName(v); ok {
		return mqfbExplain[n]
	}
	if _, ok := mqrcName(v); ok {
		return Reason(v).Explain()
	}
	switch {
	case v >= mqfbIMSFirst && v <= mqfbIMSLast:
		return fmt.Sprintf("IMS bridge: IMS-OTMA returned sense code X'%04X' (Feedback - 300): see the OTMA sense codes for NAK messages", v-300)
	case v >= mqfbIMSNack1AFirst && v <= mqfbIMSNack1ALast:
		return fmt.Sprintf("IMS bridge: IMS-OTMA NAK sense code X'001A' with reason code %d (Feedback - 600): see the OTMA sense codes for NAK messages", v-mqfbIMSNack1AFirst)
	case v >= mqfbApplFirst && v <= mqfbApplLast:
		return "an application-defined feedback code (MQFB_APPL_FIRST..MQFB_APPL_LAST): ask the owners of the application that made the report"
	case v > 0 && v <= mqfbSystemLast:
		return "a system feedback code this tool does not know (it has IBM MQ 9.4's codes)"
	}
	return "not a valid feedback value (IBM allows MQFB_NONE, 1..65535 and 65536..999999999)"
}

// Describe returns e.g. "MQFB_EXPIRATION (258): the message expired ...".
func (f Feedback) Describe() string {
	return fmt.Sprintf("%s (%d): %s", f, int32(f), f.Explain())
}

// feedbackName names v as a feedback code: IBM's name when it has one, and
// "MQFB_<n>" for values in the IMS-bridge and application ranges, which IBM
// defines only by their bounds. ok is false for anything else.
func feedbackName(v int32) (string, bool) {
	if n, ok := mqfbName(v); ok {
		return n, true
	}
	if (v >= mqfbIMSFirst && v <= mqfbIMSLast) || (v >= mqfbIMSNack1AFirst && v <= mqfbIMSNack1ALast) ||
		(v >= mqfbApplFirst && v <= mqfbApplLast) {
		return numberedName("MQFB_", v), true
	}
	return "", false
}

// mqfbExplain holds the meaning of every named feedback code, keyed by IBM
// name. Report messages carry these in MQMD Feedback; a dead-letter header
// carries them in Reason.
var mqfbExplain = map[string]string{
	"MQFB_NONE":                    "no feedback: not a report, or a report without a feedback code",
	"MQFB_QUIT":                    "the application is asked to end (a workload-manager convention; the queue manager does not enforce it)",
	"MQFB_EXPIRATION":              "the message expired before anyone got it; this report replaces it (MQRO_EXPIRATION)",
	"MQFB_COA":                     "confirmation that the message arrived on its destination queue (MQRO_COA)",
	"MQFB_COD":                     "confirmation that an application got the message (MQRO_COD)",
	"MQFB_CHANNEL_COMPLETED":       "a channel ended normally",
	"MQFB_CHANNEL_FAIL_RETRY":      "a channel ended abnormally and is retrying",
	"MQFB_CHANNEL_FAIL":            "a channel ended abnormally and is STOPPED",
	"MQFB_APPL_CANNOT_BE_STARTED":  "the trigger monitor could not start the application named in the trigger message (check the PROCESS definition's APPLICID)",
	"MQFB_TM_ERROR":                "the trigger message (MQTM) is not valid, so the trigger monitor could not act on it",
	"MQFB_APPL_TYPE_ERROR":         "the trigger monitor cannot start applications of the type (APPLTYPE) named in the trigger message",
	"MQFB_STOPPED_BY_MSG_EXIT":     "a channel message exit stopped the message",
	"MQFB_ACTIVITY":                "an activity report (MQRO_ACTIVITY): the message passed through an application that records activities",
	"MQFB_XMIT_Q_MSG_ERROR":        "a channel found a message on its transmission queue that is not in the right format (no valid MQXQH)",
	"MQFB_PAN":                     "positive action notification (MQRO_PAN): the requested action succeeded",
	"MQFB_NAN":                     "negative action notification (MQRO_NAN): the requested action failed",
	"MQFB_STOPPED_BY_CHAD_EXIT":    "the channel auto-definition exit stopped the message",
	"MQFB_STOPPED_BY_PUBSUB_EXIT":  "a publish/subscribe exit stopped the message",
	"MQFB_NOT_A_REPOSITORY_MSG":    "a message on the cluster command queue is not a repository message",
	"MQFB_BIND_OPEN_CLUSRCVR_DEL":  "the message was bound on open to a cluster queue manager whose cluster-receiver channel has been deleted",
	"MQFB_MAX_ACTIVITIES":          "a trace-route message passed more activities than its MaxActivities allows",
	"MQFB_NOT_FORWARDED":           "a trace-route message was not forwarded to the next queue manager (its forwarding options forbid it)",
	"MQFB_NOT_DELIVERED":           "a trace-route message was not delivered to its local destination queue (its delivery option forbids it)",
	"MQFB_UNSUPPORTED_FORWARDING":  "a trace-route message asked for a forwarding option this queue manager does not support",
	"MQFB_UNSUPPORTED_DELIVERY":    "a trace-route message asked for a delivery option this queue manager does not support",
	"MQFB_DATA_LENGTH_ZERO":        "IMS bridge: a segment length in the message data is zero",
	"MQFB_DATA_LENGTH_NEGATIVE":    "IMS bridge: a segment length in the message data is negative",
	"MQFB_DATA_LENGTH_TOO_BIG":     "IMS bridge: a segment length in the message data is too big",
	"MQFB_BUFFER_OVERFLOW":         "IMS bridge: a length field would make the data overflow the message buffer",
	"MQFB_LENGTH_OFF_BY_ONE":       "IMS bridge: a length field is one byte too short or too long",
	"MQFB_IIH_ERROR":               "IMS bridge: the MQIIH header is not valid (Format MQIMS)",
	"MQFB_NOT_AUTHORIZED_FOR_IMS":  "IMS bridge: the user ID is not authorized to use IMS",
	"MQFB_DATA_LENGTH_TOO_SHORT":   "IMS bridge: a segment length in the message data is too short",
	"MQFB_IMS_ERROR":               "IMS bridge: IMS returned an unexpected error: see the CSQ2... console messages",
	"MQFB_CICS_INTERNAL_ERROR":     "CICS bridge: unexpected internal error in the bridge",
	"MQFB_CICS_NOT_AUTHORIZED":     "CICS bridge: the user ID is not authorized, or its password or passticket is not valid",
	"MQFB_CICS_BRIDGE_FAILURE":     "CICS bridge: the bridge task ended abnormally",
	"MQFB_CICS_CORREL_ID_ERROR":    "CICS bridge: the CorrelId is neither MQCI_NEW_SESSION nor that of the unit of work in progress",
	"MQFB_CICS_CCSID_ERROR":        "CICS bridge: the message's CCSID is not valid",
	"MQFB_CICS_ENCODING_ERROR":     "CICS bridge: the message's encoding is not valid",
	"MQFB_CICS_CIH_ERROR":          "CICS bridge: the MQCIH header is missing or not valid",
	"MQFB_CICS_UOW_ERROR":          "CICS bridge: the unit-of-work control (UOWControl) in the MQCIH is not valid",
	"MQFB_CICS_COMMAREA_ERROR":     "CICS bridge: the COMMAREA length is not valid",
	"MQFB_CICS_APPL_NOT_STARTED":   "CICS bridge: the CICS program could not be started",
	"MQFB_CICS_APPL_ABENDED":       "CICS bridge: the CICS program abended",
	"MQFB_CICS_DLQ_ERROR":          "CICS bridge: the bridge could not put a message to the dead-letter queue",
	"MQFB_CICS_UOW_BACKED_OUT":     "CICS bridge: the unit of work was backed out",
	"MQFB_PUBLICATIONS_ON_REQUEST": "publish/subscribe: not delivered because the subscription takes publications only on request",
	"MQFB_SUBSCRIBER_IS_PUBLISHER": "publish/subscribe: not delivered because the subscriber published it and asked not to get its own publications",
	"MQFB_MSG_SCOPE_MISMATCH":      "publish/subscribe: not delivered because the publication's scope excludes the subscriber",
	"MQFB_SELECTOR_MISMATCH":       "publish/subscribe: not delivered because the subscription's selector did not match",
	"MQFB_NOT_A_GROUPUR_MSG":       "z/OS: a message for group unit-of-recovery resolution is not a GROUPUR message",
}
