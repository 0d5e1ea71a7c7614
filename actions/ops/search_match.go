package ops

import (
	"bytes"
	"encoding/hex"
	"errors"
	"fmt"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/poisonwatch/poisonwatch/codec/mqfmt"
	"github.com/poisonwatch/poisonwatch/internal/bodyedit"
)

// BodyPattern is what a body search looks for: text, matched against the
// text a body holds as its CCSID reads it (so `@` does not match the
// spaces of an EBCDIC body, byte 0x40, and an EBCDIC or UTF-16 body matches
// what the operator types), or exact bytes given in hex. A body that is not
// text in a CCSID this product reads (an unknown CCSID, or a body that
// decodes to binary) is matched on the bytes of the typed text instead, and
// the match says so (ByteMatch).
type BodyPattern struct {
	Text  string
	Bytes []byte // set for a hex pattern: Text is then ""

	// OnHit, when set, is called by SearchBodies for each match, on the
	// search's goroutine just before found is called for the same
	// message, with how it matched and the line that shows the match.
	OnHit func(Hit)

	mu    sync.Mutex
	plans map[planKey]*textPlan // Text written in each CCSID and byte order met
}

// MatchKind says how a body matched a pattern.
type MatchKind uint8

// Match kinds.
const (
	NoMatch   MatchKind = iota
	TextMatch           // the text, as the body's CCSID reads it
	ByteMatch           // bytes: a hex pattern, or the typed text's UTF-8 bytes in a body that is not text in a known CCSID
)

// String is "text", "bytes" or "no match".
func (k MatchKind) String() string {
	switch k {
	case TextMatch:
		return "text"
	case ByteMatch:
		return "bytes"
	}
	return "no match"
}

// Hit is how one body matched and the line that shows where.
type Hit struct {
	Kind MatchKind
	// Context is safe to print: for a text match the decoded text around
	// the first match, sanitised; for a byte match the offset and the
	// bytes around it: as text (bytes that are not printable ASCII as '.',
	// as grep -a shows a line) when they mostly are, else in hex. Never the
	// body's raw bytes.
	Context string
	// At is where the match starts in Context, in runes, and Len how many
	// runes it takes: a narrow column shows the match, not what precedes it.
	At, Len int
}

// ParseBodyPattern reads a search: "hex:" or "0x" followed by hex digits
// (spaces allowed) is a byte pattern; anything else is text.
func ParseBodyPattern(s string) (*BodyPattern, error) {
	for _, pfx := range []string{"hex:", "0x", "0X"} {
		if rest, ok := strings.CutPrefix(s, pfx); ok {
			b, err := hex.DecodeString(strings.ReplaceAll(rest, " ", ""))
			if err != nil || len(b) == 0 {
				return nil, fmt.Errorf("hex pattern %q: want pairs of hexadecimal digits after %s", mqfmt.Sanitize(s), pfx)
			}
			return &BodyPattern{Bytes: b}, nil
		}
	}
	if s == "" {
		return nil, fmt.Errorf("empty search")
	}
	return &BodyPattern{Text: s}, nil
}

// String is the pattern as typed.
func (p *BodyPattern) String() string {
	if p.Bytes != nil {
		return "hex:" + strings.ToUpper(hex.EncodeToString(p.Bytes))
	}
	return p.Text
}

// Match reports whether body (the data after the headers, in ccsid with
// the MQMD Encoding enc) holds the pattern; Find says how, and where.
func (p *BodyPattern) Match(body []byte, ccsid int32, enc mqfmt.Encoding) bool {
	return p.find(body, ccsid, enc, false).Kind != NoMatch
}

// Find is Match with how the body matched and the line to show for it.
func (p *BodyPattern) Find(body []byte, ccsid int32, enc mqfmt.Encoding) Hit {
	return p.find(body, ccsid, enc, true)
}

// find matches without decoding the body whenever it can: the text is
// written once in the body's CCSID and byte order and looked for in its
// bytes, which finds exactly what a search of the decoded text finds (a
// single-byte code page maps byte to character one to one, UTF-8 and
// UTF-16 resynchronise after a bad sequence, and UTF-16 matches only on a
// code unit boundary). Only a body that holds the text so written, or the
// typed text's own bytes, is decoded: to tell text from binary, and for
// the context line.
func (p *BodyPattern) find(body []byte, ccsid int32, enc mqfmt.Encoding, withContext bool) Hit {
	if p.Bytes != nil {
		at := bytes.Index(body, p.Bytes)
		if at < 0 {
			return Hit{}
		}
		return p.bytesHit(body, at, len(p.Bytes), withContext)
	}
	dccsid, denc := textCCSID(ccsid, enc)
	plan := p.plan(dccsid, utf16Order(body, dccsid, denc))
	raw := []byte(p.Text) // does not escape: no copy
	textAt := -1
	switch {
	case !plan.known:
	case plan.decode:
		textAt = 0 // decided below, on the decoded text
	case plan.needle != nil:
		textAt = indexAligned(body, plan.needle, plan.unit)
	}
	rawAt := textAt
	if plan.decode || !bytes.Equal(raw, plan.needle) {
		rawAt = bytes.Index(body, raw)
	}
	if textAt < 0 && rawAt < 0 {
		return Hit{}
	}
	if plan.known {
		bt := mqfmt.DecodeBody(body, dccsid, denc)
		if bt.Kind != mqfmt.KindBinary {
			i := strings.Index(bt.Text, p.Text)
			if i < 0 {
				return Hit{} // the typed text's bytes only, in a text body: not a match
			}
			h := Hit{Kind: TextMatch}
			if withContext {
				h.Context, h.At, h.Len = textContext(bt.Text, i, len(p.Text))
			}
			return h
		}
	}
	if rawAt < 0 {
		return Hit{}
	}
	return p.bytesHit(body, rawAt, len(raw), withContext)
}

