package embedded

import (
	"encoding/binary"
	"fmt"

	"github.com/poisonwatch/poisonwatch/mqwatch/mqfmt"
)

// Header layouts the queue manager writes itself. The queue manager writes
// them in its native encoding (little-endian integers, MQENC_NATIVE 546 on
// x86) and says so in the MQMD that precedes them.
const (
	xqhLen = 428 // StrucId 4, Version 4, RemoteQName 48, RemoteQMgrName 48, MQMD v1 324
	dlhLen = 172
)

var nativeOrder = binary.LittleEndian

// wrapXmit builds a transmission queue message: an MQXQH naming the
// destination, carrying the first 324 bytes (the version-1 part) of the
// message's MQMD, then the data. The transmission message's own MQMD copies the
// original but describes the MQXQH (Format MQXMIT, native encoding, the queue
// manager's CCSID).
func (qm *QMgr) wrapXmit(md mqfmt.MQMD, data []byte, remoteQ, remoteQMgr string) (mqfmt.MQMD, []byte) {
	inner := md
	inner.Version = 1
	buf := make([]byte, 0, xqhLen+len(data))
	buf = append(buf, "XQH "...)
	buf = nativeOrder.AppendUint32(buf, 1)
	buf = append(buf, padName(remoteQ, 48)...)
	buf = append(buf, padName(remoteQMgr, 48)...)
	buf = append(buf, inner.Encode(nativeOrder)[:mqfmt.MQMDLenV1]...)
	buf = append(buf, data...)
	xmd := md
	xmd.Format = mqfmt.FmtXmitQHeader
	xmd.Encoding = mqfmt.EncodingNative
	xmd.CodedCharSetId = qm.attrs.ccsid
	return xmd, buf
}

// xmitMessage is a decoded transmission queue message.
type xmitMessage struct {
	remoteQ, remoteQMgr string
	md                  mqfmt.MQMD
	data                []byte
}

// unwrapXmit decodes what wrapXmit built (and what any IBM MQ queue manager
// puts on a transmission queue with native encoding). The inner MQMD is the
// 324-byte version-1 layout, so the group fields take their defaults.
func unwrapXmit(b []byte) (xmitMessage, error) {
	var x xmitMessage
	if len(b) < xqhLen {
		return x, &mqfmt.DecodeError{Struct: "MQXQH", Offset: 0, Err: mqfmt.ErrTruncated,
			Msg: fmt.Sprintf("truncated: needs %d bytes, %d remain", xqhLen, len(b))}
	}
	if string(b[:4]) != "XQH " {
		return x, &mqfmt.DecodeError{Struct: "MQXQH", Offset: 0, Msg: fmt.Sprintf("StrucId %q, want \"XQH \"", b[:4])}
	}
	x.remoteQ = mqfmt.Trim(string(b[8:56]))
	x.remoteQMgr = mqfmt.Trim(string(b[56:104]))
	full := make([]byte, mqfmt.MQMDLenV2)
	copy(full, b[104:104+mqfmt.MQMDLenV1])
	def := mqfmt.NewMQMD()
	copy(full[mqfmt.MQMDLenV1:], def.Encode(nativeOrder)[mqfmt.MQMDLenV1:])
	md, err := mqfmt.DecodeMQMD(full, nativeOrder)
	if err != nil {
		return x, fmt.Errorf("MQXQH at byte 104: %w", err)
	}
	md.Version = 2
	x.md, x.data = md, b[xqhLen:]
	return x, nil
}

// deadLetter builds a dead-letter queue message as a receiving channel (MCA)
// writes it: an MQDLH with the reason, the destination, the original
// Encoding, CodedCharSetId and Format, PutApplType MQAT_UNIX, PutApplName
// "amqrmppa" and the time, in front of the original data. The MQMD keeps the
// original context and describes the MQDLH (Format MQDEAD).
func (qm *QMgr) deadLetter(md mqfmt.MQMD, data []byte, rc mqfmt.Reason, destQ, destQMgr, putAppl string) (mqfmt.MQMD, []byte) {
	now := qm.now()
	buf := make([]byte, 0, dlhLen+len(data))
	buf = append(buf, "DLH "...)
	buf = nativeOrder.AppendUint32(buf, 1)
	buf = nativeOrder.AppendUint32(buf, uint32(rc))
	buf = append(buf, padName(destQ, 48)...)
	buf = append(buf, padName(destQMgr, 48)...)
	buf = nativeOrder.AppendUint32(buf, uint32(md.Encoding))
	buf = nativeOrder.AppendUint32(buf, uint32(md.CodedCharSetId))
	buf = append(buf, padName(md.Format, 8)...)
	buf = nativeOrder.AppendUint32(buf, mqfmt.ATUnix)
	buf = append(buf, padName(putAppl, 28)...)
	date, tm := putDateTime(now)
	buf = append(buf, date...)
	buf = append(buf, tm...)
	buf = append(buf, data...)
	dmd := md
	dmd.Format = mqfmt.FmtDeadLetter
	dmd.Encoding = mqfmt.EncodingNative
	dmd.CodedCharSetId = qm.attrs.ccsid
	dmd.BackoutCount = 0
	return dmd, buf
}
