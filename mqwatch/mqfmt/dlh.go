package mqfmt

import "encoding/binary"

// DLH is the dead-letter header (MQDLH, version 1, 172 bytes) that a queue
// manager, channel or trigger monitor puts in front of a message it moves to the
// dead-letter queue. Its Encoding, CodedCharSetId and Format describe the data
// after it (the original message), which is what a requeue restores into the
// MQMD (POISON-RULES R10b).
//
// Character fields keep their raw bytes: trigger monitors pad PutApplName with
// NULs rather than blanks, and a requeue must not silently change them. Use
// Trim to display them.
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

// DecodeDLH reads an MQDLH at b[off:]. Its integers are in the byte order that
// the preceding structure's Encoding gives (the MQMD's for a message on a
// dead-letter queue); error offsets are absolute in b.
func DecodeDLH(b []byte, off int, bo binary.ByteOrder) (DLH, error) {
	var d DLH
	if err := checkHeaderStart("MQDLH", b, off, DLHLen, StrucIdDLH); err != nil {
		return d, err
	}
	v := newFixedView(b[off:off+DLHLen], bo)
	v.pos = 4
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

// Encode writes the 172-byte MQDLH in byte order bo. Character fields longer
// than their field are cut, shorter ones blank padded.
func (d *DLH) Encode(bo binary.ByteOrder) []byte {
	return d.AppendEncode(make([]byte, 0, DLHLen), bo)
}

// AppendEncode appends the encoded MQDLH to dst.
func (d *DLH) AppendEncode(dst []byte, bo binary.ByteOrder) []byte {
	w := writer{b: dst, bo: bo}
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
	return w.b
}
