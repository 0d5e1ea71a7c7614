package bodyedit

import (
	"fmt"
	"strings"
)

// bytesPerLine is the width of a dump line, as xxd's default.
const bytesPerLine = 16

// maxLineBytes bounds what one edited line may hold, so a line pasted by
// mistake is caught rather than shifting every later offset.
const maxLineBytes = 64

// Dump writes data as xxd does by default: an 8-digit hex offset, a colon,
// eight groups of two bytes, two spaces and the printable ASCII of the line.
func Dump(data []byte) string {
	var b strings.Builder
	for off := 0; off < len(data); off += bytesPerLine {
		line := data[off:min(off+bytesPerLine, len(data))]
		fmt.Fprintf(&b, "%08x:", off)
		n := 0
		for i, c := range line {
			if i%2 == 0 {
				b.WriteByte(' ')
				n++
			}
			fmt.Fprintf(&b, "%02x", c)
			n += 2
		}
		b.WriteString(strings.Repeat(" ", 40-n+2))
		for _, c := range line {
			if c < 0x20 || c > 0x7e {
				c = '.'
			}
			b.WriteByte(c)
		}
		b.WriteByte('\n')
	}
	return b.String()
}

// ParseDump reads a dump back strictly: every line is "OFFSET: " followed by
// groups of hex digit pairs separated by single spaces; two spaces end the
// hex and what follows (the ASCII column) is ignored. The offset must be
// the number of bytes the lines before it hold, so a line lost or doubled
// by the edit is caught; a line may hold 1 to 64 bytes (insertions are
// fine when the offsets after them are renumbered). Blank lines are
// skipped. Errors give the line and column.
func ParseDump(s string) ([]byte, error) {
	var out []byte
	for n, line := range strings.Split(s, "\n") {
		line = strings.TrimSuffix(line, "\r")
		if strings.TrimSpace(line) == "" {
			continue
		}
		b, err := parseDumpLine(line, n+1, len(out))
		if err != nil {
			return nil, err
		}
		out = append(out, b...)
	}
	return out, nil
}

func parseDumpLine(line string, ln, want int) ([]byte, error) {
	colon := strings.IndexByte(line, ':')
	if colon < 1 || colon > 16 {
		return nil, &PosError{Line: ln, Col: 1, Msg: "expected an offset such as 00000010: at the start of the line"}
	}
	var off int
	for i := 0; i < colon; i++ {
		v, ok := hexVal(line[i])
		if !ok {
			return nil, &PosError{Line: ln, Col: i + 1, Msg: fmt.Sprintf("%q is not a hex digit of the offset", line[i])}
		}
		off = off<<4 | int(v)
		if off > 1<<40 {
			return nil, &PosError{Line: ln, Col: 1, Msg: "the offset is too large"}
		}
	}
	if off != want {
		return nil, &PosError{Line: ln, Col: 1, Msg: fmt.Sprintf("offset %08x, but the lines before hold %d (%08x) bytes: renumber the offsets after a line whose length changed", off, want, want)}
	}
	rest := line[colon+1:]
	if !strings.HasPrefix(rest, " ") {
		return nil, &PosError{Line: ln, Col: colon + 2, Msg: "expected a space after the offset's colon"}
	}
	var out []byte
	i := 1
	for i < len(rest) {
		if rest[i] == ' ' { // two spaces: the ASCII column follows
			break
		}
		for i < len(rest) && rest[i] != ' ' {
			if i+1 >= len(rest) || rest[i+1] == ' ' {
				return nil, &PosError{Line: ln, Col: colon + 2 + i, Msg: "a hex digit without its pair: every byte is two digits"}
			}
			hi, ok1 := hexVal(rest[i])
			lo, ok2 := hexVal(rest[i+1])
			if !ok1 || !ok2 {
				col := i
				if ok1 {
					col++
				}
				return nil, &PosError{Line: ln, Col: colon + 2 + col, Msg: fmt.Sprintf("%q is not a hex digit", rest[col])}
			}
			out = append(out, hi<<4|lo)
			i += 2
		}
		i++ // the space after a group
	}
	if len(out) == 0 {
		return nil, &PosError{Line: ln, Col: colon + 2, Msg: "no bytes after the offset"}
	}
	if len(out) > maxLineBytes {
		return nil, &PosError{Line: ln, Col: colon + 2, Msg: fmt.Sprintf("%d bytes on one line (at most %d)", len(out), maxLineBytes)}
	}
	return out, nil
}

func hexVal(c byte) (byte, bool) {
	switch {
	case c >= '0' && c <= '9':
		return c - '0', true
	case c >= 'a' && c <= 'f':
		return c - 'a' + 10, true
	case c >= 'A' && c <= 'F':
		return c - 'A' + 10, true
	}
	return 0, false
}