func (p *BodyPattern) bytesHit(body []byte, at, n int, withContext bool) Hit {
	h := Hit{Kind: ByteMatch}
	if !withContext {
		return h
	}
	if p.Bytes == nil && mostlyPrintable(body, at, n) {
		// Typed text found in bytes that are not text in a known CCSID
		// (a header chain that does not parse, a body of no known CCSID):
		// shown as the text it is, as grep -a shows a binary file's line,
		// not as hex nobody reads at 3 a.m.
		h.Context, h.At, h.Len = printableContext(body, at, n)
		return h
	}
	h.Context, h.At, h.Len = bytesContext(body, at, n)
	return h
}

// textCCSID is the CCSID and Encoding a body is decoded with. CCSID 1201
// is UTF-16 big-endian whatever the Encoding (as 1202 is little-endian);
// mqfmt does not list it, so it is decoded as 1200 in big-endian order.
func textCCSID(ccsid int32, enc mqfmt.Encoding) (int32, mqfmt.Encoding) {
	if ccsid == 1201 {
		return 1200, mqfmt.EncodingNormal
	}
	return ccsid, enc
}

// utf16Order is the byte order a UTF-16 body is read in, as
// mqfmt.DecodeTextEnc reads it: a byte order mark first, then the CCSID
// (1202 is little-endian), then the Encoding's integers. Other CCSIDs: 0.
func utf16Order(body []byte, ccsid int32, enc mqfmt.Encoding) byte {
	if !utf16CCSID(ccsid) {
		return 0
	}
	switch {
	case len(body) >= 2 && body[0] == 0xFE && body[1] == 0xFF:
		return 'B'
	case len(body) >= 2 && body[0] == 0xFF && body[1] == 0xFE:
		return 'L'
	case ccsid == 1202 || int32(enc)&0x0F == 2:
		return 'L'
	}
	return 'B'
}

func utf16CCSID(c int32) bool { return c == 1200 || c == 1202 || c == 13488 || c == 17584 }

// indexAligned is the first index of needle in body at a multiple of unit
// (1 or 2 bytes), or -1.
func indexAligned(body, needle []byte, unit int) int {
	for off := 0; ; {
		i := bytes.Index(body[off:], needle)
		if i < 0 {
			return -1
		}
		if (off+i)%unit == 0 {
			return off + i
		}
		off += i + 1
	}
}

type planKey struct {
	ccsid int32
	order byte // UTF-16 only: 'B' or 'L'
}

// textPlan is how Text is looked for in the bytes of one CCSID.
type textPlan struct {
	known  bool   // the CCSID is one mqfmt decodes
	needle []byte // Text in the CCSID's bytes; nil: it has a character the CCSID cannot hold, so never matches as text
	unit   int    // bytes per code unit: matches count only at multiples of it
	decode bool   // the bytes cannot say (a character two bytes share, U+FFFD, a byte order mark): decode the body
}

func (p *BodyPattern) plan(ccsid int32, order byte) *textPlan {
	k := planKey{ccsid, order}
	p.mu.Lock()
	defer p.mu.Unlock()
	if t, ok := p.plans[k]; ok {
		return t
	}
	t := newPlan(p.Text, ccsid, order)
	if p.plans == nil {
		p.plans = map[planKey]*textPlan{}
	}
	p.plans[k] = t
	return t
}

func newPlan(text string, ccsid int32, order byte) *textPlan {
	if _, err := mqfmt.DecodeText(nil, ccsid); errors.Is(err, mqfmt.ErrUnknownCCSID) {
		return &textPlan{}
	}
	t := &textPlan{known: true, unit: 1}
	if !utf8.ValidString(text) || strings.ContainsAny(text, "\uFFFD\uFEFF") {
		t.decode = true
		return t
	}
	switch {
	case ccsid == 1208:
		t.needle = []byte(text)
	case order != 0:
		enc := mqfmt.EncodingNormal
		if order == 'L' {
			enc = mqfmt.EncodingNative
		}
		t.needle, _ = bodyedit.Encode(text, 1200, enc)
		t.unit = 2
	default:
		bytesOf := sbcsBytes(ccsid)
		t.needle = make([]byte, 0, len(text))
		for _, r := range text {
			bs := bytesOf[r]
			switch len(bs) {
			case 0:
				t.needle = nil
				return t
			case 1:
				t.needle = append(t.needle, bs[0])
			default:
				t.decode = true
				return t
			}
		}
	}
	return t
}

var sbcsTables sync.Map // int32 → map[rune][]byte

// sbcsBytes is, for a single-byte CCSID, the bytes that decode to each
// character (bytes the code page leaves undefined are no character's).
func sbcsBytes(ccsid int32) map[rune][]byte {
	if t, ok := sbcsTables.Load(ccsid); ok {
		return t.(map[rune][]byte)
	}
	t := make(map[rune][]byte, 256)
	for b := range 256 {
		s, err := mqfmt.DecodeText([]byte{byte(b)}, ccsid)
		r, n := utf8.DecodeRuneInString(s)
		if err != nil || n != len(s) || r == utf8.RuneError {
			continue
		}
		t[r] = append(t[r], byte(b))
	}
	sbcsTables.Store(ccsid, t)
	return t
}
