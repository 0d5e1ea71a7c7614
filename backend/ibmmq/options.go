package ibmmq

import (
	"context"
	"fmt"
	"math"
	"time"

	"github.com/poisonwatch/poisonwatch/codec/mqfmt"
	"github.com/poisonwatch/poisonwatch/mqwatch"
	"github.com/poisonwatch/poisonwatch/mqwatch/pcf"
)

// Every MQI option word the backend passes is built here from the port's
// options, so what each port option means on IBM MQ is tested without MQ.

// openOptions maps the port's OpenOptions to MQOO_*. MQOO_FAIL_IF_QUIESCING is
// always set so an ending queue manager is never held up by this tool.
func openOptions(o mqwatch.OpenOptions) int32 {
	v := int32(ooFailIfQuiescing)
	set := func(on bool, bit int32) {
		if on {
			v |= bit
		}
	}
	set(o.Input, ooInputAsQDef)
	set(o.Browse, ooBrowse)
	set(o.Output, ooOutput)
	set(o.Inquire, ooInquire)
	set(o.SaveAllContext, ooSaveAllContext)
	set(o.PassAllContext, ooPassAllContext)
	set(o.SetAllContext, ooSetAllContext)
	set(o.AlternateUserAuthority, ooAlternateUserAuthority)
	return v
}

// gmoWords are MQGMO fields the backend sets.
type gmoWords struct {
	Options      int32
	MatchOptions int32
	WaitInterval int32 // milliseconds; meaningful with MQGMO_WAIT
}

// commonGMO applies to every get and browse: properties stay in the message
// data as an MQRFH2 whatever the queue's PROPCTL says, so the headers the
// operator sees (and a message moved elsewhere) are complete; no data
// conversion, so the bytes are the message's own.
const commonGMO = gmoFailIfQuiescing | gmoPropertiesForceRFH2

// browseGMO maps BrowseOptions. A browse is never under syncpoint and never
// matches on ids: the match options are explicitly MQMO_NONE.
func browseGMO(o mqwatch.BrowseOptions, waitMs int32) gmoWords {
	w := gmoWords{Options: commonGMO | gmoNoSyncpoint | gmoBrowseNext, MatchOptions: moNone}
	if o.First {
		w.Options = w.Options&^gmoBrowseNext | gmoBrowseFirst
	}
	if o.Unmarked {
		w.Options |= gmoUnmarkedBrowseMsg | gmoMarkBrowseHandle
	}
	if o.MaxBytes > 0 {
		w.Options |= gmoAcceptTruncatedMsg
	}
	if o.MsgId != nil {
		w.MatchOptions |= moMatchMsgID
	}
	if o.CorrelId != nil {
		w.MatchOptions |= moMatchCorrelID
	}
	w.MatchOptions |= segmentMatch(o.Segment)
	w.setWait(waitMs)
	return w
}

// segmentMatch is the match options of a SegmentMatch; the MQMD carries
// the values (freshGetMD). MQMO_MATCH_GROUP_ID only for a GroupId that is
// not MQGI_NONE, as the port defines.
func segmentMatch(s *mqwatch.SegmentMatch) int32 {
	if s == nil {
		return 0
	}
	v := int32(moMatchSeqNum | moMatchOffset)
	if s.GroupId != ([24]byte{}) {
		v |= moMatchGroupID
	}
	return v
}

// rebrowseGMO re-reads the message under the browse cursor with a larger
// buffer after a browse that had to truncate; the cursor does not move.
func rebrowseGMO() gmoWords {
	return gmoWords{Options: commonGMO | gmoNoSyncpoint | gmoBrowseMsgUnderCursor, MatchOptions: moNone}
}

// getGMO maps GetOptions for a destructive get.
func getGMO(o mqwatch.GetOptions, waitMs int32) gmoWords {
	w := gmoWords{Options: commonGMO | gmoNoSyncpoint, MatchOptions: moNone}
	if o.Syncpoint {
		w.Options = w.Options&^gmoNoSyncpoint | gmoSyncpoint
	}
	if o.UnderCursor {
		w.Options |= gmoMsgUnderCursor
	}
	if o.AcceptTruncated {
		w.Options |= gmoAcceptTruncatedMsg
	}
	if o.MsgId != nil {
		w.MatchOptions |= moMatchMsgID
	}
	if o.CorrelId != nil {
		w.MatchOptions |= moMatchCorrelID
	}
	if !o.UnderCursor { // IBM ignores MatchOptions under the cursor
		w.MatchOptions |= segmentMatch(o.Segment)
	}
	w.setWait(waitMs)
	return w
}

