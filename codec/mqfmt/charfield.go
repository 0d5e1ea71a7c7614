package mqfmt

import (
	"fmt"
	"sync"
	"unicode/utf8"
)

// IBM puts the MQCHAR fields of MQDLH, MQXQH (its embedded MQMD too), MQMDE
// and MQRFH2's fixed part in the character set that the structure before the
// header names (the MQMD's CodedCharSetId for the first header). On an EBCDIC
// queue manager or for an EBCDIC message, "DLH " is C4 D3 C8 40 and every queue
// name is EBCDIC. Decoders give those fields as text and encoders write text
// back in the code page, so that requeueing an EBCDIC dead letter restores
// MQMD Format "MQSTR   " and not its EBCDIC bytes.
//
// ASCII-based code pages and UTF-8 keep the raw bytes as the field's text:
// the characters valid in MQ names are single ASCII bytes in all of them, and
// keeping the bytes makes Encode(Decode(b)) == b whatever else a field holds.

// ebcdicFamily lists EBCDIC code pages whose invariant characters (letters,
// digits, blank, . / _ % and the rest of IBM's invariant set) sit where CCSID
// 37 puts them. Those with their own table in ccsids are read with it; the
// others with CCSID 37's, which decodes every name character right and, being
// one to one, writes every byte back unchanged.
var ebcdicFamily = map[int32]bool{
	37: true, 273: true, 277: true, 278: true, 280: true, 284: true, 285: true, 297: true,
	500: true, 871: true, 1047: true, 1140: true, 1141: true, 1142: true, 1143: true,
	1144: true, 1145: true, 1146: true, 1147: true, 1148: true, 1149: true,
}

// IsEBCDICHeaderCCSID reports whether header character fields in ccsid are
// EBCDIC: one of the code pages DecodeText knows as EBCDIC, or another of
// the Latin EBCDIC family.
func IsEBCDICHeaderCCSID(ccsid int32) bool {
	return ebcdicFamily[ccsid] || IsEBCDIC(ccsid)
}

// charCodec maps an EBCDIC code page's bytes to characters and back. A nil
// *charCodec stands for the ASCII-based case, where bytes are the text.
type charCodec struct {
	dec *[256]rune
	enc map[rune]byte
}

var codecs sync.Map // int32 CCSID -> *charCodec

// codecFor returns the codec for header fields in ccsid: nil unless ccsid is
// EBCDIC.
func codecFor(ccsid int32) *charCodec {
	if !IsEBCDICHeaderCCSID(ccsid) {
		return nil
	}
	if !IsEBCDIC(ccsid) {
		ccsid = 37
	}
	if c, ok := codecs.Load(ccsid); ok {
		return c.(*charCodec)
	}
	cp, _ := lookupCodePage(ccsid)
	c := &charCodec{dec: cp.table(), enc: make(map[rune]byte, 256)}
	for i, r := range c.dec {
		c.enc[r] = byte(i)
	}
	got, _ := codecs.LoadOrStore(ccsid, c)
	return got.(*charCodec)
}

// ebcdic37 is the codec for an EBCDIC header whose CCSID does not say it is
// EBCDIC: its StrucId is, so its fields are too.
func ebcdic37() *charCodec { return codecFor(37) }

// text decodes an EBCDIC field.
func (c *charCodec) text(b []byte) string {
	if c == nil {
		return string(b)
	}
	out := make([]byte, 0, len(b)+len(b)/4)
	for _, x := range b {
		out = utf8.AppendRune(out, c.dec[x])
	}
	return string(out)
}

// field encodes s into an n-byte field: cut at n characters, blank padded.
func (c *charCodec) field(dst []byte, s string, n int) ([]byte, error) {
	if c == nil {
		if len(s) > n {
			s = s[:n]
		}
		dst = append(dst, s...)
		for i := len(s); i < n; i++ {
			dst = append(dst, ' ')
		}
		return dst, nil
	}
	var err error
	k := 0
	for _, r := range s {
		if k == n {
			break
		}
		b, ok := c.enc[r]
		if !ok && err == nil {
			err = fmt.Errorf("character %q of %q has no form in the header's EBCDIC code page", r, s)
		}
		dst = append(dst, b)
		k++
	}
	for ; k < n; k++ {
		dst = append(dst, 0x40)
	}
	return dst, err
}

// strucIdBytes returns the StrucId as it is written with codec c.
func (c *charCodec) strucIdBytes(id string) string {
	if c == nil {
		return id
	}
	b, _ := c.field(nil, id, len(id))
	return string(b)
}

// headerCodec decides how the header at b[off:] (at least 4 bytes) stores its
// fields: its StrucId, ASCII or EBCDIC, says which family the bytes are in
// whatever the CCSID claims (a header whose CCSID and bytes disagree is read
// as its bytes are); within EBCDIC the CCSID picks the code page. ok is false
// when the StrucId is neither form of strucId.
func headerCodec(b []byte, off int, strucId string, ccsid int32) (*charCodec, bool) {
	got := string(b[off : off+4])
	if got == strucId {
		return nil, true
	}
	c := codecFor(ccsid)
	if c == nil {
		c = ebcdic37()
	}
	return c, got == c.strucIdBytes(strucId)
}

// fieldsCCSID is the CCSID an encoder takes to write back a header read with
// codec c for a preceding structure that named ccsid: ccsid itself when it
// was used, 37 for EBCDIC that ccsid did not announce, 0 for ASCII bytes.
func fieldsCCSID(c *charCodec, ccsid int32) int32 {
	switch {
	case c == nil:
		return 0
	case IsEBCDICHeaderCCSID(ccsid):
		return ccsid
	}
	return 37
}
