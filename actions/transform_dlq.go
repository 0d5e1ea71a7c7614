package actions

import (
	"encoding/binary"
	"fmt"
	"time"

	"github.com/poisonwatch/poisonwatch/mqwatch/mqfmt"
)

// DeadLetterOptions fill the MQDLH of a message a consumer dead-letters.
type DeadLetterOptions struct {
	Reason       mqfmt.Reason // why: 2362, 2363, 2364, or the failed BOQ put's reason
	DestQName    string       // the queue the message was meant for (the input queue)
	DestQMgrName string
	// PutApplType and PutApplName identify who dead-lettered the message;
	// zero values give ASF's MQAT_JAVA and "MQ JMS ConnectionConsumer" (R6a).
	PutApplType int32
	PutApplName string
	// Now is the MQDLH PutDate/PutTime; the zero value means time.Now().
	Now time.Time
}

// ToDeadLetter returns the descriptor and data a consumer puts to the DEADQ
// (R6a), following IBM's rules for applications that put to the dead-letter
// queue (MQDLH - Dead letter header): the MQMD stays as MQGET returned it
// except that Format becomes MQDEAD and CodedCharSetId and Encoding describe
// the MQDLH; the MQDLH's Encoding, CodedCharSetId and Format are the
// original's, so a requeue can restore them (R10b).
//
// The MQDLH is written in the MQMD's byte order and code page. When the
// Encoding gives no integer byte order it is written big-endian and the MQMD
// says 273 (Java's native encoding); when the code page cannot hold queue
// names in single bytes it is written in UTF-8 and the MQMD says 1208, as IBM
// MQ classes for JMS do. BackoutCount becomes 0: MQPUT ignores it.
func ToDeadLetter(md mqfmt.MQMD, data []byte, o DeadLetterOptions) (mqfmt.MQMD, []byte, error) {
	if err := checkExpiry(md.Expiry); err != nil {
		return md, nil, fmt.Errorf("to dead-letter queue: %w", err)
	}
	dlh, err := newDLH(&md, o)
	if err != nil {
		return md, nil, fmt.Errorf("to dead-letter queue: %w", err)
	}
	bo, err := md.Encoding.ByteOrder()
	if err != nil {
		bo, md.Encoding = binary.BigEndian, mqfmt.EncodingNormal
	}
	out := make([]byte, 0, mqfmt.DLHLen+len(data))
	out = dlh.AppendEncode(out, bo)
	out = append(out, data...)
	md.Format = mqfmt.FmtDeadLetter
	md.BackoutCount = 0
	if dlhCharset(md.CodedCharSetId) == csUTF8 {
		md.CodedCharSetId = mqfmt.CCSIDUTF8
	}
	return md, out, nil
}

// newDLH fills the MQDLH for md, its character fields in the code page the
// MQMD will declare.
func newDLH(md *mqfmt.MQMD, o DeadLetterOptions) (mqfmt.DLH, error) {
	d := mqfmt.NewDLH()
	d.Reason = o.Reason
	d.Encoding, d.CodedCharSetId = md.Encoding, md.CodedCharSetId
	d.PutApplType = o.PutApplType
	if d.PutApplType == 0 {
		d.PutApplType = ASFPutApplType
	}
	name := o.PutApplName
	if name == "" {
		name = ASFPutApplName
	}
	date, tm := mqDateTime(nowOr(o.Now))
	cs := dlhCharset(md.CodedCharSetId)
	fields := []struct {
		dst *string
		val string
		n   int
	}{
		{&d.DestQName, o.DestQName, 48}, {&d.DestQMgrName, o.DestQMgrName, 48},
		{&d.Format, md.Format, 8}, {&d.PutApplName, name, 28},
		{&d.PutDate, date, 8}, {&d.PutTime, tm, 8},
	}
	for _, f := range fields {
		v, err := field(f.val, f.n, cs)
		if err != nil {
			return d, fmt.Errorf("MQDLH in CCSID %d: %w", md.CodedCharSetId, err)
		}
		*f.dst = v
	}
	return d, nil
}
