package mqfmt

import (
	"encoding/binary"
	"fmt"
	"math"
)

// RFH2 is a rules and formatting header, version 2 (MQRFH2): a 36-byte fixed
// part followed by NameValueLength/NameValueData pairs, each holding one folder
// of XML-like name/value data (jms, mcd, usr, mqps, ...). JMS messages carry
// their properties in it, and a BOQ move adds one to messages that had none
// (docs/poison-rules.md R5b).
//
// The header's integers are in the byte order of the structure before it (the
// MQMD or another header): its own Encoding, CodedCharSetId and Format describe
// the data after it.
type RFH2 struct {
	Version        int32
	StrucLength    int32 // as found; Encode recomputes it from the folders
	Encoding       Encoding
	CodedCharSetId int32
	Format         string // 8
	Flags          int32
	NameValueCCSID int32 // character set of every folder: 1208 or a UTF-16 CCSID
	Folders        []Folder
}

// NameValueCCSIDs IBM allows for folder data; any other value makes the
// queue manager reject the header.
const (
	NVCCSIDUTF8     = 1208
	NVCCSIDUTF16    = 1200
	NVCCSIDUCS2v2   = 13488
	NVCCSIDUTF16v30 = 17584
)

// NewRFH2 returns a version-2 header with no flags and UTF-8 folders whose
// Encoding, CodedCharSetId and Format describe the data that will follow it:
// for a BOQ move (R5b) these are the message's original MQMD values. Add
// folders with NewFolder; Encode pads them and computes StrucLength.
func NewRFH2(enc Encoding, ccsid int32, format string, folders ...Folder) RFH2 {
	return RFH2{
		Version:        2,
		StrucLength:    RFH2FixedLen,
		Encoding:       enc,
		CodedCharSetId: ccsid,
		Format:         format8(format),
		NameValueCCSID: NVCCSIDUTF8,
		Folders:        folders,
	}
}

// DetectRFH2Order tells the byte order of an MQRFH2 at b[off:] that nothing in
// front of it describes (a saved header without its MQMD). Version 2 reads as
// 0x02000000 in the wrong order; the StrucLength read in the chosen order must
// also be plausible, so that a random "RFH " in a body is not taken for one.
func DetectRFH2Order(b []byte, off int) (binary.ByteOrder, error) {
	if _, err := checkHeader("MQRFH2", b, off, 12, StrucIdRFH, 0); err != nil {
		return nil, err
	}
	for _, bo := range []binary.ByteOrder{binary.BigEndian, binary.LittleEndian} {
		if bo.Uint32(b[off+4:]) != 2 {
			continue
		}
		n := int32(bo.Uint32(b[off+8:]))
		if n < RFH2FixedLen || n%4 != 0 || n > MaxMsgLength {
			return nil, decodeErr("MQRFH2", off+8, "StrucLength %d is not a plausible MQRFH2 length", n)
		}
		return bo, nil
	}
	return nil, decodeErr("MQRFH2", off+4, "Version is 2 in neither byte order")
}

// DecodeRFH2 reads an MQRFH2 at b[off:] whose integers are in byte order bo
// (from the preceding structure's Encoding) and parses every folder. Error
// offsets are absolute in b.
//
// When StrucLength runs past the end of b (a browse that returned a bounded
// prefix, or a cut file) it returns the fixed part and every folder that was
// whole, with an error wrapping ErrTruncated. StrucLength is only compared
// with len(b), never used to allocate.
func DecodeRFH2(b []byte, off int, bo binary.ByteOrder) (RFH2, error) {
	return DecodeRFH2CCSID(b, off, bo, 0)
}

// DecodeRFH2CCSID is DecodeRFH2 with the fixed part's StrucId and Format in
// ccsid, the character set the preceding structure names; the folders are in
// NameValueCCSID whatever ccsid is.
func DecodeRFH2CCSID(b []byte, off int, bo binary.ByteOrder, ccsid int32) (RFH2, error) {
	var r RFH2
	cs, err := checkHeader("MQRFH2", b, off, RFH2FixedLen, StrucIdRFH, ccsid)
	if err != nil {
		return r, err
	}
	v := fixedView{b: b[off : off+RFH2FixedLen], bo: bo, pos: 4}
	r.Version, r.StrucLength = v.i32(), v.i32()
	if r.Version != 2 {
		return RFH2{}, versionErr("MQRFH2", off+4, r.Version, "2")
	}
	switch {
	case r.StrucLength < RFH2FixedLen:
		return RFH2{}, decodeErr("MQRFH2", off+8, "StrucLength %d is shorter than the %d-byte fixed part", r.StrucLength, RFH2FixedLen)
	case r.StrucLength%4 != 0:
		return RFH2{}, decodeErr("MQRFH2", off+8, "StrucLength %d is not a multiple of 4", r.StrucLength)
	}
	r.Encoding, r.CodedCharSetId = Encoding(v.i32()), v.i32()
	// One string holds the header's character data: Format, and every
	// folder with its UTF-8 names and values, are substrings of it.
	hdr := string(b[off : off+min(int(r.StrucLength), len(b)-off)])
	r.Format = hdr[20:28]
	if cs != nil {
		r.Format = cs.text(b[off+20 : off+28])
	}
	v.pos = 28
	r.Flags, r.NameValueCCSID = v.i32(), v.i32()
	err = r.decodeFolders(b, off, bo, hdr)
	return r, err
}

