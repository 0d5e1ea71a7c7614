package mqfmt

import "fmt"

// Instrumentation events: the messages a queue manager puts on
// SYSTEM.ADMIN.QMGR.EVENT, SYSTEM.ADMIN.PERFM.EVENT and
// SYSTEM.ADMIN.CHANNEL.EVENT are PCF (MQFMT_EVENT, MQCFH type MQCFT_EVENT)
// whose command says the event category and whose reason is the event.
// The names are IBM's ("Queue Full", "Not Authorized (type 2)").

// Event categories (MQCFH.Command of an event message).
const (
	EventCmdConfig  = 43 // MQCMD_CONFIG_EVENT
	EventCmdQMgr    = 44 // MQCMD_Q_MGR_EVENT
	EventCmdPerfm   = 45 // MQCMD_PERFM_EVENT
	EventCmdChannel = 46 // MQCMD_CHANNEL_EVENT
	EventCmdLogger  = 91 // MQCMD_LOGGER_EVENT
	EventCmdCommand = 99 // MQCMD_COMMAND_EVENT
)

var eventCommandNames = map[int32]string{
	EventCmdConfig: "MQCMD_CONFIG_EVENT", EventCmdQMgr: "MQCMD_Q_MGR_EVENT", EventCmdPerfm: "MQCMD_PERFM_EVENT",
	EventCmdChannel: "MQCMD_CHANNEL_EVENT", EventCmdLogger: "MQCMD_LOGGER_EVENT", EventCmdCommand: "MQCMD_COMMAND_EVENT",
}

// EventCommandName names an event message's category; ok is false for a
// command that is no event category.
func EventCommandName(cmd int32) (string, bool) {
	n, ok := eventCommandNames[cmd]
	return n, ok
}

var eventNames = map[Reason]string{
	2035: "Not Authorized", 2085: "Unknown Object Name", 2051: "Put Inhibited", 2016: "Get Inhibited",
	2086: "Unknown Object Queue Manager", 2087: "Unknown Remote Queue Manager", 2082: "Unknown Alias Base Queue",
	2001: "Alias Base Queue Type Error", 2057: "Queue Type Error", 2091: "Transmission Queue Type Error",
	2092: "Transmission Queue Usage Error", 2198: "Default Transmission Queue Type Error",
	2199: "Default Transmission Queue Usage Error", 2222: "Queue Manager Active", 2223: "Queue Manager Not Active",
	2053: "Queue Full", 2224: "Queue Depth High", 2225: "Queue Depth Low", 2226: "Queue Service Interval High",
	2227: "Queue Service Interval OK",
	2282: "Channel Started", 2283: "Channel Stopped", 2279: "Channel Stopped By User", 2284: "Channel Conversion Error",
	2295: "Channel Activated", 2296: "Channel Not Activated", 2371: "Channel SSL Error", 2552: "Channel SSL Warning",
	2577: "Channel Blocked", 2578: "Channel Blocked Warning", 2233: "Channel Auto-definition OK",
	2234: "Channel Auto-definition Error",
}

// authorityEventTypes are the types of the Not Authorized event, by its
// reason qualifier (MQRQ_*).
var authorityEventTypes = map[int32]string{
	1: "type 1: connect", 29: "type 1: user id and password (CONNAUTH)", 20: "type 1: system connection",
	2: "type 2: open", 3: "type 3: close", 4: "type 4: command", 17: "type 5: subscribe", 18: "type 6: subscription destination",
}

// EventName is IBM's name of an event: "Queue Full", "Not Authorized
// (type 2: open)"; an unknown one is named by its reason code.
func EventName(reason Reason, qualifier int32) string {
	n, ok := eventNames[reason]
	if !ok {
		return fmt.Sprintf("event %s", reason)
	}
	if reason == RCNotAuthorized {
		if t, ok := authorityEventTypes[qualifier]; ok {
			return n + " (" + t + ")"
		}
	}
	return n
}

// reasonQualifierNames are the MQRQ_* values events carry.
var reasonQualifierNames = map[int32]string{
	1: "MQRQ_CONN_NOT_AUTHORIZED", 2: "MQRQ_OPEN_NOT_AUTHORIZED", 3: "MQRQ_CLOSE_NOT_AUTHORIZED",
	4: "MQRQ_CMD_NOT_AUTHORIZED", 5: "MQRQ_Q_MGR_STOPPING", 6: "MQRQ_Q_MGR_QUIESCING", 7: "MQRQ_CHANNEL_STOPPED_OK",
	8: "MQRQ_CHANNEL_STOPPED_ERROR", 9: "MQRQ_CHANNEL_STOPPED_RETRY", 10: "MQRQ_CHANNEL_STOPPED_DISABLED",
	13: "MQRQ_SSL_HANDSHAKE_ERROR", 14: "MQRQ_SSL_CIPHER_SPEC_ERROR", 15: "MQRQ_SSL_CLIENT_AUTH_ERROR",
	16: "MQRQ_SSL_PEER_NAME_ERROR", 17: "MQRQ_SUB_NOT_AUTHORIZED", 18: "MQRQ_SUB_DEST_NOT_AUTHORIZED",
	19: "MQRQ_SSL_UNKNOWN_REVOCATION", 20: "MQRQ_SYS_CONN_NOT_AUTHORIZED", 21: "MQRQ_CHANNEL_BLOCKED_ADDRESS",
	22: "MQRQ_CHANNEL_BLOCKED_USERID", 23: "MQRQ_CHANNEL_BLOCKED_NOACCESS", 24: "MQRQ_MAX_ACTIVE_CHANNELS",
	25: "MQRQ_MAX_CHANNELS", 26: "MQRQ_SVRCONN_INST_LIMIT", 27: "MQRQ_CLIENT_INST_LIMIT", 29: "MQRQ_CSP_NOT_AUTHORIZED",
}

// ReasonQualifierName names an MQRQ_* value.
func ReasonQualifierName(v int32) string {
	if n, ok := reasonQualifierNames[v]; ok {
		return n
	}
	return numberedName("MQRQ_", v)
}
