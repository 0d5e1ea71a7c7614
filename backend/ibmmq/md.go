package ibmmq

import (
	"time"

	"github.com/poisonwatch/poisonwatch/mqwatch"

	"github.com/poisonwatch/poisonwatch/codec/mqfmt"
)

// MQMD character field lengths (MQ_*_LENGTH).
const (
	lenFormat           = 8
	lenQName            = 48
	lenUserID           = 12
	lenApplIdentityData = 32
	lenPutApplName      = 28
	lenPutDate          = 8
	lenPutTime          = 8
	lenApplOriginData   = 4
)

// wireMD has exactly the fields, types and order of mq-golang's ibmmq.MQMD, so
// the tagged code converts between them with a plain type conversion
// (ibmmq.MQMD(w)) and the type-check test fails if mq-golang ever changes the
// struct. Keeping the conversion logic on this side of the conversion lets it
// be tested without the MQ library.
type wireMD struct {
	Version          int32
	Report           int32
	MsgType          int32
	Expiry           int32
	Feedback         int32
	Encoding         int32
	CodedCharSetId   int32
	Format           string
	Priority         int32
	Persistence      int32
	MsgId            []byte
	CorrelId         []byte
	BackoutCount     int32
	ReplyToQ         string
	ReplyToQMgr      string
	UserIdentifier   string
	AccountingToken  []byte
	ApplIdentityData string
	PutApplType      int32
	PutApplName      string
	PutDate          string
	PutTime          string
	PutDateTime      time.Time
	ApplOriginData   string
	GroupId          []byte
	MsgSeqNumber     int32
	Offset           int32
	MsgFlags         int32
	OriginalLength   int32
}

// toWireMD converts an mqfmt.MQMD for MQPUT or MQGET. Character fields go as
// the raw, blank-padded bytes mqfmt keeps (mq-golang copies them with strncpy).
// PutDateTime stays zero on purpose: mq-golang prefers it over PutDate/PutTime
// and formats it in the time.Time's own zone, while the MQMD's fields are GMT
// (mq-golang issue #219), so the exact strings are what must travel. The
// version is at least 2 so the group fields travel in the MQMD, not in an MQMDE
// at the front of the data.
func toWireMD(md *mqfmt.MQMD) wireMD {
	w := wireMD{
		Version:          max(md.Version, mdVersion2),
		Report:           md.Report,
		MsgType:          md.MsgType,
		Expiry:           md.Expiry,
		Feedback:         md.Feedback,
		Encoding:         int32(md.Encoding),
		CodedCharSetId:   md.CodedCharSetId,
		Format:           fixed(md.Format, lenFormat),
		Priority:         md.Priority,
		Persistence:      md.Persistence,
		MsgId:            clone24(md.MsgId),
		CorrelId:         clone24(md.CorrelId),
		BackoutCount:     md.BackoutCount,
		ReplyToQ:         fixed(md.ReplyToQ, lenQName),
		ReplyToQMgr:      fixed(md.ReplyToQMgr, lenQName),
		UserIdentifier:   fixed(md.UserIdentifier, lenUserID),
		AccountingToken:  append([]byte(nil), md.AccountingToken[:]...),
		ApplIdentityData: fixed(md.ApplIdentityData, lenApplIdentityData),
		PutApplType:      md.PutApplType,
		PutApplName:      fixed(md.PutApplName, lenPutApplName),
		PutDate:          fixed(md.PutDate, lenPutDate),
		PutTime:          fixed(md.PutTime, lenPutTime),
		ApplOriginData:   fixed(md.ApplOriginData, lenApplOriginData),
		GroupId:          clone24(md.GroupId),
		MsgSeqNumber:     md.MsgSeqNumber,
		Offset:           md.Offset,
		MsgFlags:         md.MsgFlags,
		OriginalLength:   md.OriginalLength,
	}
	return w
}

// freshGetMD is the MQMD for one MQGET: a new one every call, because MQGET
// writes the message's MsgId and CorrelId into it and, reused, they would
// select the next message: a browse loop that reuses its MQMD finds nothing
// after the first message (a known mq-golang pitfall). The match options carry
// the selection explicitly; nil fields of sel mean "any".
func freshGetMD(sel getSel) wireMD {
	md := mqfmt.NewMQMD()
	if sel.msgID != nil {
		md.MsgId = *sel.msgID
	}
	if sel.correlID != nil {
		md.CorrelId = *sel.correlID
	}
	if s := sel.segment; s != nil {
		md.GroupId, md.MsgSeqNumber, md.Offset = s.GroupId, s.MsgSeqNumber, s.Offset
	}
	return toWireMD(&md)
}

// getSel is what an MQGET selects by, with the match options of gmoWords.
type getSel struct {
	msgID, correlID *[24]byte
	segment         *mqwatch.SegmentMatch
}

// fromWireMD converts what MQGET or MQPUT returned. mq-golang trims character
// fields (cut at the first NUL, blanks removed at both ends); they are padded
// back with blanks to their MQ lengths so mqfmt sees the layout a queue
// manager writes. Leading blanks that mq-golang removed cannot be restored.
func fromWireMD(w *wireMD) mqfmt.MQMD {
	md := mqfmt.MQMD{
		Version:          w.Version,
		Report:           w.Report,
		MsgType:          w.MsgType,
		Expiry:           w.Expiry,
		Feedback:         w.Feedback,
		Encoding:         mqfmt.Encoding(w.Encoding),
		CodedCharSetId:   w.CodedCharSetId,
		Format:           fixed(w.Format, lenFormat),
		Priority:         w.Priority,
		Persistence:      w.Persistence,
		BackoutCount:     w.BackoutCount,
		ReplyToQ:         fixed(w.ReplyToQ, lenQName),
		ReplyToQMgr:      fixed(w.ReplyToQMgr, lenQName),
		UserIdentifier:   fixed(w.UserIdentifier, lenUserID),
		ApplIdentityData: fixed(w.ApplIdentityData, lenApplIdentityData),
		PutApplType:      w.PutApplType,
		PutApplName:      fixed(w.PutApplName, lenPutApplName),
		PutDate:          fixed(w.PutDate, lenPutDate),
		PutTime:          fixed(w.PutTime, lenPutTime),
		ApplOriginData:   fixed(w.ApplOriginData, lenApplOriginData),
		MsgSeqNumber:     w.MsgSeqNumber,
		Offset:           w.Offset,
		MsgFlags:         w.MsgFlags,
		OriginalLength:   w.OriginalLength,
	}
	copy(md.MsgId[:], w.MsgId)
	copy(md.CorrelId[:], w.CorrelId)
	copy(md.AccountingToken[:], w.AccountingToken)
	copy(md.GroupId[:], w.GroupId)
	return md
}

// fixed cuts s to n bytes or pads it with blanks to n, as the MQI lays out a
// character field.
func fixed(s string, n int) string {
	if len(s) >= n {
		return s[:n]
	}
	b := make([]byte, n)
	copy(b, s)
	for i := len(s); i < n; i++ {
		b[i] = ' '
	}
	return string(b)
}

func clone24(a [24]byte) []byte { return append([]byte(nil), a[:]...) }
