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
		return mqfbExplain()[n]
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
