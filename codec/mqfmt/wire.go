package mqfmt

import (
	"encoding/binary"
	"fmt"
)

// reader walks a fixed-layout structure. Bounds are checked once by the caller
// (the structure's full length), so the accessors do not re-check.
type reader struct {
	b   []byte
	bo  binary.ByteOrder
	pos int
	cs  *charCodec // nil: the bytes are the text; else an EBCDIC code page
}

func (r *reader) i32() int32 {
	v := int32(r.bo.Uint32(r.b[r.pos:]))
	r.pos += 4
	return v
}

// str returns the raw bytes of a character field as a string, NULs and padding
// included, so that encoding it again reproduces the input exactly.
func (r *reader) str(n int) string {
	v := r.cs.text(r.b[r.pos : r.pos+n])
	r.pos += n
	return v
}

func (r *reader) bytes(dst []byte) {
	r.pos += copy(dst, r.b[r.pos:r.pos+len(dst)])
}

// writer appends a fixed-layout structure. With an EBCDIC codec cs, a
// character that code page lacks is written as its byte 0 and err keeps the
// first such error for the caller to return.
type writer struct {
	b   []byte
	bo  binary.ByteOrder
	cs  *charCodec
	err error
}

func (w *writer) i32(v int32) {
	var tmp [4]byte
	w.bo.PutUint32(tmp[:], uint32(v))
	w.b = append(w.b, tmp[:]...)
}

// str writes s into an n-byte character field: cut at n, padded with blanks as
// the MQI pads character fields.
func (w *writer) str(s string, n int) {
	var err error
	w.b, err = w.cs.field(w.b, s, n)
	if w.err == nil {
		w.err = err
	}
}

func (w *writer) bytes(p []byte) { w.b = append(w.b, p...) }

// encodeIn appends a fixed header that write lays out, its character fields
// in ccsid; strc names the header in the error for a character the code page
// lacks.
func encodeIn(strc string, dst []byte, bo binary.ByteOrder, ccsid int32, write func(*writer)) ([]byte, error) {
	w := writer{b: dst, bo: bo, cs: codecFor(ccsid)}
	write(&w)
	if w.err != nil {
		return dst, fmt.Errorf("%s in CCSID %d: %w", strc, ccsid, w.err)
	}
	return w.b, nil
}