// decodeFolders walks the NameValueLength/NameValueData pairs between the
// fixed part and StrucLength.
func (r *RFH2) decodeFolders(b []byte, off int, bo binary.ByteOrder, hdr string) error {
	end := off + int(r.StrucLength)
	pos := off + RFH2FixedLen
	if pos < end && !validNVCCSID(r.NameValueCCSID) {
		return decodeErr("MQRFH2", off+32, "NameValueCCSID %d is none of 1208, 1200, 13488, 17584", r.NameValueCCSID)
	}
	r.Folders = make([]Folder, 0, countFolders(b, pos, end, bo))
	sc := getFolderScanner()
	defer putFolderScanner(sc)
	for pos < end {
		if len(b)-pos < 4 {
			return r.truncated(b, off, pos)
		}
		n := int32(bo.Uint32(b[pos:]))
		switch {
		case n < 0:
			return decodeErr("MQRFH2", pos, "NameValueLength %d is negative", n)
		case n%4 != 0:
			return decodeErr("MQRFH2", pos, "NameValueLength %d is not a multiple of 4", n)
		case int64(n) > int64(end-pos-4):
			return decodeErr("MQRFH2", pos, "NameValueLength %d exceeds the %d bytes StrucLength %d leaves", n, end-pos-4, r.StrucLength)
		}
		if len(r.Folders) == MaxRFH2Folders {
			return decodeErr("MQRFH2", pos, "more than %d folders in one MQRFH2", MaxRFH2Folders)
		}
		data := pos + 4
		if len(b)-data < int(n) {
			return r.truncated(b, off, pos)
		}
		raw := hdr[data-off : data-off+int(n)]
		f, err := sc.parseFolder(raw, b[data:data+int(n)], data, r.NameValueCCSID, bo)
		if err != nil {
			return err
		}
		r.Folders = append(r.Folders, f)
		pos = data + int(n)
	}
	return nil
}

// countFolders counts the well-formed length prefixes between pos and end (at
// most MaxRFH2Folders), to size the folder slice once; decodeFolders does the
// checking.
func countFolders(b []byte, pos, end int, bo binary.ByteOrder) int {
	n := 0
	for pos+4 <= min(end, len(b)) && n < MaxRFH2Folders {
		l := int32(bo.Uint32(b[pos:]))
		if l < 0 || int64(l) > int64(end-pos-4) {
			break
		}
		n++
		pos += 4 + int(l)
	}
	return n
}

// truncated reports that StrucLength promised more bytes than b holds; the
// folders decoded so far stay in r.
func (r *RFH2) truncated(b []byte, off, at int) error {
	return &DecodeError{Struct: "MQRFH2", Offset: at, Err: ErrTruncated,
		Msg: fmt.Sprintf("truncated: StrucLength %d ends at byte %d but the data ends at byte %d", r.StrucLength, off+int(r.StrucLength), len(b))}
}

func validNVCCSID(c int32) bool {
	switch c {
	case NVCCSIDUTF8, NVCCSIDUTF16, NVCCSIDUCS2v2, NVCCSIDUTF16v30:
		return true
	}
	return false
}

// Encode writes the header in byte order bo. Folders that were decoded are
// written back byte for byte; folders built or edited in Go (Raw empty) are
// serialised in NameValueCCSID and blank padded to a multiple of 4. StrucLength
// is computed, so Encode(DecodeRFH2(b)) == b[:StrucLength].
func (r *RFH2) Encode(bo binary.ByteOrder) ([]byte, error) {
	n := RFH2FixedLen
	for i := range r.Folders {
		n += 4 + len(r.Folders[i].Raw)
	}
	return r.AppendEncode(make([]byte, 0, n), bo)
}

// AppendEncode appends the encoded header, fixed part in ASCII, to dst.
func (r *RFH2) AppendEncode(dst []byte, bo binary.ByteOrder) ([]byte, error) {
	return r.AppendEncodeCCSID(dst, bo, 0)
}

// AppendEncodeCCSID appends the encoded header with the fixed part's StrucId
// and Format in ccsid, the character set the structure before it names.
func (r *RFH2) AppendEncodeCCSID(dst []byte, bo binary.ByteOrder, ccsid int32) ([]byte, error) {
	if err := checkFormatField("MQRFH2", r.Format); err != nil {
		return dst, err
	}
	start := len(dst)
	w := writer{b: dst, bo: bo, cs: codecFor(ccsid)}
	w.str(StrucIdRFH, 4)
	for _, x := range [...]int32{r.Version, 0, int32(r.Encoding), r.CodedCharSetId} {
		w.i32(x)
	}
	w.str(r.Format, 8)
	w.i32(r.Flags)
	w.i32(r.NameValueCCSID)
	if w.err != nil {
		return dst, fmt.Errorf("MQRFH2 in CCSID %d: %w", ccsid, w.err)
	}
	var err error
	for i := range r.Folders {
		if w.b, err = r.Folders[i].appendNameValue(w.b, r.NameValueCCSID, bo); err != nil {
			return dst, err
		}
	}
	n := len(w.b) - start
	if n > math.MaxInt32 {
		return dst, fmt.Errorf("MQRFH2: %d bytes do not fit StrucLength", n)
	}
	bo.PutUint32(w.b[start+8:], uint32(n))
	return w.b, nil
}

// Folder returns the first folder called name, or nil. The result's methods
// accept nil, so rfh.Folder("jms").Get("Dst") is safe when there is no jms
// folder.
func (r *RFH2) Folder(name string) *Folder {
	if r == nil {
		return nil
	}
	for i := range r.Folders {
		if r.Folders[i].Name == name {
			return &r.Folders[i]
		}
	}
	return nil
}

// AddFolder appends a folder, replacing none: IBM allows repeated folder names
// (only usr must be unique), so callers decide.
func (r *RFH2) AddFolder(f Folder) { r.Folders = append(r.Folders, f) }
