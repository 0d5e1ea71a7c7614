package embedded

import "github.com/poisonwatch/poisonwatch/codec/mqfmt"

// Reason codes the embedded queue manager returns that mqfmt does not name yet.
// Values are IBM's (cmqc.h).
const (
	rcSyncpointLimitReached mqfmt.Reason = 2024 // MQRC_SYNCPOINT_LIMIT_REACHED: MAXUMSGS
	rcQDeleted              mqfmt.Reason = 2052 // MQRC_Q_DELETED: a dynamic queue was deleted under the handle
	rcObjectAlreadyExists   mqfmt.Reason = 2100 // MQRC_OBJECT_ALREADY_EXISTS: dynamic queue name taken
	rcNotOpenForPassAll     mqfmt.Reason = 2093 // MQRC_NOT_OPEN_FOR_PASS_ALL
	rcNotOpenForSetAll      mqfmt.Reason = 2095 // MQRC_NOT_OPEN_FOR_SET_ALL
	rcPriorityError         mqfmt.Reason = 2050 // MQRC_PRIORITY_ERROR
	rcXmitQTypeError        mqfmt.Reason = 2091 // MQRC_XMIT_Q_TYPE_ERROR: the transmission queue is not a local queue
	rcXmitQUsageError       mqfmt.Reason = 2092 // MQRC_XMIT_Q_USAGE_ERROR: the transmission queue lacks USAGE(XMITQ)
	rcObjectTypeError       mqfmt.Reason = 2043 // MQRC_OBJECT_TYPE_ERROR: e.g. getting from a remote queue
	rcSubInhibited          mqfmt.Reason = 2503 // MQRC_SUB_INHIBITED: SUB(DISABLED)
	rcNoSubscription        mqfmt.Reason = 2428 // MQRC_NO_SUBSCRIPTION: resume of an unknown subscription
	rcSubAlreadyExists      mqfmt.Reason = 2432 // MQRC_SUB_ALREADY_EXISTS
	rcSubNameError          mqfmt.Reason = 2440 // MQRC_SUB_NAME_ERROR: durable subscription without a name
	rcTopicStringError      mqfmt.Reason = 2425 // MQRC_TOPIC_STRING_ERROR
)

// More reason codes used by MQOPEN resolution.
const (
	rcOptionNotValidForType mqfmt.Reason = 2045 // MQRC_OPTION_NOT_VALID_FOR_TYPE
	rcUnknownXmitQ          mqfmt.Reason = 2196 // MQRC_UNKNOWN_XMIT_Q
	rcUnknownDefXmitQ       mqfmt.Reason = 2197 // MQRC_UNKNOWN_DEF_XMIT_Q
	rcDefXmitQTypeError     mqfmt.Reason = 2198 // MQRC_DEF_XMIT_Q_TYPE_ERROR
	rcDefXmitQUsageError    mqfmt.Reason = 2199 // MQRC_DEF_XMIT_Q_USAGE_ERROR
	rcRemoteQNameError      mqfmt.Reason = 2184 // MQRC_REMOTE_Q_NAME_ERROR: a queue manager alias opened as a queue
)

// rcPriorityExceedsMaximum is MQRC_PRIORITY_EXCEEDS_MAXIMUM (2049), a warning:
// the message was put, queued at MAXPRTY.
const rcPriorityExceedsMaximum mqfmt.Reason = 2049

// Reason codes for descriptor and header errors.
const (
	rcPersistenceError mqfmt.Reason = 2047 // MQRC_PERSISTENCE_ERROR
	rcHeaderError      mqfmt.Reason = 2142 // MQRC_HEADER_ERROR: a transmission message without a valid MQXQH
)
