package mqfmt

import (
	"bytes"
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"
)

// DecodeText turns message bytes in the code page ccsid into a Go string. UTF-16
// CCSIDs are read big-endian unless a byte order mark says otherwise (1202 is
// always little-endian); use DecodeTextEnc when the MQMD Encoding is known.
//
// The result is not safe to print: pass it through Sanitize first.
//
// Errors: an unknown CCSID returns "" and an error wrapping ErrUnknownCCSID (show
// hex instead). Bytes that are not characters of the code page are replaced with
// U+FFFD and the text is returned with a *DecodeError naming the first bad byte,
// wrapping ErrInvalidText, or ErrTruncated when the only fault is a character cut
// off at the end (as a bounded browse buffer cuts it). Any error other than
// ErrUnknownCCSID therefore comes with usable text.
func DecodeText(data []byte, ccsid int32) (string, error) {
	return DecodeTextEnc(data, ccsid, EncodingNormal)
}

// DecodeTextEnc is DecodeText for data whose MQMD (or header) Encoding is enc.
// IBM MQ takes the byte order of UTF-16 character data (CCSIDs 1200, 13488,
// 17584) from the integer part of the Encoding, so 546 means little-endian; a
// byte order mark at the start of the data overrides it. enc does not matter
// for any other CCSID.
func DecodeTextEnc(data []byte, ccsid int32, enc Encoding) (string, error) {
	info, ok := lookupCodePage(ccsid)
	if !ok {
		return "", unknownCCSID(ccsid)
	}
	switch info.form {
	case formUTF8:
		return decodeUTF8(data)
	case formUTF16:
		little := info.littleEndian || int32(enc)&encIntegerMask == encIntegerRev
		return decodeUTF16(data, little, ccsid)
	}
	return decodeSBCS(data, info.table(), ccsid)
}

// unknownCCSID names the MQCCSI_* special values, which are not code pages but
// instructions to look the real CCSID up elsewhere.
func unknownCCSID(ccsid int32) error {
	var hint string
	switch ccsid {
	case 0:
		hint = " (MQCCSI_Q_MGR: use the queue manager's CCSID)"
	case -1:
		hint = " (MQCCSI_EMBEDDED: the CCSID is in the data)"
	case -2:
		hint = " (MQCCSI_INHERIT: use the CCSID of the preceding header)"
	case -3:
		hint = " (MQCCSI_APPL: use the application's CCSID)"
	}
	return fmt.Errorf("CCSID %d%s: %w", ccsid, hint, ErrUnknownCCSID)
}

// Kind is what a message body looks like, which decides how it is shown.
type Kind uint8

// Body kinds. The zero value is KindBinary so that an unclassified body is shown
// as hex, the one view that cannot mislead.
const (
	KindBinary Kind = iota
	KindText
	KindJSON
	KindXML
)

// String returns "binary", "text", "JSON" or "XML".
func (k Kind) String() string {
	switch k {
	case KindText:
		return "text"
	case KindJSON:
		return "JSON"
	case KindXML:
		return "XML"
	}
	return "binary"
}

// BodyText is a decoded and classified message body.
type BodyText struct {
	Kind Kind
	Text string // decoded text, not sanitised; "" when the CCSID is unknown
	Err  error  // DecodeTextEnc's error, if any
}

// DecodeBody decodes data once and classifies it, for views that need both.
func DecodeBody(data []byte, ccsid int32, enc Encoding) BodyText {
	if hasBinaryMagic(data) {
		return BodyText{Kind: KindBinary}
	}
	text, err := DecodeTextEnc(data, ccsid, enc)
	if errors.Is(err, ErrUnknownCCSID) {
		return BodyText{Kind: KindBinary, Err: err}
	}
	return BodyText{Kind: ClassifyText(text), Text: text, Err: err}
}

// Classify says whether data, in code page ccsid, is text, JSON, XML or binary.
// Bodies in an unknown CCSID are binary. See ClassifyText for the rules.
func Classify(data []byte, ccsid int32) Kind {
	return DecodeBody(data, ccsid, EncodingNormal).Kind
}

// binaryMagics are leading bytes of serialised objects that are often sent as
// MQ messages and often decode to plausible-looking text.
var binaryMagics = [][]byte{
	{0xAC, 0xED, 0x00, 0x05}, // Java serialization (ObjectOutputStream), JMS ObjectMessage
	{0x1F, 0x8B, 0x08},       // gzip
	{'P', 'K', 0x03, 0x04},   // zip, jar
}

func hasBinaryMagic(data []byte) bool {
	for _, m := range binaryMagics {
		if bytes.HasPrefix(data, m) {
			return true
		}
	}
	return false
}

// maxControlShare sets the share of control characters (1 in 100, plus one)
// that decoded text may have and still be called text. Real text carries a
// stray control or a bad byte now and then, which the extra one allows in short
// bodies; binary records (packed decimals, integers, NUL padding) carry many.
const maxControlShare = 100

// ClassifyText classifies already decoded text. It is binary when its bad
// characters number more than one plus one in a hundred: controls other than
// tab, CR, LF and the EBCDIC newline (U+0085), and U+FFFD from bytes that did
// not decode. It is JSON when, after white space, it is an object or array that
// parses, or a prefix of one cut off by the end of the data (a browse reads a
// bounded prefix); XML when it starts with '<' and its tags nest (or would, had
// the data not been cut off); else text.
func ClassifyText(s string) Kind {
	if isMostlyControls(s) {
		return KindBinary
	}
	t := strings.TrimLeft(s, " \t\r\n\uFEFF")
	switch {
	case t == "":
		return KindText
	case t[0] == '{' || t[0] == '[':
		if jsonShape(t) != shapeBad {
			return KindJSON
		}
	case t[0] == '<':
		if _, err := scanXML(t, nil); err == nil || errors.Is(err, ErrTruncated) {
			return KindXML
		}
	}
	return KindText
}

func isMostlyControls(s string) bool {
	n, bad := 0, 0
	for _, r := range s {
		n++
		switch {
		case r == '\t' || r == '\n' || r == '\r' || r == 0x85:
		case r < 0x20 || r == 0x7F || (r >= 0x80 && r <= 0x9F) || r == utf8.RuneError:
			bad++
		}
	}
	return bad*maxControlShare > n+maxControlShare
}
