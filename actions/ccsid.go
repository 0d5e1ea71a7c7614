package actions

import (
	"fmt"
	"strings"
)

// charset is how the character fields of a header are written.
type charset int

const (
	csASCII  charset = iota // an ASCII-based single-byte (or ASCII-compatible) code page
	csEBCDIC                // an EBCDIC code page whose invariant set holds every queue-name character
	csUTF8                  // fallback: the code page cannot hold them, write UTF-8 (1208)
)

// asciiCCSIDs are ASCII-based code pages in which queue-name characters
// (A–Z a–z 0–9 . / _ %) and blanks are the ASCII bytes.
var asciiCCSIDs = map[int32]bool{
	367: true, 437: true, 813: true, 819: true, 850: true, 852: true, 855: true, 857: true,
	858: true, 860: true, 861: true, 862: true, 863: true, 864: true, 865: true, 866: true,
	869: true, 874: true, 912: true, 913: true, 914: true, 915: true, 916: true, 920: true,
	923: true, 932: true, 943: true, 950: true, 954: true, 970: true, 1051: true, 1208: true,
	1250: true, 1251: true, 1252: true, 1253: true, 1254: true, 1255: true, 1256: true,
	1257: true, 1258: true, 1381: true, 1383: true, 1386: true, 5348: true, 5488: true,
}

// ebcdicCCSIDs are the Latin-1 family EBCDIC code pages (CECP and 1047), in
// which letters, digits, '.', '/', '_', '%' and the blank sit at the same
// (invariant) code points.
var ebcdicCCSIDs = map[int32]bool{
	37: true, 273: true, 277: true, 278: true, 280: true, 284: true, 285: true, 297: true,
	500: true, 871: true, 1047: true, 1140: true, 1141: true, 1142: true, 1143: true,
	1144: true, 1145: true, 1146: true, 1147: true, 1148: true, 1149: true,
}

// dlhCharset picks how a dead-letter header is written for a message whose
// MQMD says ccsid. IBM requires a character set "that has single-byte
// characters for the characters that are valid in queue names", and IBM MQ
// classes for JMS write the MQDLH in UTF-8 when the MQMD's code page is one
// they cannot use (MQDLH - Dead letter header). Code pages not listed here,
// UCS-2/UTF-16 included, take that UTF-8 path.
func dlhCharset(ccsid int32) charset {
	switch {
	case asciiCCSIDs[ccsid]:
		return csASCII
	case ebcdicCCSIDs[ccsid]:
		return csEBCDIC
	}
	return csUTF8
}

// ebcdicInvariant maps the characters a dead-letter header holds (queue and
// queue manager names, the application name, digits of date and time) to
// their invariant EBCDIC code points.
func ebcdicInvariant(c byte) (byte, bool) {
	switch {
	case c >= 'a' && c <= 'i':
		return 0x81 + c - 'a', true
	case c >= 'j' && c <= 'r':
		return 0x91 + c - 'j', true
	case c >= 's' && c <= 'z':
		return 0xA2 + c - 's', true
	case c >= 'A' && c <= 'I':
		return 0xC1 + c - 'A', true
	case c >= 'J' && c <= 'R':
		return 0xD1 + c - 'J', true
	case c >= 'S' && c <= 'Z':
		return 0xE2 + c - 'S', true
	case c >= '0' && c <= '9':
		return 0xF0 + c - '0', true
	}
	switch c {
	case ' ':
		return 0x40, true
	case '.':
		return 0x4B, true
	case '/':
		return 0x61, true
	case '_':
		return 0x6D, true
	case '%':
		return 0x6C, true
	}
	return 0, false
}

// field renders s for an n-byte character field in cs. EBCDIC fields are
// padded here with EBCDIC blanks (0x40), since the codec pads with ASCII ones.
func field(s string, n int, cs charset) (string, error) {
	if len(s) > n {
		s = s[:n]
	}
	if cs != csEBCDIC {
		return s, nil
	}
	var b strings.Builder
	b.Grow(n)
	for i := 0; i < len(s); i++ {
		e, ok := ebcdicInvariant(s[i])
		if !ok {
			return "", fmt.Errorf("character %q of %q has no invariant EBCDIC form", s[i], s)
		}
		b.WriteByte(e)
	}
	for i := len(s); i < n; i++ {
		b.WriteByte(0x40)
	}
	return b.String(), nil
}
