package mqfmt

import "fmt"

// Reason is an MQRC reason code. The Reason field of a dead-letter header
// (MQDLH) holds either an MQRC_* or an MQFB_* code (a trigger monitor that
// cannot start an application dead-letters the trigger message with
// MQFB_APPL_CANNOT_BE_STARTED, for instance), and the two ranges do not
// overlap, so Reason's lookups fall back to the feedback names: a DLH Reason
// can be shown with Reason(dlh.Reason).Describe() whichever kind it holds.
type Reason int32

// Reason codes the tool produces or meets most. Values are IBM's.
const (
	RCNone                    Reason = 0
	RCConnectionBroken        Reason = 2009
	RCTruncatedMsgFailed      Reason = 2080
	RCTruncatedMsgAccepted    Reason = 2079
	RCGetInhibited            Reason = 2016
	RCHconnError              Reason = 2018
	RCHobjError               Reason = 2019
	RCMsgTooBigForQ           Reason = 2030
	RCMsgTooBigForQMgr        Reason = 2031
	RCNoMsgUnderCursor        Reason = 2034
	RCNoMsgAvailable          Reason = 2033
	RCNotAuthorized           Reason = 2035
	RCNotOpenForBrowse        Reason = 2036
	RCNotOpenForInput         Reason = 2037
	RCNotOpenForInquire       Reason = 2038
	RCNotOpenForOutput        Reason = 2039
	RCObjectInUse             Reason = 2042
	RCOptionsError            Reason = 2046
	RCPutInhibited            Reason = 2051
	RCQFull                   Reason = 2053
	RCQTypeError              Reason = 2057
	RCQMgrNameError           Reason = 2058
	RCQMgrNotAvailable        Reason = 2059
	RCSyncpointNotAvailable   Reason = 2072
	RCUnknownObjectName       Reason = 2085
	RCUnknownObjectQMgr       Reason = 2086
	RCUnknownRemoteQMgr       Reason = 2087
	RCContextHandleError      Reason = 2097
	RCNoContextAvailable      Reason = 2098
	RCObjectDamaged           Reason = 2101
	RCUnknownAliasBaseQ       Reason = 2082
	RCAliasBaseQTypeError     Reason = 2001
	RCBackedOut               Reason = 2003
	RCCallInProgress          Reason = 2219
	RCClusterResolutionError  Reason = 2189
	RCBackoutThresholdReached Reason = 2362
	RCMsgNotMatched           Reason = 2363
	RCJMSFormatError          Reason = 2364
	RCCallInterrupted         Reason = 2549
	RCPersistentNotAllowed    Reason = 2048
	RCExpiryError             Reason = 2013
	RCObjectChanged           Reason = 2041
	RCQDeleted                Reason = 2052
	RCQSpaceNotAvailable      Reason = 2056
	RCQMgrQuiescing           Reason = 2161
	RCQMgrStopping            Reason = 2162
	RCConnectionQuiescing     Reason = 2202
	RCConnectionStopping      Reason = 2203
	RCMsgTooBigForChannel     Reason = 2218
	RCChannelNotAvailable     Reason = 2537
	RCHostNotAvailable        Reason = 2538
	RCReconnectFailed         Reason = 2548
)

// String returns IBM's name, e.g. "MQRC_Q_FULL". A value that is not an MQRC
// code but is a feedback code is named as one ("MQFB_APPL_CANNOT_BE_STARTED");
// any other value prints as "MQRC_<n>".
func (r Reason) String() string {
	if n, ok := mqrcName(int32(r)); ok {
		return n
	}
	if n, ok := feedbackName(int32(r)); ok {
		return n
	}
	return numberedName("MQRC_", int32(r))
}

// Explain returns one line an operator understands: what happened and, where
// short, what to check. It is never empty: codes without a written summary,
// application-defined codes and unknown values get a line saying which of
// those they are, so a screen never shows a bare number.
func (r Reason) Explain() string {
	v := int32(r)
	if n, ok := mqrcName(v); ok {
		if e := mqrcExplanation(n); e != "" {
			return e
		}
		return noSummary(n)
	}
	if _, ok := feedbackName(v); ok {
		return Feedback(v).Explain()
	}
	return reasonRangeExplain(v)
}

// Describe returns "MQRC_Q_FULL (2053): the target queue is at MAXDEPTH".
func (r Reason) Describe() string {
	return fmt.Sprintf("%s (%d): %s", r, int32(r), r.Explain())
}

// Known reports whether r is a code IBM names (MQRC_* or, as in a DLH,
// MQFB_*), as opposed to an application-defined or unknown value.
func (r Reason) Known() bool {
	if _, ok := mqrcName(int32(r)); ok {
		return true
	}
	_, ok := mqfbName(int32(r))
	return ok
}

// reasonRangeExplain explains a value that has no IBM name by the range it
// falls in, as IBM's reason-code reference does.
func reasonRangeExplain(v int32) string {
	switch {
	case v < 0:
		return "a negative reason code, which IBM reserves for user exits: see the exit's documentation"
	case v >= mqrcApplFirst && v <= mqrcApplLast:
		return "an application-defined reason code from a data-conversion exit (MQRC_APPL_FIRST..MQRC_APPL_LAST): see the exit's documentation"
	}
	return "not a reason code this tool knows (it has IBM MQ 9.4's codes): check the documentation of the queue manager's level or of the application that set it"
}

// noSummary is the explanation of a named code without a written summary.
func noSummary(name string) string {
	return "no summary here: look up " + name + " in IBM MQ's reason code reference"
}

// Bounds of the application-defined reason codes a data-conversion exit may
// return (MQRC_APPL_FIRST, MQRC_APPL_LAST). They are range markers, not codes,
// so the generated table leaves them out.
const (
	mqrcApplFirst = 900
	mqrcApplLast  = 999
)
