package ops

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/poisonwatch/poisonwatch/codec/mqfmt"
	"github.com/poisonwatch/poisonwatch/internal/words"
	"github.com/poisonwatch/poisonwatch/mqwatch"
)

// A replay puts a copy that the applications downstream treat as a new
// message (R10e). Two things of the original set off more than the copy:
//   - a request (MQMT_REQUEST) is answered with a reply whose CorrelId is the
//     request's MsgId, unless the request asked for MQRO_PASS_CORREL_ID: a
//     copy with a new MsgId gets a reply its requester cannot match;
//   - report options (COA, COD, exception, expiration) fire again for every
//     copy, to its ReplyToQ.
// The plan says both per group of messages (replayNotes); --keep-msgid keeps
// the MsgId where a duplicate id is acceptable, and --no-reports clears the
// report options on the copies, which the audit log records.

// reportKinds are the report options a copy sets off again, each with all
// its "with data" variants.
var reportKinds = []struct {
	name string
	mask int32
}{
	{"COA", mqfmt.ROCOAWithFullData},
	{"COD", mqfmt.ROCODWithFullData},
	{"exception", mqfmt.ROExceptionWithFullData},
	{"expiration", mqfmt.ROExpirationWithFull},
}

// reportMask is every option --no-reports clears.
const reportMask = mqfmt.ROCOAWithFullData | mqfmt.ROCODWithFullData | mqfmt.ROExceptionWithFullData | mqfmt.ROExpirationWithFull

// replayNotes are the plan's warnings for a replay's requests and report
// options, one per kind and ReplyToQ, with counts.
func replayNotes(req *OpRequest, items []OpItem) []string {
	if req.Op != OpReplay && req.Op != OpEdit {
		return nil
	}
	requests := map[string]int{}
	reports := map[string]map[string]int{} // kind → reply queue → count
	for i := range items {
		s := &items[i].Msg
		if !items[i].planned() {
			continue
		}
		to := replyQueue(s)
		if s.MsgType == mqfmt.MTRequest && s.Report&mqfmt.ROPassCorrelId == 0 {
			requests[to]++
		}
		for _, k := range reportKinds {
			if s.Report&k.mask != 0 {
				if reports[k.name] == nil {
					reports[k.name] = map[string]int{}
				}
				reports[k.name][to]++
			}
		}
	}
	var out []string
	for _, to := range slices.Sorted(maps.Keys(requests)) {
		n := requests[to]
		if req.Op == OpEdit && req.KeepMsgId {
			out = append(out, fmt.Sprintf("a request (replies to %s) that keeps its MsgId: the reply correlates with the original request", to))
			continue
		}
		if req.KeepMsgId {
			out = append(out, fmt.Sprintf("%s to %s keep their MsgId: their replies correlate with the original requests, a second reply to each", words.Count(n, "request"), to))
		} else {
			out = append(out, fmt.Sprintf("%s (replies to %s): their replies will carry the new MsgId as CorrelId, which the requester cannot match; --keep-msgid keeps it", words.Count(n, "request"), to))
		}
	}
	for _, k := range reportKinds {
		byQ := reports[k.name]
		for _, to := range slices.Sorted(maps.Keys(byQ)) {
			switch {
			case req.Op == OpEdit:
				out = append(out, fmt.Sprintf("%d asks for %s reports to %s: the edited copy sends them again", byQ[to], k.name, to))
			case req.NoReports:
				out = append(out, fmt.Sprintf("%d ask for %s reports to %s: cleared on the copies (--no-reports), as the audit log records", byQ[to], k.name, to))
			default:
				out = append(out, fmt.Sprintf("%d will send %s reports to %s again; --no-reports clears them on the copies", byQ[to], k.name, to))
			}
		}
	}
	return out
}

// replyQueue names where replies and reports go: ReplyToQ@ReplyToQMgr.
func replyQueue(s *mqwatch.Summary) string {
	q := s.ReplyToQ
	if q == "" {
		return "no reply queue (the reports cannot be delivered and go to the DEADQ)"
	}
	if s.ReplyToQMgr != "" {
		q += "@" + s.ReplyToQMgr
	}
	return q
}

// replayCopy clears the report options on a replay's copy when asked.
func (r *opRun) replayCopy(md mqfmt.MQMD) mqfmt.MQMD {
	if r.req.Op == OpReplay && r.req.NoReports {
		md.Report &^= reportMask
	}
	return md
}

// reportsCleared is what the audit line records of the report options a
// replay cleared on the copy of a message.
func (r *opRun) reportsCleared(s *mqwatch.Summary) string {
	if r.req.Op != OpReplay || !r.req.NoReports || s.Report&reportMask == 0 {
		return ""
	}
	var names []string
	for _, k := range reportKinds {
		if s.Report&k.mask != 0 {
			names = append(names, k.name)
		}
	}
	return strings.Join(names, ",")
}
