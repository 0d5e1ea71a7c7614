package actions

import (
	"encoding/binary"
	"fmt"
	"time"

	"github.com/poisonwatch/poisonwatch/codec/mqfmt"
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
// The MQDLH, StrucId included, is written in the MQMD's byte order and code
// page: an EBCDIC message gets an EBCDIC MQDLH. When the Encoding gives no
// integer byte order it is written big-endian and the MQMD says 273 (Java's
// native encoding); when the code page cannot hold queue names in single
// bytes it is written in UTF-8 and the MQMD says 1208, as IBM MQ classes for
// JMS do. BackoutCount becomes 0: MQPUT ignores it.
func ToDeadLetter(md mqfmt.MQMD, data []byte, o DeadLetterOptions) (mqfmt.MQMD, []byte, error) {
	if err := checkExpiry(md.Expiry); err != nil {
		return md, nil, fmt.Errorf("to dead-letter queue: %w", err)
	}
	dlh := newDLH(&md, o)
	bo, err := md.Encoding.ByteOrder()
	if err != nil {
		bo, md.Encoding = binary.BigEndian, mqfmt.EncodingNormal
	}
	ccsid := dlhCCSID(md.CodedCharSetId)
	out := make([]byte, 0, mqfmt.DLHLen+len(data))
	if out, err = dlh.AppendEncodeCCSID(out, bo, ccsid); err != nil {
		return md, nil, fmt.Errorf("to dead-letter queue: %w", err)
	}
	out = append(out, data...)
	md.Format = mqfmt.FmtDeadLetter
	md.BackoutCount = 0
	md.CodedCharSetId = ccsid
	return md, out, nil
}

// newDLH fills the MQDLH for md.
func newDLH(md *mqfmt.MQMD, o DeadLetterOptions) mqfmt.DLH {
	d := mqfmt.NewDLH()
	d.Reason = o.Reason
	d.Encoding, d.CodedCharSetId, d.Format = md.Encoding, md.CodedCharSetId, md.Format
	d.DestQName, d.DestQMgrName = o.DestQName, o.DestQMgrName
	d.PutApplType, d.PutApplName = o.PutApplType, o.PutApplName
	if d.PutApplType == 0 {
		d.PutApplType = ASFPutApplType
	}
	if d.PutApplName == "" {
		d.PutApplName = ASFPutApplName
	}
	d.PutDate, d.PutTime = mqDateTime(nowOr(o.Now))
	return d
}
