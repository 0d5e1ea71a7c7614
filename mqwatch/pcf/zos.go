package pcf

import "slices"

// z/OS does not accept MQIACF_PROCESS_ID and MQIACF_THREAD_ID among the
// attributes of DISPLAY QSTATUS TYPE(HANDLE) and DISPLAY CONN: IBM marks
// them not valid there, and a z/OS command server fails the whole command.
// mqmetric (mq-metric-samples) leaves them out for z/OS in the same way. A
// handle's connection is then told by application, user, channel,
// connection name and unit of work alone.

// withoutProcessIDs drops the two selectors z/OS refuses.
func withoutProcessIDs(sels []int32) []int32 {
	return slices.DeleteFunc(slices.Clone(sels), func(s int32) bool { return s == iacfProcessID || s == iacfThreadID })
}

// HandleRequest is the MQCMD_INQUIRE_Q_STATUS TYPE(HANDLE) request for
// queue on a queue manager of the given platform.
func HandleRequest(queue string, zos bool) []Param {
	ps := inquireHandlesParams(queue)
	if zos {
		ps[2] = IntList(iacfQStatusAttrs, withoutProcessIDs(handleSelectors)...)
	}
	return ps
}

// ConnectionRequest is the MQCMD_INQUIRE_CONNECTION request.
func ConnectionRequest(zos bool) []Param {
	ps := inquireConnectionsParams()
	if zos {
		ps[2] = IntList(iacfConnectionAttrs, withoutProcessIDs(connectionSelectors)...)
	}
	return ps
}

// Selectors returns the integer list of parameter sel in a request.
func Selectors(ps []Param, sel int32) []int32 {
	for _, p := range ps {
		if p.Param == sel {
			out := make([]int32, len(p.Ints))
			for i, v := range p.Ints {
				out[i] = int32(v)
			}
			return out
		}
	}
	return nil
}

// Parameter ids a test of the requests names.
const (
	ParamQStatusAttrs    = iacfQStatusAttrs
	ParamConnectionAttrs = iacfConnectionAttrs
	ParamProcessID       = iacfProcessID
	ParamThreadID        = iacfThreadID
)
