package mqfmt

import "encoding/binary"

// MDE is the message descriptor extension (MQMDE, version 2, 72 bytes): the
// version-2 MQMD fields (group and segment information) carried as message
// data. It appears mostly after an MQXQH on a transmission queue, announced by
// Format MQHMDE in the embedded descriptor.
type MDE struct {
	Version        int32
	StrucLength    int32
	Encoding       Encoding
	CodedCharSetId int32
	Format         string // 8
	Flags          int32
	GroupId        [24]byte
	MsgSeqNumber   int32
	Offset         int32
	MsgFlags       int32
	OriginalLength int32
}

// NewMDE returns an MDE with IBM's MQMDE_DEFAULT values.
func NewMDE() MDE {
	return MDE{Version: 2, StrucLength: MDELen, Format: FmtNone, MsgSeqNumber: 1, OriginalLength: -1}
}

// DecodeMDE reads an MQMDE at b[off:] whose character set is not known
// beyond its StrucId (see DecodeDLH).
func DecodeMDE(b []byte, off int, bo binary.ByteOrder) (MDE, error) {
	return DecodeMDECCSID(b, off, bo, 0)
}

// DecodeMDECCSID reads an MQMDE at b[off:] in byte order bo and character
// set ccsid, both from the preceding structure.
func DecodeMDECCSID(b []byte, off int, bo binary.ByteOrder, ccsid int32) (MDE, error) {
	var m MDE
	cs, err := checkHeader("MQMDE", b, off, MDELen, StrucIdMDE, ccsid)
	if err != nil {
		return m, err
	}
	v := newFixedView(b[off:off+MDELen], bo)
	v.cs = cs
	v.pos = 4
	m.Version, m.StrucLength = v.i32(), v.i32()
	if m.Version != 2 {
		return MDE{}, versionErr("MQMDE", off+4, m.Version, "2")
	}
	if m.StrucLength != MDELen {
		return MDE{}, decodeErr("MQMDE", off+8, "StrucLength %d, want %d (MQMDE_LENGTH_2)", m.StrucLength, MDELen)
	}
	m.Encoding, m.CodedCharSetId = Encoding(v.i32()), v.i32()
	m.Format = v.str(8)
	m.Flags = v.i32()
	v.bytes(m.GroupId[:])
	m.MsgSeqNumber, m.Offset, m.MsgFlags, m.OriginalLength = v.i32(), v.i32(), v.i32(), v.i32()
	return m, nil
}

// Encode writes the 72-byte MQMDE in byte order bo, ASCII Format.
func (m *MDE) Encode(bo binary.ByteOrder) []byte {
	return m.AppendEncode(make([]byte, 0, MDELen), bo)
}

// AppendEncode appends the encoded MQMDE, ASCII Format, to dst.
func (m *MDE) AppendEncode(dst []byte, bo binary.ByteOrder) []byte {
	b, _ := encodeIn("MQMDE", dst, bo, 0, m.write) // ASCII bytes cannot fail
	return b
}

// AppendEncodeCCSID appends the MQMDE with StrucId and Format in ccsid.
func (m *MDE) AppendEncodeCCSID(dst []byte, bo binary.ByteOrder, ccsid int32) ([]byte, error) {
	return encodeIn("MQMDE", dst, bo, ccsid, m.write)
}

func (m *MDE) write(w *writer) {
	w.str(StrucIdMDE, 4)
	w.i32(m.Version)
	w.i32(m.StrucLength)
	w.i32(int32(m.Encoding))
	w.i32(m.CodedCharSetId)
	w.str(m.Format, 8)
	w.i32(m.Flags)
	w.bytes(m.GroupId[:])
	for _, x := range [...]int32{m.MsgSeqNumber, m.Offset, m.MsgFlags, m.OriginalLength} {
		w.i32(x)
	}
}
