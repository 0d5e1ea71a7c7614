package embedded

import (
	"encoding/binary"

	"github.com/poisonwatch/poisonwatch/codec/mqfmt"
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
// manager's CCSID), and the MQXQH is written in that CCSID, EBCDIC for an
// EBCDIC queue manager, as IBM defines (MQXQH - Transmission-queue header). A
// character the CCSID lacks is written as byte 0: names the MQI accepted are
// always representable.
func (qm *QMgr) wrapXmit(md mqfmt.MQMD, data []byte, remoteQ, remoteQMgr string) (mqfmt.MQMD, []byte) {
	x := mqfmt.XQH{Version: 1, RemoteQName: remoteQ, RemoteQMgrName: remoteQMgr, MsgDesc: md}
	x.MsgDesc.Version = 1
	buf, _ := x.AppendEncodeCCSID(make([]byte, 0, xqhLen+len(data)), nativeOrder, qm.attrs.ccsid)
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
// puts on a transmission queue with native encoding) in ccsid, the
// transmission message's MQMD CodedCharSetId. The inner MQMD is the 324-byte
// version-1 layout, so the group fields take their defaults.
func unwrapXmit(b []byte, ccsid int32) (xmitMessage, error) {
	var x xmitMessage
	h, err := mqfmt.DecodeXQHCCSID(b, 0, nativeOrder, ccsid)
	if err != nil {
		return x, err
	}
	x.remoteQ, x.remoteQMgr = mqfmt.Trim(h.RemoteQName), mqfmt.Trim(h.RemoteQMgrName)
	x.md, x.data = h.MsgDesc, b[xqhLen:]
	x.md.Version = 2
	return x, nil
}

// deadLetter builds a dead-letter queue message as a receiving channel (MCA)
// writes it: an MQDLH with the reason, the destination, the original
// Encoding, CodedCharSetId and Format, PutApplType MQAT_UNIX, PutApplName
// "amqrmppa" and the time, in front of the original data. The MQMD keeps the
// original context and describes the MQDLH (Format MQDEAD), which is in the
// queue manager's CCSID and native encoding.
func (qm *QMgr) deadLetter(md mqfmt.MQMD, data []byte, rc mqfmt.Reason, destQ, destQMgr, putAppl string) (mqfmt.MQMD, []byte) {
	d := mqfmt.NewDLH()
	d.Reason, d.DestQName, d.DestQMgrName = rc, destQ, destQMgr
	d.Encoding, d.CodedCharSetId, d.Format = md.Encoding, md.CodedCharSetId, md.Format
	d.PutApplType, d.PutApplName = mqfmt.ATUnix, putAppl
	d.PutDate, d.PutTime = putDateTime(qm.now())
	buf, _ := d.AppendEncodeCCSID(make([]byte, 0, dlhLen+len(data)), nativeOrder, qm.attrs.ccsid)
	buf = append(buf, data...)
	dmd := md
	dmd.Format = mqfmt.FmtDeadLetter
	dmd.Encoding = mqfmt.EncodingNative
	dmd.CodedCharSetId = qm.attrs.ccsid
	dmd.BackoutCount = 0
	return dmd, buf
}
