package mqfmt

// Names and meanings of the MQMD's small enumerations. Each XName returns
// IBM's name, or "<PREFIX>_<n>" for a value IBM does not name, so a screen
// never shows a bare number; each XMeaning returns one line, never empty.

// Bounds of the user- and application-defined ranges (MQAT_USER_FIRST..LAST,
// MQMT_APPL_FIRST..LAST, MQMT_SYSTEM_LAST).
const (
	mqatUserFirst  = 65536
	mqatUserLast   = 999999999
	mqmtSystemLast = 65535
	mqmtApplFirst  = 65536
	mqmtApplLast   = 999999999
)

// PersistenceName returns IBM's MQPER_* name, e.g. "MQPER_PERSISTENT".
func PersistenceName(p int32) string {
	if n, ok := lookupConst(mqperNames[:], p); ok {
		return n
	}
	return numberedName("MQPER_", p)
}

// PersistenceMeaning says what a Persistence value means for the message.
func PersistenceMeaning(p int32) string {
	if n, ok := lookupConst(mqperNames[:], p); ok {
		return mqperMeaning[n]
	}
	return "not a persistence value IBM defines"
}

var mqperMeaning = map[string]string{
	"MQPER_NOT_PERSISTENT":        "not logged: lost when the queue manager restarts (NPMCLASS(HIGH) keeps it across a clean shutdown)",
	"MQPER_PERSISTENT":            "logged: survives a queue manager restart",
	"MQPER_PERSISTENCE_AS_Q_DEF":  "take the queue's DEFPSIST (MQPER_PERSISTENCE_AS_TOPIC_DEF, the same value, takes the topic's); a stored message is never this",
	"MQPER_PERSISTENCE_AS_PARENT": "take the persistence of the parent topic (DEFPSIST(ASPARENT))",
}

// MsgTypeName returns IBM's MQMT_* name, e.g. "MQMT_DATAGRAM".
func MsgTypeName(mt int32) string {
	if n, ok := lookupConst(mqmtNames[:], mt); ok {
		return n
	}
	return numberedName("MQMT_", mt)
}

// MsgTypeMeaning says what a MsgType value means.
func MsgTypeMeaning(mt int32) string {
	if n, ok := lookupConst(mqmtNames[:], mt); ok {
		return mqmtMeaning[n]
	}
	switch {
	case mt >= mqmtApplFirst && mt <= mqmtApplLast:
		return "an application-defined message type"
	case mt > 0 && mt <= mqmtSystemLast:
		return "a system message type this tool does not know"
	}
	return "not a message type IBM allows"
}

var mqmtMeaning = map[string]string{
	"MQMT_REQUEST":             "a request: the sender expects a reply on ReplyToQ",
	"MQMT_REPLY":               "a reply to a request",
	"MQMT_REPORT":              "a report (COA, COD, exception, expiry...): Feedback says which",
	"MQMT_DATAGRAM":            "a datagram: no reply expected",
	"MQMT_MQE_FIELDS_FROM_MQE": "MQe fields that came from an MQe queue manager",
	"MQMT_MQE_FIELDS":          "MQe fields",
}

// ApplTypeName returns IBM's MQAT_* name of a PutApplType, e.g. "MQAT_JAVA".
// Where IBM gives one value several names the current one is used:
// MQAT_UNIX (MQAT_AIX), MQAT_ZOS (MQAT_MVS, MQAT_OS390), MQAT_NSK
// (MQAT_GUARDIAN), MQAT_BROKER (MQAT_QMGR_PUBLISH). MQAT_DEFAULT is never
// shown: its value differs by platform.
func ApplTypeName(at int32) string {
	if n, ok := lookupConst(mqatNames[:], at); ok {
		return n
	}
	return numberedName("MQAT_", at)
}

// ApplTypeMeaning says what kind of application put the message.
func ApplTypeMeaning(at int32) string {
	if n, ok := lookupConst(mqatNames[:], at); ok {
		return mqatMeaning[n]
	}
	if at >= mqatUserFirst && at <= mqatUserLast {
		return "a user-defined application type"
	}
	return "not an application type IBM defines"
}

var mqatMeaning = map[string]string{
	"MQAT_UNKNOWN":           "unknown application type",
	"MQAT_NO_CONTEXT":        "no context: put with MQPMO_NO_CONTEXT, so the origin fields are blank",
	"MQAT_CICS":              "a CICS transaction",
	"MQAT_ZOS":               "a z/OS application (MQAT_MVS and MQAT_OS390 are the same value)",
	"MQAT_IMS":               "an IMS application",
	"MQAT_OS2":               "an OS/2 application",
	"MQAT_DOS":               "a DOS client application",
	"MQAT_UNIX":              "a UNIX or Linux application (MQAT_AIX is the same value)",
	"MQAT_QMGR":              "the queue manager itself (reports, events, and messages it dead-lettered)",
	"MQAT_OS400":             "an IBM i application",
	"MQAT_WINDOWS":           "a 16-bit Windows application",
	"MQAT_CICS_VSE":          "a CICS/VSE transaction",
	"MQAT_WINDOWS_NT":        "a Windows application",
	"MQAT_VMS":               "an OpenVMS application",
	"MQAT_NSK":               "an HPE NonStop application (MQAT_GUARDIAN is the same value)",
	"MQAT_VOS":               "a Stratus VOS application",
	"MQAT_OPEN_TP1":          "an OpenTP1 application",
	"MQAT_VM":                "a VM/ESA application",
	"MQAT_IMS_BRIDGE":        "the IMS bridge",
	"MQAT_XCF":               "XCF",
	"MQAT_CICS_BRIDGE":       "the CICS bridge",
	"MQAT_NOTES_AGENT":       "a Lotus Notes agent",
	"MQAT_TPF":               "a TPF application",
	"MQAT_USER":              "a user-defined application type",
	"MQAT_BROKER":            "a publish/subscribe broker (MQAT_QMGR_PUBLISH is the same value)",
	"MQAT_JAVA":              "a Java or JMS application; JMS ConnectionConsumers dead-letter poison messages with this type",
	"MQAT_DQM":               "a distributed queue management agent (a channel)",
	"MQAT_CHANNEL_INITIATOR": "the z/OS channel initiator",
	"MQAT_WLM":               "a z/OS workload manager application",
	"MQAT_BATCH":             "a z/OS batch application",
	"MQAT_RRS_BATCH":         "a z/OS RRS batch application",
	"MQAT_SIB":               "the WebSphere service integration bus",
	"MQAT_SYSTEM_EXTENSION":  "a queue manager system extension",
	"MQAT_MCAST_PUBLISH":     "a multicast publication",
	"MQAT_AMQP":              "an AMQP application",
}
