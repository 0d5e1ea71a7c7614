package actions

import (
	"time"

	"github.com/poisonwatch/poisonwatch/codec/mqfmt"
)

// reportDataPrefix is how much body MQRO_EXCEPTION_WITH_DATA carries.
const reportDataPrefix = 100

// MQMF_* flags that make a message a segment, whose reports must be segments
// too (IBM: OriginalLength).
const (
	mfSegment     = 0x00000002
	mfLastSegment = 0x00000004
)

// ReportMessage is an exception report ready to put (R6c–R6g).
type ReportMessage struct {
	MD   mqfmt.MQMD
	Data []byte
	// ToQ and ToQMgr are the original's ReplyToQ and ReplyToQMgr. A blank
	// ToQ cannot be put to: IBM puts a report it cannot deliver to the
	// ReplyToQ on the dead-letter queue instead.
	ToQ, ToQMgr string
	// NewMsgID says to put with MQPMO_NEW_MSG_ID (MQRO_NEW_MSG_ID, the
	// default); otherwise MD.MsgId is the original's (MQRO_PASS_MSG_ID).
	NewMsgID bool
}

// ExceptionReport builds the report message an ASF consumer sends when it
// removes a message whose Report asks for one, with feedback (the code also
// in the MQDLH) in Feedback; false when no MQRO_EXCEPTION* option is set
// (R6f). The original descriptor and data are not modified.
//
// The report's data is what the ASF documentation and IBM's rules for
// application-generated reports (Reports and segmented messages) say: nothing
// for MQRO_EXCEPTION; the original's MQ headers and the first 100 bytes of
// its body for MQRO_EXCEPTION_WITH_DATA; everything for
// MQRO_EXCEPTION_WITH_FULL_DATA. Like the queue manager's reports (Conversion
// of report messages), it keeps the original's Format, Encoding and
// CodedCharSetId, which describe that data. The descriptor also follows the
// Report field's documentation: MsgType MQMT_REPORT; MsgId new (put with
// MQPMO_NEW_MSG_ID) or passed; CorrelId the original's MsgId or, with
// MQRO_PASS_CORREL_ID, its CorrelId; Report MQRO_NONE and Expiry unlimited
// unless MQRO_PASS_DISCARD_AND_EXPIRY passes MQRO_DISCARD_MSG and the
// remaining expiry; the original's persistence (as a reply must use the
// request's) and priority; segment fields copied, with OriginalLength, when
// the original is a segment. Origin context is the ConnectionConsumer's
// (PutApplType MQAT_JAVA, PutApplName "MQ JMS ConnectionConsumer", PutDate
// and PutTime now, the wall clock when now is zero), to be put with MQPMO_SET_ALL_CONTEXT; identity context is
// the original's.
func ExceptionReport(orig mqfmt.MQMD, data []byte, feedback mqfmt.Reason, now time.Time) (ReportMessage, bool) {
	kind := orig.Report & roExceptionMask
	if kind == 0 {
		return ReportMessage{}, false
	}
	md := orig
	md.MsgType = mqfmt.MTReport
	md.Feedback = int32(feedback)
	md.BackoutCount = 0
	md.ReplyToQ, md.ReplyToQMgr = "", ""
	md.Report, md.Expiry = 0, expiryUnlimited
	if orig.Report&mqfmt.ROPassDiscardAndExpiry != 0 {
		md.Report = orig.Report & mqfmt.RODiscardMsg
		md.Expiry = orig.Expiry
	}
	r := ReportMessage{ToQ: mqfmt.Trim(orig.ReplyToQ), ToQMgr: mqfmt.Trim(orig.ReplyToQMgr), NewMsgID: true}
	md.MsgId = [24]byte{}
	if orig.Report&mqfmt.ROPassMsgId != 0 {
		md.MsgId, r.NewMsgID = orig.MsgId, false
	}
	md.CorrelId = orig.MsgId
	if orig.Report&mqfmt.ROPassCorrelId != 0 {
		md.CorrelId = orig.CorrelId
	}
	md.PutApplType, md.PutApplName, md.ApplOriginData = ASFPutApplType, ASFPutApplName, ""
	md.PutDate, md.PutTime = mqDateTime(nowOr(now))
	md.OriginalLength = -1
	if orig.MsgFlags&(mfSegment|mfLastSegment) != 0 {
		md.OriginalLength = int32(min(len(data), mqfmt.MaxMsgLength))
	}
	r.MD = md
	r.Data = reportData(&orig, data, kind)
	return r, true
}

// reportData copies what the report carries; it never aliases data.
func reportData(orig *mqfmt.MQMD, data []byte, kind int32) []byte {
	switch kind {
	case mqfmt.ROExceptionWithFullData:
		return append([]byte(nil), data...)
	case mqfmt.ROExceptionWithData:
		// Headers end where the walk stopped: at the body, or at the first
		// structure it could not decode, which is then treated as body.
		c, _ := mqfmt.WalkChain(orig.Format, orig.Encoding, orig.CodedCharSetId, data)
		end := min(c.Body.Offset+reportDataPrefix, len(data))
		return append([]byte(nil), data[:end]...)
	}
	return []byte{}
}
