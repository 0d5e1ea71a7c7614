package mqfmt

import (
	"fmt"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

// textIssues collects what went wrong while decoding, so that one error can name
// the first bad byte and say how many sequences were replaced.
type textIssues struct {
	ccsid     int32
	first     int  // absolute offset of the first bad byte, -1 if none
	replaced  int  // sequences replaced with U+FFFD
	truncated bool // the only problem is a character cut off at the end
	detail    string
}

func newIssues(ccsid int32) textIssues { return textIssues{ccsid: ccsid, first: -1} }

func (t *textIssues) bad(off int, detail string) {
	if t.first < 0 {
		t.first, t.detail = off, detail
	}
	t.replaced++
}

// cutOff records a character cut off by the end of the data: common when a
// browse reads a bounded prefix of the body, and not a fault of the message.
func (t *textIssues) cutOff(off int, detail string) {
	if t.first < 0 {
		t.first, t.detail, t.truncated = off, detail, true
	}
	t.replaced++
}

func (t *textIssues) err() error {
	if t.first < 0 {
		return nil
	}
	e := &DecodeError{Struct: fmt.Sprintf("CCSID %d", t.ccsid), Offset: t.first, Err: ErrInvalidText,
		Msg: fmt.Sprintf("%s (%d replaced with U+FFFD)", t.detail, t.replaced)}
	if t.truncated && t.replaced == 1 {
		e.Err = ErrTruncated
	}
	return e
}

// decodeSBCS maps each byte through a code page table. Bytes the code page
// leaves undefined come out of the table as U+FFFD and are reported.
func decodeSBCS(data []byte, t *[256]rune, ccsid int32) (string, error) {
	var b strings.Builder
	b.Grow(len(data) + len(data)/8)
	is := newIssues(ccsid)
	for i, c := range data {
		r := t[c]
		if r < utf8.RuneSelf {
			b.WriteByte(byte(r))
			continue
		}
		if r == utf8.RuneError {
			is.bad(i, fmt.Sprintf("byte 0x%02X is not a character of this code page", c))
		}
		b.WriteRune(r)
	}
	return b.String(), is.err()
}

// decodeUTF8 returns valid UTF-8 unchanged (less a leading byte order mark) and
// replaces each invalid byte with U+FFFD. An incomplete character at the very
// end is reported as truncation rather than as invalid data.
func decodeUTF8(data []byte) (string, error) {
	start := 0
	if len(data) >= 3 && data[0] == 0xEF && data[1] == 0xBB && data[2] == 0xBF {
		start = 3
	}
	if utf8.Valid(data[start:]) {
		return string(data[start:]), nil
	}
	var b strings.Builder
	b.Grow(len(data))
	is := newIssues(1208)
	for i := start; i < len(data); {
		r, n := utf8.DecodeRune(data[i:])
		if r != utf8.RuneError || n > 1 {
			b.Write(data[i : i+n])
			i += n
			continue
		}
		b.WriteRune(utf8.RuneError)
		if !utf8.FullRune(data[i:]) {
			is.cutOff(i, fmt.Sprintf("character cut off after %d of its bytes", len(data)-i))
			break
		}
		is.bad(i, fmt.Sprintf("byte 0x%02X is not valid UTF-8 here", data[i]))
		i++
	}
	return b.String(), is.err()
}

// decodeUTF16 decodes UTF-16 in the byte order given, unless the data starts
// with a byte order mark, which wins and is dropped (an MQ JMS fix, APAR
// IT17612, made the same choice: the mark is not part of the text).
func decodeUTF16(data []byte, little bool, ccsid int32) (string, error) {
	i := 0
	if len(data) >= 2 {
		switch {
		case data[0] == 0xFE && data[1] == 0xFF:
			little, i = false, 2
		case data[0] == 0xFF && data[1] == 0xFE:
			little, i = true, 2
		}
	}
	unit := func(at int) rune {
		if little {
			return rune(data[at]) | rune(data[at+1])<<8
		}
		return rune(data[at])<<8 | rune(data[at+1])
	}
	var b strings.Builder
	b.Grow(len(data) / 2)
	is := newIssues(ccsid)
	for ; i+1 < len(data); i += 2 {
		u := unit(i)
		if !utf16.IsSurrogate(u) {
			b.WriteRune(u)
			continue
		}
		if u < 0xDC00 && i+3 < len(data) {
			if r := utf16.DecodeRune(u, unit(i+2)); r != utf8.RuneError {
				b.WriteRune(r)
				i += 2
				continue
			}
		}
		b.WriteRune(utf8.RuneError)
		if u < 0xDC00 && i+3 >= len(data) {
			is.cutOff(i, "surrogate pair cut off at the end")
			return b.String(), is.err()
		}
		is.bad(i, fmt.Sprintf("unpaired surrogate 0x%04X", u))
	}
	if i < len(data) {
		b.WriteRune(utf8.RuneError)
		is.cutOff(i, "odd number of bytes: the last code unit is cut off")
	}
	return b.String(), is.err()
}
