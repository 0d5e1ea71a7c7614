package mqfmt

import (
	"sync"
	"unicode"
	"unicode/utf8"
)

// hexDumpWidth is the bytes per line of the amqsbcg layout.
const hexDumpWidth = 16

// HexDump renders data in the layout of IBM's amqsbcg browse sample, so that an
// operator can set it beside a dump taken on the MQ host:
//
//	00000000:  444C 4820 0100 0000 0308 0000 514C 2E41 'DLH ........QL.A'
//
// Offsets are hexadecimal, eight digits or more; bytes are in pairs; the last
// line is padded with blanks to full width, and empty data gives one blank line,
// as amqsbcg prints them. The quoted column shows each byte as a character of
// the code page ccsid (so EBCDIC data is readable), or '.' when the character is
// not a printable one-cell character; see HexDumpLine. Lines are separated by
// "\n" with none after the last. The output is always safe for a terminal.
func HexDump(data []byte, ccsid int32) string {
	col := hexColumn(ccsid)
	n := HexDumpLines(len(data))
	b := make([]byte, 0, n*(hexDumpLineLen+1)+n*hexDumpWidth) // room for 2-byte column runes
	for i := range n {
		if i > 0 {
			b = append(b, '\n')
		}
		b = appendHexDumpLine(b, data, i, col)
	}
	return string(b)
}

// HexDumpLines returns how many lines HexDump gives for n bytes, for views that
// render only the visible lines with HexDumpLine.
func HexDumpLines(n int) int {
	return max(1, (n+hexDumpWidth-1)/hexDumpWidth)
}

// HexDumpLine returns line number line (from 0) of HexDump(data, ccsid), or ""
// when there is no such line.
//
// The character column follows the code page: for single-byte code pages it
// shows a byte's character when that is printable and certainly one terminal
// cell wide and left-to-right (ASCII, Latin-1, Latin Extended, Greek, Cyrillic,
// the euro and typographic punctuation); for UTF-8, UTF-16 and unknown CCSIDs it
// shows printable ASCII bytes only, as amqsbcg does in the C locale.
func HexDumpLine(data []byte, line int, ccsid int32) string {
	if line < 0 || line >= HexDumpLines(len(data)) {
		return ""
	}
	b := make([]byte, 0, hexDumpLineLen+hexDumpWidth)
	return string(appendHexDumpLine(b, data, line, hexColumn(ccsid)))
}

// hexDumpLineLen is the length of an amqsbcg line with an ASCII column.
const hexDumpLineLen = 69

func appendHexDumpLine(b []byte, data []byte, line int, col *[256]rune) []byte {
	off := line * hexDumpWidth
	chunk := data[off:min(off+hexDumpWidth, len(data))]
	b = appendHexOffset(b, uint64(off), 8)
	b = append(b, ':', ' ')
	for i := range hexDumpWidth {
		if i%2 == 0 {
			b = append(b, ' ')
		}
		if i < len(chunk) {
			b = append(b, hexUpper[chunk[i]>>4], hexUpper[chunk[i]&0xF])
		} else {
			b = append(b, ' ', ' ')
		}
	}
	b = append(b, ' ', '\'')
	for i := range hexDumpWidth {
		if i < len(chunk) {
			b = utf8.AppendRune(b, col[chunk[i]])
		} else {
			b = append(b, ' ')
		}
	}
	return append(b, '\'')
}

const hexUpper = "0123456789ABCDEF"

// appendHexOffset appends v in upper-case hex, at least digits wide.
func appendHexOffset(b []byte, v uint64, digits int) []byte {
	n := hexDigits(v)
	for range digits - n {
		b = append(b, '0')
	}
	for shift := (n - 1) * 4; shift >= 0; shift -= 4 {
		b = append(b, hexUpper[(v>>shift)&0xF])
	}
	return b
}

func hexDigits(v uint64) int {
	n := 1
	for v >>= 4; v != 0; v >>= 4 {
		n++
	}
	return n
}

// hexColumns caches the character column table of each supported single-byte
// CCSID. Other CCSIDs share asciiColumn, so a stream of messages with made-up
// CCSIDs cannot grow the cache.
var hexColumns sync.Map // int32 -> *[256]rune

