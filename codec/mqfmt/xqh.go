package mqfmt

import (
	"encoding/binary"
	"errors"
)

// XQH is the transmission-queue header (MQXQH, version 1, 428 bytes) in front
// of every message on a transmission queue. It names where the message is going
// and embeds the message's own descriptor as a version-1 MQMD (MQMD1, 324
// bytes); version-2 MQMD fields travel in an MQMDE after it, which that
// embedded descriptor's Format announces.
type XQH struct {
	Version        int32
	RemoteQName    string // 48
	RemoteQMgrName string // 48
	// MsgDesc is the original message descriptor. Only its version-1 fields
	// come from the wire; GroupId through OriginalLength hold MQMD defaults.
	MsgDesc MQMD
}

// XQHMsgDescOffset is where the embedded MQMD1 starts inside an MQXQH.
const XQHMsgDescOffset = 104

// DecodeXQH reads an MQXQH at b[off:] whose character set is not known
// beyond its StrucId (see DecodeDLH).
func DecodeXQH(b []byte, off int, bo binary.ByteOrder) (XQH, error) {
	return DecodeXQHCCSID(b, off, bo, 0)
}

// DecodeXQHCCSID reads an MQXQH at b[off:] with its integers (the embedded
// MQMD's included) in byte order bo and its character fields (the embedded
// MQMD's included) in ccsid, as the preceding structure gives them; IBM
// writes an MQXQH in the queue manager's character set and says so in the
// MQMD in front of it.
func DecodeXQHCCSID(b []byte, off int, bo binary.ByteOrder, ccsid int32) (XQH, error) {
	var x XQH
	cs, err := checkHeader("MQXQH", b, off, XQHLen, StrucIdXQH, ccsid)
	if err != nil {
		return x, err
	}
	v := newFixedView(b[off:off+XQHMsgDescOffset], bo)
	v.pos, v.cs = 4, cs
	x.Version = v.i32()
	if x.Version != 1 {
		return XQH{}, versionErr("MQXQH", off+4, x.Version, "1")
	}
	x.RemoteQName, x.RemoteQMgrName = v.str(48), v.str(48)
	md, err := decodeMQMD1(b[off+XQHMsgDescOffset:off+XQHLen], bo, cs)
	if err != nil {
		return XQH{}, rebaseDecodeErr(err, "MQXQH.MsgDesc", off+XQHMsgDescOffset)
	}
	x.MsgDesc = md
	return x, nil
}

// DetectXQHOrder tells the byte order of an MQXQH at b[off:] that no MQMD
// describes, from its Version.
func DetectXQHOrder(b []byte, off int) (binary.ByteOrder, error) {
	return detectOrderByVersion("MQXQH", b, off, StrucIdXQH, 1)
}

// Encode writes the 428-byte MQXQH in byte order bo with ASCII character
// fields; the embedded descriptor is written as a version-1 MQMD whatever its
// Version field says.
func (x *XQH) Encode(bo binary.ByteOrder) []byte {
	return x.AppendEncode(make([]byte, 0, XQHLen), bo)
}

// AppendEncode appends the encoded MQXQH, ASCII character fields, to dst.
func (x *XQH) AppendEncode(dst []byte, bo binary.ByteOrder) []byte {
	b, _ := encodeIn("MQXQH", dst, bo, 0, x.write) // ASCII bytes cannot fail
	return b
}

// AppendEncodeCCSID appends the MQXQH with every character field, the
// embedded MQMD's included, in ccsid; a character the code page lacks is an
// error.
func (x *XQH) AppendEncodeCCSID(dst []byte, bo binary.ByteOrder, ccsid int32) ([]byte, error) {
	return encodeIn("MQXQH", dst, bo, ccsid, x.write)
}

func (x *XQH) write(w *writer) {
	w.str(StrucIdXQH, 4)
	w.i32(x.Version)
	w.str(x.RemoteQName, 48)
	w.str(x.RemoteQMgrName, 48)
	start := len(w.b)
	x.MsgDesc.write(w)
	w.b = w.b[:start+MQMDLenV1]
}

// decodeMQMD1 decodes a version-1 MQMD (324 bytes) by completing it with the
// version-2 defaults and reading it as a full MQMD, so both layouts share one
// field list. b must hold exactly MQMDLenV1 bytes.
func decodeMQMD1(b []byte, bo binary.ByteOrder, cs *charCodec) (MQMD, error) {
	var full [MQMDLenV2]byte
	copy(full[:], b)
	def := NewMQMD()
	tail := full[MQMDLenV1+24:] // after GroupId, which defaults to nulls
	for i, v := range []int32{def.MsgSeqNumber, def.Offset, def.MsgFlags, def.OriginalLength} {
		bo.PutUint32(tail[4*i:], uint32(v))
	}
	return decodeMQMD(full[:], bo, cs)
}

// rebaseDecodeErr moves a DecodeError raised on a sub-slice to absolute
// offsets in the enclosing buffer and names the enclosing structure.
func rebaseDecodeErr(err error, strc string, base int) error {
	var de *DecodeError
	if !errors.As(err, &de) {
		return err
	}
	return &DecodeError{Struct: strc, Offset: base + de.Offset, Msg: de.Msg, Err: de.Err}
}
