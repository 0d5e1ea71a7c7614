package mqfmt

// mqrcExplanation returns the written summary of the MQRC code named name, or
// "" when there is none.
func mqrcExplanation(name string) string {
	for _, m := range mqrcExplainTables {
		if e, ok := m[name]; ok {
			return e
		}
	}
	return ""
}

// mqrcExplainTables lists the summaries by range, one map per file so each
// file stays readable.
var mqrcExplainTables = [...]map[string]string{mqrcExplain2000, mqrcExplain2100, mqrcExplain2300, mqrcExplain2500}

// mqrcExplain2000 summarises MQRC_NONE and 2001..2099: the everyday MQI codes.
// Each line says what happened and, where it fits, what to check. The six
// summaries the tool had before the full table are kept word for word, since
// error strings built from them are already in use.
var mqrcExplain2000 = map[string]string{
	"MQRC_NONE":                      "no reason: the call completed (in a dead-letter header, none was recorded)",
	"MQRC_ALIAS_BASE_Q_TYPE_ERROR":   "the alias queue's TARGET is not a local, remote or cluster queue: fix the alias definition",
	"MQRC_ALREADY_CONNECTED":         "the application is already connected to this queue manager (the existing handle is returned)",
	"MQRC_BACKED_OUT":                "the unit of work was backed out: its gets went back to their queues (BackoutCount + 1) and its puts were discarded",
	"MQRC_BUFFER_ERROR":              "the Buffer parameter is not valid (bad pointer or storage that cannot be accessed)",
	"MQRC_BUFFER_LENGTH_ERROR":       "the BufferLength parameter is not valid (negative, or a bad pointer)",
	"MQRC_CHAR_ATTR_LENGTH_ERROR":    "MQINQ/MQSET: CharAttrLength is negative or does not fit the selected attributes",
	"MQRC_CHAR_ATTRS_ERROR":          "MQINQ/MQSET: the CharAttrs parameter is not valid",
	"MQRC_CHAR_ATTRS_TOO_SHORT":      "MQINQ: CharAttrs is too short for all the selected attributes (the values were truncated)",
	"MQRC_CONNECTION_BROKEN":         "the connection to the queue manager was lost",
	"MQRC_DATA_LENGTH_ERROR":         "the DataLength parameter is not valid; on a client, the buffer is bigger than the channel's negotiated MAXMSGL",
	"MQRC_DYNAMIC_Q_NAME_ERROR":      "opening a model queue: the DynamicQName in the MQOD is not valid",
	"MQRC_ENVIRONMENT_ERROR":         "the call is not valid in this environment (e.g. wrong MQ library, or a call the transaction manager forbids)",
	"MQRC_EXPIRY_ERROR":              "the Expiry in the MQMD is not valid (it must be positive or MQEI_UNLIMITED)",
	"MQRC_FEEDBACK_ERROR":            "the Feedback in the MQMD is not valid (not MQFB_NONE and outside the system and application ranges)",
	"MQRC_GET_INHIBITED":             "gets are disabled on the queue (GET(DISABLED)): enable them with ALTER QLOCAL ... GET(ENABLED) when safe",
	"MQRC_HANDLE_NOT_AVAILABLE":      "the connection holds its maximum number of open handles (MAXHANDS): close handles or raise MAXHANDS",
	"MQRC_HCONN_ERROR":               "the connection handle is not valid (not connected, already disconnected, or used from the wrong thread)",
	"MQRC_HOBJ_ERROR":                "the object handle is not valid (not opened, already closed, or its connection was lost)",
	"MQRC_INHIBIT_VALUE_ERROR":       "MQSET: the value for InhibitGet or InhibitPut is not valid",
	"MQRC_INT_ATTR_COUNT_ERROR":      "MQINQ/MQSET: IntAttrCount is negative or not valid",
	"MQRC_INT_ATTR_COUNT_TOO_SMALL":  "MQINQ: IntAttrCount is too small for all the selected attributes (some were not returned)",
	"MQRC_INT_ATTRS_ARRAY_ERROR":     "MQINQ/MQSET: the IntAttrs array is not valid",
	"MQRC_SYNCPOINT_LIMIT_REACHED":   "the unit of work holds the most uncommitted messages allowed (MAXUMSGS): commit more often or raise MAXUMSGS",
	"MQRC_MAX_CONNS_LIMIT_REACHED":   "a connection limit was reached (MAXCHL, the channel's MAXINST/MAXINSTC, or on z/OS IDBACK/IDFORE)",
	"MQRC_MD_ERROR":                  "the MQMD is not valid (bad StrucId or Version, or a bad pointer)",
	"MQRC_MISSING_REPLY_TO_Q":        "a request message, or one asking for reports, has no ReplyToQ",
	"MQRC_MSG_TYPE_ERROR":            "the MsgType in the MQMD is not valid for this call",
	"MQRC_MSG_TOO_BIG_FOR_Q":         "the message is longer than the queue's MAXMSGL: raise MAXMSGL or let the message be segmented",
	"MQRC_MSG_TOO_BIG_FOR_Q_MGR":     "the message is longer than the queue manager's MAXMSGL",
	"MQRC_NO_MSG_AVAILABLE":          "no message matched the get (the queue is empty or the message was taken)",
	"MQRC_NO_MSG_UNDER_CURSOR":       "the browse cursor is not on a message (another consumer removed it, or no browse-first was done)",
	"MQRC_NOT_AUTHORIZED":            "the user lacks the authority this call needs",
	"MQRC_NOT_OPEN_FOR_BROWSE":       "the queue was not opened with MQOO_BROWSE",
	"MQRC_NOT_OPEN_FOR_INPUT":        "the queue was not opened for input (MQOO_INPUT_*)",
	"MQRC_NOT_OPEN_FOR_INQUIRE":      "the object was not opened with MQOO_INQUIRE",
	"MQRC_NOT_OPEN_FOR_OUTPUT":       "the queue was not opened with MQOO_OUTPUT",
	"MQRC_NOT_OPEN_FOR_SET":          "the queue was not opened with MQOO_SET",
	"MQRC_OBJECT_CHANGED":            "the object's definition changed since it was opened: close and reopen it",
	"MQRC_OBJECT_IN_USE":             "the object is open elsewhere with conflicting options (e.g. exclusive input, or SHARE(NOSHARE))",
	"MQRC_OBJECT_TYPE_ERROR":         "the ObjectType in the MQOD is not valid for this call",
	"MQRC_OD_ERROR":                  "the MQOD is not valid (bad StrucId or Version, or a bad pointer)",
	"MQRC_OPTION_NOT_VALID_FOR_TYPE": "an option is not valid for this object type (e.g. opening a remote queue for input)",
	"MQRC_OPTIONS_ERROR":             "the options are not valid or not consistent with each other",
	"MQRC_PERSISTENCE_ERROR":         "the Persistence in the MQMD is not valid",
	"MQRC_PERSISTENT_NOT_ALLOWED":    "this queue cannot hold persistent messages (a temporary dynamic queue, or a z/OS shared queue whose CF structure is not RECOVER(YES))",
	"MQRC_PRIORITY_EXCEEDS_MAXIMUM":  "the Priority is above the queue manager's MAXPRTY; the message was put with MAXPRTY",
	"MQRC_PRIORITY_ERROR":            "the Priority in the MQMD is not valid (negative and not MQPRI_PRIORITY_AS_Q_DEF)",
	"MQRC_PUT_INHIBITED":             "puts are disabled on the queue (PUT(DISABLED))",
	"MQRC_Q_DELETED":                 "the queue was deleted while this handle had it open",
	"MQRC_Q_FULL":                    "the target queue is at MAXDEPTH",
	"MQRC_Q_NOT_EMPTY":               "the queue cannot be deleted: it holds messages or uncommitted puts or gets",
	"MQRC_Q_SPACE_NOT_AVAILABLE":     "no storage is left for the queue (disk full, or the queue file reached MAXFSIZE)",
	"MQRC_Q_TYPE_ERROR":              "the queue's type does not allow this call or option",
	"MQRC_Q_MGR_NAME_ERROR":          "the queue manager name is not valid or not known (check the name given to connect, MQSERVER or the CCDT)",
	"MQRC_Q_MGR_NOT_AVAILABLE":       "the queue manager is not available: not running, listener down, wrong host or port, or the connection was refused",
	"MQRC_REPORT_OPTIONS_ERROR":      "the Report field of the MQMD holds options the queue manager rejects",
	"MQRC_SECOND_MARK_NOT_ALLOWED":   "MQGMO_MARK_SKIP_BACKOUT was already used once in this unit of work",
	"MQRC_SECURITY_ERROR":            "the security manager returned an error (not a plain refusal): see the queue manager error log",
	"MQRC_SELECTOR_COUNT_ERROR":      "MQINQ/MQSET: SelectorCount is not valid",
	"MQRC_SELECTOR_LIMIT_EXCEEDED":   "MQINQ/MQSET: SelectorCount is above the maximum supported",
	"MQRC_SELECTOR_ERROR":            "MQINQ/MQSET: an attribute selector is not valid",
	"MQRC_SELECTOR_NOT_FOR_TYPE":     "MQINQ: a selector does not apply to this queue type (its value was not returned)",
	"MQRC_SIGNAL_OUTSTANDING":        "z/OS: a get with MQGMO_SET_SIGNAL was made while a signal is outstanding on this handle",
	"MQRC_SIGNAL_REQUEST_ACCEPTED":   "z/OS: no message yet; the signal request was accepted and is posted when one arrives",
	"MQRC_STORAGE_NOT_AVAILABLE":     "not enough memory to complete the call",
	"MQRC_SYNCPOINT_NOT_AVAILABLE":   "syncpoint was requested but the queue manager cannot honour it (no unit-of-work support, or an external coordinator has not started one)",
	"MQRC_TRIGGER_CONTROL_ERROR":     "MQSET: the TriggerControl value is not valid",
	"MQRC_TRIGGER_DEPTH_ERROR":       "MQSET: the TriggerDepth value is not valid",
	"MQRC_TRIGGER_MSG_PRIORITY_ERR":  "MQSET: the TriggerMsgPriority value is not valid",
	"MQRC_TRIGGER_TYPE_ERROR":        "MQSET: the TriggerType value is not valid",
	"MQRC_TRUNCATED_MSG_ACCEPTED":    "the message did not fit the buffer and was removed truncated (MQGMO_ACCEPT_TRUNCATED_MSG): the rest is lost",
	"MQRC_TRUNCATED_MSG_FAILED":      "the message does not fit the buffer and stays on the queue (DataLength says how big it is)",
	"MQRC_UNKNOWN_ALIAS_BASE_Q":      "the alias queue's TARGET names a queue that does not exist",
	"MQRC_UNKNOWN_OBJECT_NAME":       "no queue or object of that name exists",
	"MQRC_UNKNOWN_OBJECT_Q_MGR":      "the object's queue manager name is not valid or is not known here",
	"MQRC_UNKNOWN_REMOTE_Q_MGR":      "no route to the remote queue manager: no transmission queue, queue-manager alias or cluster queue manager of that name, and no DEFXMITQ",
	"MQRC_WAIT_INTERVAL_ERROR":       "the WaitInterval in the MQGMO is not valid (negative and not MQWI_UNLIMITED)",
	"MQRC_XMIT_Q_TYPE_ERROR":         "the transmission queue the remote queue resolves to is not a local queue",
	"MQRC_XMIT_Q_USAGE_ERROR":        "the queue used as a transmission queue does not have USAGE(XMITQ)",
	"MQRC_NOT_OPEN_FOR_PASS_ALL":     "the put passes all context but the queue was not opened with MQOO_PASS_ALL_CONTEXT",
	"MQRC_NOT_OPEN_FOR_PASS_IDENT":   "the put passes identity context but the queue was not opened with MQOO_PASS_IDENTITY_CONTEXT",
	"MQRC_NOT_OPEN_FOR_SET_ALL":      "the put sets all context but the queue was not opened with MQOO_SET_ALL_CONTEXT (which needs setall authority)",
	"MQRC_NOT_OPEN_FOR_SET_IDENT":    "the put sets identity context but the queue was not opened with MQOO_SET_IDENTITY_CONTEXT",
	"MQRC_CONTEXT_HANDLE_ERROR":      "the Context handle for passing context is not a queue opened with MQOO_SAVE_ALL_CONTEXT",
	"MQRC_CONTEXT_NOT_AVAILABLE":     "the Context handle has no saved context to pass (no message was got through it, or only browsed)",
	"MQRC_SIGNAL1_ERROR":             "z/OS: the Signal1 field in the MQGMO is not valid",
}