func (w *gmoWords) setWait(ms int32) {
	if ms > 0 {
		w.Options |= gmoWait
		w.WaitInterval = ms
	}
}

// putPMO maps PutOptions to MQPMO_* options.
func putPMO(o mqwatch.PutOptions) (int32, error) {
	v := int32(pmoFailIfQuiescing | pmoNoSyncpoint)
	if o.Syncpoint {
		v = v&^pmoNoSyncpoint | pmoSyncpoint
	}
	if o.NewMsgId {
		v |= pmoNewMsgID
	}
	if o.AsyncResponse {
		v |= pmoAsyncResponse
	}
	switch o.Context {
	case mqwatch.ContextDefault:
		v |= pmoDefaultContext
	case mqwatch.ContextPassAll:
		if o.ContextFrom == nil {
			return 0, mqwatch.NewError("MQPUT", "", mqfmt.RCContextHandleError)
		}
		v |= pmoPassAllContext
	case mqwatch.ContextSetAll:
		v |= pmoSetAllContext
	default:
		return 0, fmt.Errorf("put: context mode %d is not one the port defines", o.Context)
	}
	return v, nil
}

// subOptions maps a SubDesc to MQSO_*. The subscription is always managed (the
// queue manager creates the queue publications arrive on). Resume resumes an
// existing durable subscription and fails when there is none, as MQSO_RESUME does.
func subOptions(sd mqwatch.SubDesc) int32 {
	v := int32(soManaged | soFailIfQuiescing)
	if sd.Resume {
		v |= soResume
	} else {
		v |= soCreate
	}
	if sd.Durable {
		v |= soDurable
	} else {
		v |= soNonDurable
	}
	return v
}

// waitMillis turns a requested wait into an MQGMO WaitInterval, shortened to
// what is left of ctx's deadline: an MQGET cannot be interrupted, so a wait
// longer than the caller's deadline would hold the connection past it. It
// returns 0 for no wait and ctx's error when the deadline has passed.
func waitMillis(ctx context.Context, want time.Duration) (int32, error) {
	if err := ctx.Err(); err != nil {
		return 0, err
	}
	if dl, ok := ctx.Deadline(); ok {
		left := time.Until(dl)
		if left <= 0 {
			return 0, context.DeadlineExceeded
		}
		if want > left {
			want = left
		}
	}
	if want <= 0 {
		return 0, nil
	}
	ms := (want + time.Millisecond - 1) / time.Millisecond
	if ms > math.MaxInt32 {
		ms = math.MaxInt32
	}
	return int32(ms), nil
}

// mqErr builds the port's error for a failed or warned MQI call.
func mqErr(verb, object string, cc, rc int32) *mqwatch.Error {
	e := mqwatch.NewError(verb, object, mqfmt.Reason(rc))
	if cc == mqfmt.CCWarning {
		e.CC = cc
	}
	return e
}

// growBuffer bounds the buffer of a retry after the data did not fit.
func growBuffer(need, limit int) (int, error) { return pcf.GrowBuffer(need, limit) }

// replyGMO is the MQGMO of a PCF reply get: the reply with the command's
// MsgId as CorrelId, converted to UTF-8 and this machine's encoding
// (MQGMO_CONVERT) so the strings of a z/OS reply arrive readable, waiting at
// most waitMs (one slice of the command's wait).
func replyGMO(waitMs int32) gmoWords {
	w := gmoWords{Options: gmoNoSyncpoint | gmoConvert | gmoFailIfQuiescing, MatchOptions: moMatchCorrelID}
	w.setWait(waitMs)
	return w
}

// commandPMO is the MQPMO of a PCF command: outside any unit of work, with a
// new MsgId for the replies to carry as CorrelId.
const commandPMO = pmoNoSyncpoint | pmoNewMsgID | pmoNewCorrelID | pmoFailIfQuiescing
