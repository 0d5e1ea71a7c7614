package actions

import (
	"fmt"

	"github.com/poisonwatch/poisonwatch/codec/mqfmt"
	"github.com/poisonwatch/poisonwatch/mqwatch"
)

// Header lengths a move adds in front of the message data.
const (
	// rfh2FixedLen is MQRFH_STRUC_LENGTH_FIXED_2: the RFH2 R5b adds.
	rfh2FixedLen = 36
	// dlhLen is MQDLH_LENGTH_1: the dead-letter header a DEADQ move adds.
	dlhLen = 172
)

// predictPut says whether a put of msgLen bytes to a queue with facts f fails,
// with the reason code the queue manager would return, checked in the order
// MQOPEN then MQPUT meet them. It predicts nothing from unknown facts.
func predictPut(name string, f QueueFacts, msgLen int, qmgrMaxMsgLen int32) (mqfmt.Reason, string) {
	switch {
	case !f.Known:
		return 0, ""
	case !f.Exists:
		return mqfmt.RCUnknownObjectName, fmt.Sprintf("no queue %s is defined", name)
	case f.BaseMissing:
		return mqfmt.RCUnknownAliasBaseQ, fmt.Sprintf("alias %s names a base queue that does not exist", name)
	case f.PutDenied:
		return mqfmt.RCNotAuthorized, fmt.Sprintf("the consumer's user lacks put or passall authority on %s (R7b)", name)
	case f.PutInhibited:
		return mqfmt.RCPutInhibited, fmt.Sprintf("%s is PUT(DISABLED)", name)
	case f.Full:
		return mqfmt.RCQFull, fmt.Sprintf("%s is at MAXDEPTH %d", name, f.MaxDepth)
	case msgLen > 0 && f.MaxMsgLen > 0 && int64(msgLen) > int64(f.MaxMsgLen):
		return mqfmt.RCMsgTooBigForQ, fmt.Sprintf("%d bytes exceed %s's MAXMSGL %d", msgLen, name, f.MaxMsgLen)
	case msgLen > 0 && qmgrMaxMsgLen > 0 && int64(msgLen) > int64(qmgrMaxMsgLen):
		return mqfmt.RCMsgTooBigForQMgr, fmt.Sprintf("%d bytes exceed the queue manager's MAXMSGL %d", msgLen, qmgrMaxMsgLen)
	}
	return 0, ""
}

// moveLen is the length of the message once a move has added its header.
func moveLen(m *RouteMessage, header int) int {
	if m.Length <= 0 {
		return 0
	}
	return m.Length + header
}

// notLocalWarning returns an R8 warning when a put target is not a local
// queue. The put may still work (an alias resolves to a local queue), so it
// is a warning, not a predicted failure.
func notLocalWarning(rule, role, name string, f QueueFacts) (Line, bool) {
	if !f.Known || !f.Exists || f.Type == mqwatch.QLocal || f.Type == 0 {
		return Line{}, false
	}
	return line(rule, "%s %s is a %s, not a local queue", role, name, f.Type), true
}

func unknownObject() mqfmt.Reason { return mqfmt.RCUnknownObjectName }
