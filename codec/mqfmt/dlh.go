package mqfmt

import "encoding/binary"

// DLH is the dead-letter header (MQDLH, version 1, 172 bytes) that a queue
// manager, channel or trigger monitor puts in front of a message it moves to the
// dead-letter queue. Its Encoding, CodedCharSetId and Format describe the data
// after it (the original message), which is what a requeue restores into the
// MQMD (docs/poison-rules.md R10b).
//
// Character fields hold the field's characters, NULs and padding included:
// trigger monitors pad PutApplName with NULs rather than blanks, and a requeue
// must not silently change them. In ASCII-based code pages they are the raw
// bytes; EBCDIC ones are decoded (see DecodeDLHCCSID). Use Trim to display
// them.
type DLH struct {
	Version        int32
	Reason         Reason // MQRC_* or MQFB_* code saying why the message is here
	DestQName      string // 48: the queue the message was meant for
	DestQMgrName   string // 48
	Encoding       Encoding
	CodedCharSetId int32
	Format         string // 8
	PutApplType    int32
	PutApplName    string // 28: who put it on the dead-letter queue
	PutDate        string // 8, YYYYMMDD
	PutTime        string // 8, HHMMSSTH
}

// NewDLH returns a DLH with IBM's MQDLH_DEFAULT values.
func NewDLH() DLH {
	return DLH{Version: 1, Format: FmtNone}
}

// DecodeDLH reads an MQDLH at b[off:] whose character set is not known: its
// StrucId tells ASCII from EBCDIC, and EBCDIC fields are read as CCSID 37
// (which has every character of a queue name where all Latin EBCDIC code
// pages have it). Prefer DecodeDLHCCSID when the MQMD is at hand.
func DecodeDLH(b []byte, off int, bo binary.ByteOrder) (DLH, error) {
	return DecodeDLHCCSID(b, off, bo, 0)
}

// DecodeDLHCCSID reads an MQDLH at b[off:]. Its integers are in the byte order
// that the preceding structure's Encoding gives and its character fields in
// the CCSID that structure names (the MQMD's for a message on a dead-letter
// queue), as IBM defines (MQDLH - Dead letter header); the decoded fields are
// text. Error offsets are absolute in b.
func DecodeDLHCCSID(b []byte, off int, bo binary.ByteOrder, ccsid int32) (DLH, error) {
	var d DLH
	cs, err := checkHeader("MQDLH", b, off, DLHLen, StrucIdDLH, ccsid)
	if err != nil {
		return d, err
	}
	v := newFixedView(b[off:off+DLHLen], bo)
	v.pos, v.cs = 4, cs
	d.Version = v.i32()
	if d.Version != 1 {
		return DLH{}, versionErr("MQDLH", off+4, d.Version, "1")
	}
	d.Reason = Reason(v.i32())
	d.DestQName, d.DestQMgrName = v.str(48), v.str(48)
	d.Encoding, d.CodedCharSetId = Encoding(v.i32()), v.i32()
	d.Format = v.str(8)
	d.PutApplType = v.i32()
	d.PutApplName, d.PutDate, d.PutTime = v.str(28), v.str(8), v.str(8)
	return d, nil
}

// DetectDLHOrder tells the byte order of an MQDLH at b[off:] that no MQMD
// describes (a saved file), from its Version (1, or 0x01000000 read wrongly).
func DetectDLHOrder(b []byte, off int) (binary.ByteOrder, error) {
	return detectOrderByVersion("MQDLH", b, off, StrucIdDLH, 1)
}

// Encode writes the 172-byte MQDLH in byte order bo with ASCII character
// fields. Character fields longer than their field are cut, shorter ones
// blank padded.
func (d *DLH) Encode(bo binary.ByteOrder) []byte {
	return d.AppendEncode(make([]byte, 0, DLHLen), bo)
}

// AppendEncode appends the MQDLH, ASCII character fields, to dst.
func (d *DLH) AppendEncode(dst []byte, bo binary.ByteOrder) []byte {
	b, _ := encodeIn("MQDLH", dst, bo, 0, d.write) // ASCII bytes cannot fail
	return b
}

// AppendEncodeCCSID appends the MQDLH with its StrucId and character fields
// in ccsid, the CodedCharSetId the MQMD in front of it will carry. A
// character the code page lacks is an error.
func (d *DLH) AppendEncodeCCSID(dst []byte, bo binary.ByteOrder, ccsid int32) ([]byte, error) {
	return encodeIn("MQDLH", dst, bo, ccsid, d.write)
}

func (d *DLH) write(w *writer) {
	w.str(StrucIdDLH, 4)
	w.i32(d.Version)
	w.i32(int32(d.Reason))
	w.str(d.DestQName, 48)
	w.str(d.DestQMgrName, 48)
	w.i32(int32(d.Encoding))
	w.i32(d.CodedCharSetId)
	w.str(d.Format, 8)
	w.i32(d.PutApplType)
	w.str(d.PutApplName, 28)
	w.str(d.PutDate, 8)
	w.str(d.PutTime, 8)
}
