package mqfmt

import (
	"encoding/binary"
	"strings"
)

// MQMD sizes: version 1 ends after ApplOriginData; version 2 adds the group fields.
const (
	MQMDLenV1 = 324
	MQMDLenV2 = 364
)

// StrucIdMD is the MQMD's eye-catcher.
const StrucIdMD = "MD  "

// MQMD is the message descriptor, version 2. Character fields hold the raw field
// bytes (blank padding and any NULs kept) so that Encode(Decode(b)) == b; use
// Trim or the display helpers to show them.
type MQMD struct {
	Version          int32
	Report           int32
	MsgType          int32
	Expiry           int32 // tenths of a second; -1 = unlimited
	Feedback         int32
	Encoding         Encoding
	CodedCharSetId   int32
	Format           string // 8 chars, e.g. "MQSTR   "
	Priority         int32
	Persistence      int32
	MsgId            [24]byte
	CorrelId         [24]byte
	BackoutCount     int32
	ReplyToQ         string // 48
	ReplyToQMgr      string // 48
	UserIdentifier   string // 12
	AccountingToken  [32]byte
	ApplIdentityData string // 32
	PutApplType      int32
	PutApplName      string // 28
	PutDate          string // 8, YYYYMMDD in GMT
	PutTime          string // 8, HHMMSSTH in GMT
	ApplOriginData   string // 4
	GroupId          [24]byte
	MsgSeqNumber     int32
	Offset           int32
	MsgFlags         int32
	OriginalLength   int32
}

// NewMQMD returns an MQMD with the MQI's MQMD_DEFAULT values.
func NewMQMD() MQMD {
	return MQMD{
		Version:        2,
		MsgType:        MTDatagram,
		Expiry:         -1,
		Encoding:       EncodingNative,
		CodedCharSetId: 0, // MQCCSI_Q_MGR
		Format:         FmtNone,
		Priority:       -1, // MQPRI_PRIORITY_AS_Q_DEF
		Persistence:    2,  // MQPER_PERSISTENCE_AS_Q_DEF
		MsgSeqNumber:   1,
		OriginalLength: -1,
	}
}

// DecodeMQMD reads an MQMD from the start of b using byte order bo. An MQMD
// carries no self-describing byte order (its Encoding field describes the data
// that follows), so the caller says which one the bytes were written in; use
// DetectMQMDOrder when it is unknown. The full 364-byte layout is read whatever
// Version says, because tools that save messages write version-2 layouts with
// Version 1 (see the corpus' RFH2.msg); Version is kept as found.
func DecodeMQMD(b []byte, bo binary.ByteOrder) (MQMD, error) {
	return decodeMQMD(b, bo, nil)
}

// decodeMQMD reads an MQMD whose character fields are in cs (an MQXQH's
// embedded descriptor is in the MQXQH's character set).
func decodeMQMD(b []byte, bo binary.ByteOrder, cs *charCodec) (MQMD, error) {
	var md MQMD
	if len(b) < MQMDLenV2 {
		return md, truncErr("MQMD", 0, MQMDLenV2, len(b))
	}
	if want := cs.strucIdBytes(StrucIdMD); string(b[:4]) != want {
		return md, decodeErr("MQMD", 0, "StrucId %q, want %q", sanitizeShort(b[:4]), StrucIdMD)
	}
	r := reader{b: b, bo: bo, pos: 4, cs: cs}
	md.Version = r.i32()
	if md.Version < 1 || md.Version > 2 {
		return md, decodeErr("MQMD", 4, "Version %d, want 1 or 2", md.Version)
	}
	md.Report, md.MsgType, md.Expiry, md.Feedback = r.i32(), r.i32(), r.i32(), r.i32()
	md.Encoding, md.CodedCharSetId = Encoding(r.i32()), r.i32()
	md.Format = r.str(8)
	md.Priority, md.Persistence = r.i32(), r.i32()
	r.bytes(md.MsgId[:])
	r.bytes(md.CorrelId[:])
	md.BackoutCount = r.i32()
	md.ReplyToQ, md.ReplyToQMgr, md.UserIdentifier = r.str(48), r.str(48), r.str(12)
	r.bytes(md.AccountingToken[:])
	md.ApplIdentityData = r.str(32)
	md.PutApplType = r.i32()
	md.PutApplName, md.PutDate, md.PutTime, md.ApplOriginData = r.str(28), r.str(8), r.str(8), r.str(4)
	r.bytes(md.GroupId[:])
	md.MsgSeqNumber, md.Offset, md.MsgFlags, md.OriginalLength = r.i32(), r.i32(), r.i32(), r.i32()
	return md, nil
}

// DetectMQMDOrder guesses the byte order of a saved MQMD from its Version field,
// which is 1 or 2 in the right order and 0x01000000 or 0x02000000 in the wrong one.
func DetectMQMDOrder(b []byte) (binary.ByteOrder, error) {
	if len(b) < 8 {
		return nil, truncErr("MQMD", 0, 8, len(b))
	}
	if v := binary.LittleEndian.Uint32(b[4:]); v == 1 || v == 2 {
		return binary.LittleEndian, nil
	}
	if v := binary.BigEndian.Uint32(b[4:]); v == 1 || v == 2 {
		return binary.BigEndian, nil
	}
	return nil, decodeErr("MQMD", 4, "Version is neither 1 nor 2 in either byte order")
}

// Encode writes the full 364-byte layout in byte order bo.
func (md *MQMD) Encode(bo binary.ByteOrder) []byte {
	w := writer{b: make([]byte, 0, MQMDLenV2), bo: bo}
	md.write(&w)
	return w.b
}

// write appends the full layout with w's character set.
func (md *MQMD) write(w *writer) {
	w.str(StrucIdMD, 4)
	for _, v := range []int32{md.Version, md.Report, md.MsgType, md.Expiry, md.Feedback, int32(md.Encoding), md.CodedCharSetId} {
		w.i32(v)
	}
	w.str(md.Format, 8)
	w.i32(md.Priority)
	w.i32(md.Persistence)
	w.bytes(md.MsgId[:])
	w.bytes(md.CorrelId[:])
	w.i32(md.BackoutCount)
	w.str(md.ReplyToQ, 48)
	w.str(md.ReplyToQMgr, 48)
	w.str(md.UserIdentifier, 12)
	w.bytes(md.AccountingToken[:])
	w.str(md.ApplIdentityData, 32)
	w.i32(md.PutApplType)
	w.str(md.PutApplName, 28)
	w.str(md.PutDate, 8)
	w.str(md.PutTime, 8)
	w.str(md.ApplOriginData, 4)
	w.bytes(md.GroupId[:])
	for _, v := range []int32{md.MsgSeqNumber, md.Offset, md.MsgFlags, md.OriginalLength} {
		w.i32(v)
	}
}

// Trim returns a character field as an operator reads it: cut at the first NUL,
// trailing blanks removed. It does not sanitise; see Sanitize.
func Trim(s string) string {
	if i := strings.IndexByte(s, 0); i >= 0 {
		s = s[:i]
	}
	return strings.TrimRight(s, " ")
}