// asciiColumn shows printable ASCII bytes, as amqsbcg does in the C locale.
var asciiColumn = sync.OnceValue(func() *[256]rune {
	var t [256]rune
	for i := range t {
		t[i] = '.'
		if i >= 0x20 && i < 0x7F {
			t[i] = rune(i)
		}
	}
	return &t
})

// hexColumn returns, for each byte value, the rune the dump's character column
// shows for it in code page ccsid.
func hexColumn(ccsid int32) *[256]rune {
	info, ok := lookupCodePage(ccsid)
	if !ok || info.form != formSBCS {
		return asciiColumn()
	}
	if t, ok := hexColumns.Load(ccsid); ok {
		return t.(*[256]rune)
	}
	var t [256]rune
	for i, r := range info.table() {
		t[i] = '.'
		if isHexColumnRune(r) {
			t[i] = r
		}
	}
	v, _ := hexColumns.LoadOrStore(ccsid, &t)
	return v.(*[256]rune)
}

// isHexColumnRune reports whether r can stand for one byte in a dump: printable,
// one cell wide in every terminal, not combining with its neighbour, and
// left-to-right, so the column stays aligned and in byte order. (Latin-1 letters
// are "ambiguous width" in East Asian terminal settings; that is accepted.)
func isHexColumnRune(r rune) bool {
	switch {
	case r >= 0x20 && r < 0x7F:
		return true
	case r < 0xA1 || r == 0xAD: // C0, DEL, C1, no-break space, soft hyphen
		return false
	case r < 0x0590: // Latin-1 to Armenian; Hebrew, the first right-to-left script, starts here
		return unicode.IsGraphic(r) && !unicode.IsMark(r)
	case r >= 0x2010 && r <= 0x2027, r >= 0x2030 && r <= 0x205E, r >= 0x20A0 && r <= 0x20C0, r == 0x2122:
		return true // dashes, quotes, bullets, per mille, currency signs such as the euro, trade mark
	}
	return false
}

// HexLines renders data compactly for narrow terminals: an offset, up to 32
// bytes in groups of four, and their ASCII characters, with as many bytes per
// line (32, 16, 8, 4, 2 or 1) as fit in width cells:
//
//	0000: 444C4820 01000000 03080000 514C2E41  DLH ........QL.A
//
// Offsets have four hex digits or as many as the largest offset needs. Below
// about 12 cells a line cannot fit and is wider than width.
func HexLines(data []byte, width int) []string {
	return HexLinesCCSID(data, width, 0)
}

// HexLinesCCSID is HexLines with the character column in code page ccsid, as
// HexDumpLine shows it.
func HexLinesCCSID(data []byte, width int, ccsid int32) []string {
	digits := max(4, hexDigits(uint64(max(len(data)-1, 0))))
	per := 1
	for _, n := range []int{32, 16, 8, 4, 2} {
		if compactWidth(digits, n) <= width {
			per = n
			break
		}
	}
	col := hexColumn(ccsid)
	lines := make([]string, 0, (len(data)+per-1)/per)
	b := make([]byte, 0, compactWidth(digits, per)+2*per)
	for off := 0; off < len(data); off += per {
		chunk := data[off:min(off+per, len(data))]
		b = appendHexOffset(b[:0], uint64(off), digits)
		b = append(b, ':')
		for i := range per {
			if i%4 == 0 {
				b = append(b, ' ')
			}
			if i < len(chunk) {
				b = append(b, hexUpper[chunk[i]>>4], hexUpper[chunk[i]&0xF])
			} else {
				b = append(b, ' ', ' ')
			}
		}
		b = append(b, ' ', ' ')
		for _, c := range chunk {
			b = utf8.AppendRune(b, col[c])
		}
		lines = append(lines, string(b))
	}
	return lines
}

// compactWidth is the width in cells of a HexLines line of n bytes.
func compactWidth(digits, n int) int {
	groups := (n + 3) / 4
	return digits + 1 + groups + 2*n + 2 + n
}
