package pcf

import (
	"github.com/poisonwatch/poisonwatch/codec/mqfmt"
	"github.com/poisonwatch/poisonwatch/mqwatch"
)

// replySet collects the reply messages the command server sends for one PCF
// command: one message per object found, the last one flagged MQCFC_LAST.
//
// An inquiry over a generic name answers per object: a queue that could not
// be reported on (deleted between listing and inquiring, as JMS temporary
// queues and non-durable subscription queues are all the time; damaged, 2101;
// not authorised, 2035) gets its own failure message, usually naming the
// queue, among the good items, and the answer ends with MQRCCF_COMMAND_FAILED.
// So the good items are kept and each failure is reported for its object;
// a reason means "nothing found" only when no item came back at all.
//
// z/OS answers an MQCFT_COMMAND_XR with MQCFT_XR_MSG messages (information,
// or a failure) and MQCFT_XR_ITEM items, and ends every queue manager's part
// with an MQCFT_XR_SUMMARY; only the last message overall has MQCFC_LAST.
type replySet struct {
	verb     string // "MQCMD_INQUIRE_Q" ...: the verb of a resulting mqwatch.Error
	object   string
	items    []Message
	failures []failure
	failed   bool // MQRCCF_COMMAND_FAILED seen
	done     bool
}

// failure is one failure message: its reason and the object it names, if any.
type failure struct {
	object string
	reason int32
}

// add records one reply and reports whether the set is complete.
func (r *replySet) add(m Message) bool {
	h := m.Header
	if h.Control == cfcLast {
		r.done = true
	}
	switch {
	case h.Reason == rccfCommandFailed:
		r.failed = true
	case h.CompCode == ccFailed || (h.Reason != 0 && h.CompCode != ccWarning):
		name, _ := m.strAttr(caQName)
		r.failures = append(r.failures, failure{object: name, reason: h.Reason})
	case h.Type == cftResponse || h.Type == cftXRItem:
		if len(m.Params) > 0 {
			r.items = append(r.items, m)
		}
	}
	return r.done
}

// result returns the items and the objects that failed, or the failure of
// the whole command as an *mqwatch.Error. With no item, reasons in empty
// mean "nothing matched": that is how a generic name that matches no queue,
// or a queue with no open handle, is answered.
func (r *replySet) result(empty []int32) ([]Message, []mqwatch.ObjectError, error) {
	if len(r.items) == 0 {
		for _, f := range r.failures {
			if !contains(empty, f.reason) {
				return nil, nil, mqwatch.NewError(r.verb, r.object, mqfmt.Reason(f.reason))
			}
		}
		if r.failed && len(r.failures) == 0 {
			return nil, nil, mqwatch.NewError(r.verb, r.object, rccfCommandFailed)
		}
		return nil, nil, nil
	}
	var objs []mqwatch.ObjectError
	for _, f := range r.failures {
		name := f.object
		if name == "" {
			name = r.object
		}
		objs = append(objs, mqwatch.ObjectError{Object: f.object,
			Err: mqwatch.NewError(r.verb, name, mqfmt.Reason(f.reason))})
	}
	return r.items, objs, nil
}

func contains(list []int32, v int32) bool {
	for _, x := range list {
		if x == v {
			return true
		}
	}
	return false
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
