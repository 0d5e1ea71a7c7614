package mqfmt

import (
	"io"
	"unicode/utf8"
)

// SafeWriter passes text to a terminal through SanitizeMultiline, so that no
// write, whatever strings it carries, can emit a control or escape sequence.
// Each Write is sanitised on its own (tab stops restart with it), except that
// an incomplete UTF-8 sequence or a carriage return at its end waits for the
// next Write. Flush writes what waits.
type SafeWriter struct {
	w    io.Writer
	tail []byte // start of a rune cut off by the end of the last Write
}

// NewSafeWriter returns a SafeWriter writing to w.
func NewSafeWriter(w io.Writer) *SafeWriter { return &SafeWriter{w: w} }

// Write sanitises p and writes it; it reports len(p) on success.
func (s *SafeWriter) Write(p []byte) (int, error) {
	buf := append(s.tail, p...)
	cut := incompleteTail(buf)
	s.tail = append([]byte(nil), buf[len(buf)-cut:]...)
	if _, err := io.WriteString(s.w, SanitizeMultiline(string(buf[:len(buf)-cut]))); err != nil {
		return 0, err
	}
	return len(p), nil
}

// Flush writes a pending incomplete rune, escaped.
func (s *SafeWriter) Flush() error {
	if len(s.tail) == 0 {
		return nil
	}
	_, err := io.WriteString(s.w, SanitizeBytes(s.tail))
	s.tail = nil
	return err
}

// incompleteTail returns how many bytes at the end of b start a UTF-8 sequence
// that more bytes could complete, or 1 for a carriage return, which may be
// the first half of a CR LF.
func incompleteTail(b []byte) int {
	if len(b) > 0 && b[len(b)-1] == '\r' {
		return 1
	}
	for n := 1; n <= min(len(b), utf8.UTFMax-1); n++ {
		c := b[len(b)-n]
		if c < utf8.RuneSelf {
			return 0
		}
		if utf8.RuneStart(c) {
			if !utf8.FullRune(b[len(b)-n:]) {
				return n
			}
			return 0
		}
	}
	return 0
}

// JSONSafeWriter makes encoding/json output safe for a terminal without
// changing what it means: encoding/json already escapes C0 controls, but
// passes C1 controls (U+0080-U+009F, which UTF-8 terminals may obey as CSI,
// OSC...), bidi overrides and the other runes Sanitize escapes as raw UTF-8.
// Outside strings JSON is ASCII, so every such rune is inside a string and
// is written as a \uXXXX escape (a surrogate pair above U+FFFF): a script
// decoding the JSON gets the exact value back.
type JSONSafeWriter struct {
	w    io.Writer
	tail []byte
	out  []byte
}

// NewJSONSafeWriter returns a JSONSafeWriter writing to w.
func NewJSONSafeWriter(w io.Writer) *JSONSafeWriter { return &JSONSafeWriter{w: w} }

// Write escapes unsafe runes in p and writes it; it reports len(p) on success.
func (j *JSONSafeWriter) Write(p []byte) (int, error) {
	buf := append(j.tail, p...)
	cut := incompleteTail(buf)
	j.tail = append([]byte(nil), buf[len(buf)-cut:]...)
	buf = buf[:len(buf)-cut]
	out := j.out[:0]
	for i := 0; i < len(buf); {
		c := buf[i]
		if c < utf8.RuneSelf {
			if c < 0x20 && c != '\n' || c == 0x7F {
				out = appendJSONEscape(out, rune(c))
			} else {
				out = append(out, c)
			}
			i++
			continue
		}
		r, n := utf8.DecodeRune(buf[i:])
		switch {
		case r == utf8.RuneError && n == 1:
			out = append(out, "\\ufffd"...) // as encoding/json replaces invalid bytes
		case !isSafeRune(r):
			out = appendJSONEscape(out, r)
		default:
			out = append(out, buf[i:i+n]...)
		}
		i += n
	}
	j.out = out[:0]
	if _, err := j.w.Write(out); err != nil {
		return 0, err
	}
	return len(p), nil
}

func appendJSONEscape(b []byte, r rune) []byte {
	const hex = "0123456789abcdef"
	one := func(b []byte, v rune) []byte {
		return append(b, '\\', 'u', hex[v>>12&0xF], hex[v>>8&0xF], hex[v>>4&0xF], hex[v&0xF])
	}
	if r > 0xFFFF {
		r -= 0x10000
		return one(one(b, 0xD800+(r>>10)), 0xDC00+(r&0x3FF))
	}
	return one(b, r)
}
