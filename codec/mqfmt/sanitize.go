package mqfmt

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// TabWidth is the tab stop distance Sanitize expands tabs to, counted in runes
// from the start of the line (a wide character counts as one).
const TabWidth = 8

// Sanitize makes s safe to print on one terminal line: nothing in it can start
// a control or escape sequence, move the cursor, reorder or hide text.
//
// A rune passes unchanged when it is graphic (a letter, mark, number,
// punctuation, symbol or space separator in Unicode's tables). Everything else
// becomes a visible escape in Go's notation:
//   - C0 controls, DEL, and bytes that are not UTF-8: \x1b, \x7f, \xff
//     (newline and carriage return as \n and \r); a tab becomes spaces up to
//     the next multiple of TabWidth;
//   - C1 controls, including CSI as a rune: \u009b;
//   - format characters that can spoof or reorder text: bidi embeddings,
//     overrides and isolates (U+202A-U+202E, U+2066-U+2069), zero-width
//     characters and marks (U+200B-U+200F), the byte order mark U+FEFF, soft
//     hyphen, tag characters: \u202e, \U000e0001;
//   - line and paragraph separators, private-use, surrogate and unassigned
//     code points.
//
// U+FFFD, which DecodeText puts where bytes did not decode, is graphic and stays.
// A backslash is not doubled: the escapes are for the operator's eyes, and
// doubling every backslash in JSON bodies would make them harder to read, so a
// literal "\x1b" in a message looks like an escaped ESC.
//
// The result is valid UTF-8, whatever s holds.
func Sanitize(s string) string { return sanitize(s, false) }

// SanitizeBytes is Sanitize for raw bytes, read as UTF-8.
func SanitizeBytes(b []byte) string { return sanitize(string(b), false) }

// SanitizeMultiline is Sanitize for text shown over several lines: newlines are
// kept, CR LF becomes LF, and the EBCDIC newline NEL (U+0085, byte 0x15 in
// EBCDIC code pages) and the Unicode line and paragraph separators become
// newlines too, which is how IBM MQ's default conversion (ConvEBCDICNewline
// NL_TO_LF) shows such text. A lone carriage return is escaped as \r, since it
// would let a line overwrite itself.
func SanitizeMultiline(s string) string { return sanitize(s, true) }

// isSafeRune reports whether r may reach a terminal as is.
func isSafeRune(r rune) bool {
	if r < utf8.RuneSelf {
		return r >= 0x20 && r != 0x7F
	}
	return unicode.IsGraphic(r)
}

// safePrefix returns the length of the longest prefix of s that passes
// unchanged, so that clean strings (the common case) are not copied.
func safePrefix(s string, multiline bool) int {
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if (c < 0x20 || c == 0x7F) && !(multiline && c == '\n') {
				return i
			}
			i++
			continue
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		if (r == utf8.RuneError && n == 1) || !isSafeRune(r) {
			return i
		}
		i += n
	}
	return len(s)
}

func sanitize(s string, multiline bool) string {
	run := safePrefix(s, multiline)
	if run == len(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + len(s)/4 + 8)
	col := 0
	for i := 0; i < len(s); {
		if run > 0 { // copy a run of safe text at once, keeping the column for tabs
			text := s[i : i+run]
			b.WriteString(text)
			if nl := strings.LastIndexByte(text, '\n'); nl >= 0 {
				col = utf8.RuneCountInString(text[nl+1:])
			} else {
				col += utf8.RuneCountInString(text)
			}
			i += run
		}
		if i < len(s) {
			i, col = sanitizeOne(&b, s, i, col, multiline)
			run = safePrefix(s[i:], multiline)
		}
	}
	return b.String()
}

// sanitizeOne writes the rune at s[i], which safePrefix stopped at, and returns
// the offset after it and the new column.
func sanitizeOne(b *strings.Builder, s string, i, col int, multiline bool) (int, int) {
	r, n := utf8.DecodeRuneInString(s[i:])
	switch {
	case r == utf8.RuneError && n == 1:
		col += writeEscape(b, 'x', rune(s[i]), 2)
	case multiline && (r == 0x85 || r == 0x2028 || r == 0x2029):
		b.WriteByte('\n')
		col = 0
	case multiline && r == '\r' && i+1 < len(s) && s[i+1] == '\n':
		// dropped: the LF that follows ends the line
	case r == '\t':
		pad := TabWidth - col%TabWidth
		b.WriteString("        "[:pad])
		col += pad
	default:
		col += escapeRune(b, r)
	}
	return i + n, col
}

// escapeRune writes r in Go's escape notation and returns the runes written.
func escapeRune(b *strings.Builder, r rune) int {
	switch {
	case r == '\n':
		b.WriteString(`\n`)
		return 2
	case r == '\r':
		b.WriteString(`\r`)
		return 2
	case r < 0x80:
		return writeEscape(b, 'x', r, 2)
	case r <= 0xFFFF:
		return writeEscape(b, 'u', r, 4)
	}
	return writeEscape(b, 'U', r, 8)
}

func writeEscape(b *strings.Builder, kind byte, v rune, digits int) int {
	const hex = "0123456789abcdef"
	b.WriteByte('\\')
	b.WriteByte(kind)
	for shift := (digits - 1) * 4; shift >= 0; shift -= 4 {
		b.WriteByte(hex[(v>>shift)&0xF])
	}
	return 2 + digits
}
