package mqfmt

import "fmt"

// Reason is an MQRC reason code (or, in a dead-letter header, possibly an MQFB
// feedback code: both share the Reason field).
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
)

// reasonInfo is a code's IBM name and a one-line operator explanation.
type reasonInfo struct{ name, explain string }

// String returns the IBM name, e.g. "MQRC_Q_FULL", or "MQRC_2999" when unknown.
// Reasons in the feedback range (MQFB_*) are named as feedback codes.
func (r Reason) String() string {
	if i, ok := lookupReason(r); ok {
		return i.name
	}
	return fmt.Sprintf("MQRC_%d", int32(r))
}

// Explain returns one line an operator understands, or "" when unknown.
func (r Reason) Explain() string {
	i, _ := lookupReason(r)
	return i.explain
}

// Describe returns "MQRC_Q_FULL (2053): the target queue is at MAXDEPTH".
func (r Reason) Describe() string {
	if e := r.Explain(); e != "" {
		return fmt.Sprintf("%s (%d): %s", r, int32(r), e)
	}
	return fmt.Sprintf("%s (%d)", r, int32(r))
}

func lookupReason(r Reason) (reasonInfo, bool) {
	if i, ok := reasonTable[r]; ok {
		return i, true
	}
	return reasonInfo{}, false
}

// reasonTable is the minimal set; the full table lives in names_mqrc.go.
var reasonTable = map[Reason]reasonInfo{
	RCQFull:             {"MQRC_Q_FULL", "the target queue is at MAXDEPTH"},
	RCNotAuthorized:     {"MQRC_NOT_AUTHORIZED", "the user lacks the authority this call needs"},
	RCConnectionBroken:  {"MQRC_CONNECTION_BROKEN", "the connection to the queue manager was lost"},
	RCNoMsgAvailable:    {"MQRC_NO_MSG_AVAILABLE", "no message matched the get (the queue is empty or the message was taken)"},
	RCUnknownObjectName: {"MQRC_UNKNOWN_OBJECT_NAME", "no queue or object of that name exists"},
	RCPutInhibited:      {"MQRC_PUT_INHIBITED", "puts are disabled on the queue (PUT(DISABLED))"},
}
