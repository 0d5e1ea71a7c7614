package ibmmq

import (
	"github.com/poisonwatch/poisonwatch/mqwatch"
	"github.com/poisonwatch/poisonwatch/mqwatch/mqfmt"
)

// replySet collects the reply messages the command server sends for one PCF
// command: one message per object found, the last one flagged MQCFC_LAST.
// A failure usually arrives as two messages (the specific reason, such as
// MQRC_UNKNOWN_OBJECT_NAME, then MQRCCF_COMMAND_FAILED), so the first
// specific reason is the one reported. z/OS queue managers answer a
// MQCFT_COMMAND_XR with XR_MSG and XR_SUMMARY messages around the items.
type replySet struct {
	verb   string // "MQCMD_INQUIRE_Q" ...: the verb of a resulting mqwatch.Error
	object string
	items  []pcfMessage
	reason int32
	done   bool
}

// add records one reply and reports whether the set is complete.
func (r *replySet) add(m pcfMessage) bool {
	h := m.Header
	if h.Control == cfcLast {
		r.done = true
	}
	if h.Reason != 0 {
		if r.reason == 0 || r.reason == rccfCommandFailed {
			r.reason = h.Reason
		}
		return r.done
	}
	switch h.Type {
	case cftResponse, cftXRItem:
		if len(m.Params) > 0 {
			r.items = append(r.items, m)
		}
	}
	return r.done
}

// result returns the items, or the failure as an *mqwatch.Error. Reasons in
// empty mean "nothing matched" and give an empty result: that is how a generic
// name that matches no queue, or a queue with no open handle, is answered.
func (r *replySet) result(empty ...int32) ([]pcfMessage, error) {
	if r.reason == 0 {
		return r.items, nil
	}
	for _, e := range empty {
		if r.reason == e {
			return nil, nil
		}
	}
	return nil, mqwatch.NewError(r.verb, r.object, mqfmt.Reason(r.reason))
}

// isGeneric reports whether an MQSC/PCF name is generic (ends in '*').
func isGeneric(name string) bool { return name != "" && name[len(name)-1] == '*' }

// emptyReasons lists the reasons that mean "none found" for a pattern: a
// specific name that does not exist stays an error, as DISPLAY answers it.
func emptyReasons(pattern string, statusNotFoundIsEmpty bool) []int32 {
	var rs []int32
	if isGeneric(pattern) {
		rs = append(rs, rcUnknownObjectNme, rccfNoneFound)
	}
	if statusNotFoundIsEmpty {
		rs = append(rs, rccfQStatusNotFnd, rccfNoneFound)
	}
	return rs
}
