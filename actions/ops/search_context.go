package ops

import (
	"bytes"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/poisonwatch/poisonwatch/codec/mqfmt"
)

// The line a search shows for a match (Hit.Context), as grep shows the
// line that matched: the decoded text around it, the bytes as text when
// they mostly are, else hex; always safe to print.

// contextBefore and contextAfter bound the context line: characters (or
// bytes, in hex) shown before and after the match.
const (
	contextBefore = 24
	contextAfter  = 60
)

// textContext is the decoded text around s[at:at+n], on one line,
// sanitised, and where the match is in it (runes).
func textContext(s string, at, n int) (string, int, int) {
	start := at
	for k := 0; k < contextBefore && start > 0; k++ {
		_, w := utf8.DecodeLastRuneInString(s[:start])
		start -= w
	}
	end := at + n
	for k := 0; k < contextAfter && end < len(s); k++ {
		_, w := utf8.DecodeRuneInString(s[end:])
		end += w
	}
	var b strings.Builder
	if start > 0 {
		b.WriteString("…")
	}
	b.WriteString(mqfmt.Sanitize(oneLine(s[start:at])))
	pos := utf8.RuneCountInString(b.String())
	match := mqfmt.Sanitize(oneLine(s[at : at+n]))
	b.WriteString(match)
	b.WriteString(mqfmt.Sanitize(oneLine(s[at+n : end])))
	if end < len(s) {
		b.WriteString("…")
	}
	return b.String(), pos, utf8.RuneCountInString(match)
}

// mostlyPrintable says the bytes around body[at:at+n] are mostly printable
// ASCII: text that no CCSID decoded, worth showing as text.
func mostlyPrintable(body []byte, at, n int) bool {
	start, end := max(at-contextBefore, 0), min(at+n+contextAfter, len(body))
	printable, all := 0, 0
	for i := start; i < end; i++ {
		if i >= at && i < at+n {
			continue
		}
		all++
		if body[i] >= 0x20 && body[i] < 0x7F {
			printable++
		}
	}
	return all == 0 || printable*4 >= all*3
}

// printableContext is the bytes around body[at:at+n] as grep -a shows them:
// printable ASCII as it is, every other byte '.', with the match's offset.
func printableContext(body []byte, at, n int) (string, int, int) {
	start, end := max(at-contextBefore, 0), min(at+n+contextAfter, len(body))
	show := func(b []byte) string {
		return strings.Map(func(r rune) rune {
			if r < 0x20 || r >= 0x7F {
				return '.'
			}
			return r
		}, string(bytes.ToValidUTF8(b, []byte{'.'})))
	}
	var b strings.Builder
	fmt.Fprintf(&b, "at byte %d: ", at)
	if start > 0 {
		b.WriteString("…")
	}
	b.WriteString(show(body[start:at]))
	pos := utf8.RuneCountInString(b.String())
	b.WriteString(show(body[at : at+n]))
	b.WriteString(show(body[at+n : end]))
	if end < len(body) {
		b.WriteString("…")
	}
	return b.String(), pos, n
}

// oneLine turns the line breaks of a context into spaces.
func oneLine(s string) string {
	return strings.Map(func(r rune) rune {
		switch r {
		case '\n', '\r', 0x85, 0x2028, 0x2029:
			return ' '
		}
		return r
	}, s)
}

// bytesContext is the offset of body[at:at+n] and the bytes around it, in
// hex, the match in brackets, with where the bracket opens (runes).
func bytesContext(body []byte, at, n int) (string, int, int) {
	start, end := max(at-contextBefore/3, 0), min(at+n+contextAfter/3, len(body))
	hx := func(b []byte) string { return strings.ToUpper(strings.TrimSpace(fmt.Sprintf("% x", b))) }
	var b strings.Builder
	fmt.Fprintf(&b, "bytes at %d: ", at)
	if start > 0 {
		b.WriteString("… ")
	}
	if start < at {
		b.WriteString(hx(body[start:at]) + " ")
	}
	pos, match := utf8.RuneCountInString(b.String()), "["+hx(body[at:at+n])+"]"
	b.WriteString(match)
	if at+n < end {
		b.WriteString(" " + hx(body[at+n:end]))
	}
	if end < len(body) {
		b.WriteString(" …")
	}
	return b.String(), pos, len(match)
}
