package mqfmt

import (
	"encoding/binary"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

// unescape replaces entity references (&lt; &gt; &amp; &quot; &apos; &#N;
// &#xH;) in a value found at index at; a bare '&' is an error, as in XML.
func (sc *folderScanner) unescape(v string, at int) (string, error) {
	if strings.IndexByte(v, '&') < 0 {
		return v, nil
	}
	out := make([]byte, 0, len(v))
	for i := 0; i < len(v); i++ {
		if v[i] != '&' {
			out = append(out, v[i])
			continue
		}
		j := strings.IndexByte(v[i:], ';')
		if j < 0 || j > 10 {
			return "", sc.errAt(at+i, "'&' starts no entity reference (a literal '&' is written &amp;)")
		}
		r, ok := folderEntity(v[i+1 : i+j])
		if !ok {
			return "", sc.errAt(at+i, "unknown entity reference %q", sanitizeShort([]byte(v[i:i+j+1])))
		}
		out = utf8.AppendRune(out, r)
		i += j
	}
	return string(out), nil
}

func folderEntity(name string) (rune, bool) {
	switch name {
	case "lt":
		return '<', true
	case "gt":
		return '>', true
	case "amp":
		return '&', true
	case "quot":
		return '"', true
	case "apos":
		return '\'', true
	}
	num, ok := strings.CutPrefix(name, "#")
	if !ok || num == "" {
		return 0, false
	}
	base := 10
	if hex, ok := strings.CutPrefix(num, "x"); ok {
		num, base = hex, 16
	}
	n, err := strconv.ParseUint(num, base, 32)
	if err != nil || n == 0 || !utf8.ValidRune(rune(n)) {
		return 0, false
	}
	return rune(n), true
}

// abs maps an index of sc.s to an absolute offset in the decoded buffer.
func (sc *folderScanner) abs(i int) int {
	if sc.u16 == nil {
		return sc.base + i
	}
	n := 0 // UTF-8 bytes produced so far
	for u := 0; u+1 < len(sc.u16); u += 2 {
		if n >= i {
			return sc.base + u
		}
		c := rune(sc.bo.Uint16(sc.u16[u:]))
		if utf16.IsSurrogate(c) {
			n += 4
			u += 2
			continue
		}
		n += utf8.RuneLen(c)
	}
	return sc.base + len(sc.u16)
}

func isUTF16CCSID(c int32) bool {
	return c == NVCCSIDUTF16 || c == NVCCSIDUCS2v2 || c == NVCCSIDUTF16v30
}

// utf16ToUTF8 converts a UTF-16 folder, whose byte order is that of the
// header's integers, to UTF-8; a broken surrogate pair is an error.
func utf16ToUTF8(raw []byte, bo binary.ByteOrder, base int) (string, error) {
	if len(raw)%2 != 0 {
		return "", decodeErr("MQRFH2", base+len(raw)-1, "folder: UTF-16 data of odd length %d", len(raw))
	}
	out := make([]byte, 0, len(raw))
	for u := 0; u < len(raw); u += 2 {
		c := rune(bo.Uint16(raw[u:]))
		if utf16.IsSurrogate(c) {
			if c >= 0xDC00 || u+3 >= len(raw) {
				return "", decodeErr("MQRFH2", base+u, "folder: unpaired UTF-16 surrogate 0x%04X", c)
			}
			c2 := rune(bo.Uint16(raw[u+2:]))
			r := utf16.DecodeRune(c, c2)
			if r == utf8.RuneError {
				return "", decodeErr("MQRFH2", base+u, "folder: unpaired UTF-16 surrogate 0x%04X", c)
			}
			c = r
			u += 2
		}
		out = utf8.AppendRune(out, c)
	}
	return string(out), nil
}

// appendUTF16 writes UTF-8 text as UTF-16 in byte order bo.
func appendUTF16(dst, text []byte, bo binary.ByteOrder) ([]byte, error) {
	for len(text) > 0 {
		r, n := utf8.DecodeRune(text)
		if r == utf8.RuneError && n <= 1 {
			return dst, fmt.Errorf("text is not valid UTF-8, cannot write it as UTF-16")
		}
		text = text[n:]
		if r >= 0x10000 {
			hi, lo := utf16.EncodeRune(r)
			dst = appendU16(appendU16(dst, bo, uint16(hi)), bo, uint16(lo))
			continue
		}
		dst = appendU16(dst, bo, uint16(r))
	}
	return dst, nil
}
