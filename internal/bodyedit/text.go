// Package bodyedit turns a message body into text an operator can edit and
// back: text bodies in their CCSID are converted to UTF-8 and back exactly,
// refusing a character the code page cannot hold; anything else is edited
// as an xxd-style hex dump that is parsed back strictly. The round trip of
// an unchanged file gives back the very bytes it came from.
package bodyedit

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"strings"
	"sync"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/poisonwatch/poisonwatch/codec/mqfmt"
)

// Mode is how a body is edited.
type Mode int

// Edit modes.
const (
	Hex  Mode = iota // xxd-style dump, for binary bodies and unknown CCSIDs
	Text             // the body's characters, as UTF-8
)

// String names the mode for the plan.
func (m Mode) String() string {
	if m == Text {
		return "text"
	}
	return "hex"
}

// PosError says where in the edited file a problem is (1-based line and
// column, the column counted in characters).
type PosError struct {
	Line, Col int
	Msg       string
}

func (e *PosError) Error() string { return fmt.Sprintf("line %d, column %d: %s", e.Line, e.Col, e.Msg) }

// Doc is a body prepared for editing.
type Doc struct {
	Mode  Mode
	CCSID int32
	Enc   mqfmt.Encoding
	Text  string // what the editor gets
}

// Open prepares body for editing. A body is edited as text only when its
// CCSID is one this package can write back and the text, written back,
// gives exactly the body's bytes (no byte the code page leaves undefined, no
// byte order quirk); otherwise as hex, which loses nothing.
func Open(body []byte, ccsid int32, enc mqfmt.Encoding) Doc {
	d := Doc{Mode: Hex, CCSID: ccsid, Enc: enc}
	if mqfmt.DecodeBody(body, ccsid, enc).Kind != mqfmt.KindBinary {
		if s, err := mqfmt.DecodeTextEnc(body, ccsid, enc); err == nil {
			if back, err := Encode(s, ccsid, enc); err == nil && bytes.Equal(back, body) {
				d.Mode, d.Text = Text, s
				return d
			}
		}
	}
	d.Text = Dump(body)
	return d
}

// Parse turns the edited text back into the body's bytes.
func (d Doc) Parse(edited string) ([]byte, error) {
	if d.Mode == Text {
		return Encode(edited, d.CCSID, d.Enc)
	}
	return ParseDump(edited)
}

// utf16CCSIDs are the CCSIDs whose characters are UTF-16 code units; 1202
// is always little-endian.
var utf16CCSIDs = map[int32]bool{1200: true, 1202: true, 13488: true, 17584: true}

// ErrCannotWrite says the CCSID is not one whose text can be written back.
var ErrCannotWrite = errors.New("cannot write text in this CCSID")

// Encode writes s in the code page ccsid. A character the code page has no
// byte for is refused with its line and column. UTF-16 is written in the
// byte order enc gives, with a byte order mark only if s starts with one.
func Encode(s string, ccsid int32, enc mqfmt.Encoding) ([]byte, error) {
	if !utf8.ValidString(s) {
		return nil, &PosError{Line: 1, Col: 1, Msg: "the file is not valid UTF-8"}
	}
	switch {
	case ccsid == 1208:
		return []byte(s), nil
	case utf16CCSIDs[ccsid]:
		return encodeUTF16(s, ccsid, enc), nil
	}
	rev, ok := reverseTable(ccsid)
	if !ok {
		return nil, fmt.Errorf("CCSID %d: %w", ccsid, ErrCannotWrite)
	}
	out := make([]byte, 0, len(s))
	line, col := 1, 0
	for _, r := range s {
		col++
		b, ok := rev[r]
		if !ok {
			return nil, &PosError{Line: line, Col: col, Msg: fmt.Sprintf("%U %q has no byte in CCSID %d", r, r, ccsid)}
		}
		out = append(out, b)
		if r == '\n' {
			line, col = line+1, 0
		}
	}
	return out, nil
}

func encodeUTF16(s string, ccsid int32, enc mqfmt.Encoding) []byte {
	var bo binary.ByteOrder = binary.BigEndian
	if ccsid == 1202 {
		bo = binary.LittleEndian
	} else if o, err := enc.ByteOrder(); err == nil {
		bo = o
	}
	if strings.HasPrefix(s, "\ufeff") || strings.HasPrefix(s, "\ufffe") {
		// a byte order mark decides the order, as when the body was read
		if strings.HasPrefix(s, "\ufeff") {
			bo = binary.BigEndian
		}
	}
	units := utf16.Encode([]rune(s))
	out := make([]byte, 2*len(units))
	for i, u := range units {
		bo.PutUint16(out[2*i:], u)
	}
	return out
}

var reverseTables sync.Map // int32 → map[rune]byte

// reverseTable builds the byte of each character of a single-byte code page
// from the decoder itself, so both directions use one table. A byte that
// decodes to U+FFFD is undefined in the code page and has no character.
func reverseTable(ccsid int32) (map[rune]byte, bool) {
	if t, ok := reverseTables.Load(ccsid); ok {
		return t.(map[rune]byte), true
	}
	if utf16CCSIDs[ccsid] || ccsid == 1208 {
		return nil, false
	}
	rev := make(map[rune]byte, 256)
	for b := 255; b >= 0; b-- {
		s, err := mqfmt.DecodeText([]byte{byte(b)}, ccsid)
		if errors.Is(err, mqfmt.ErrUnknownCCSID) {
			return nil, false
		}
		r, n := utf8.DecodeRuneInString(s)
		if err != nil || n != len(s) || r == utf8.RuneError {
			continue
		}
		rev[r] = byte(b) // the lowest byte wins for a character two bytes share
	}
	reverseTables.Store(ccsid, rev)
	return rev, true
}

// TrimFinalNewline undoes what most editors (vi's fixeol, nano, many
// others) do on save: add a newline at the end of a file that had none. A
// text body that did not end with one gets none back; one typed on purpose
// after it (two at the end) is kept.
func (d Doc) TrimFinalNewline(edited string) string {
	if d.Mode != Text || strings.HasSuffix(d.Text, "\n") {
		return edited
	}
	if s, ok := strings.CutSuffix(edited, "\r\n"); ok && !strings.HasSuffix(d.Text, "\r") {
		return s
	}
	s, _ := strings.CutSuffix(edited, "\n")
	return s
}
