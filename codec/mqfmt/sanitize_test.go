package mqfmt

import (
	"fmt"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"
)

// terminalProblem returns what makes s unsafe for a terminal, or "" when it is
// safe: invalid UTF-8, a C0 control (other than \n when multiline), DEL, a C1
// control, a format character (bidi controls, zero-width characters, BOM) or a
// line or paragraph separator.
func terminalProblem(s string, multiline bool) string {
	if !utf8.ValidString(s) {
		return "invalid UTF-8"
	}
	for i, r := range s {
		switch {
		case r == '\n' && multiline:
		case r < 0x20, r == 0x7F, r >= 0x80 && r <= 0x9F:
			return fmt.Sprintf("control %U at byte %d", r, i)
		case unicode.Is(unicode.Cf, r), r == 0x2028, r == 0x2029:
			return fmt.Sprintf("format or separator %U at byte %d", r, i)
		case (r >= 0x202A && r <= 0x202E) || (r >= 0x2066 && r <= 0x2069) || (r >= 0x200B && r <= 0x200F) || r == 0xFEFF:
			return fmt.Sprintf("bidi or zero-width %U at byte %d", r, i)
		}
	}
	return ""
}

func TestSanitize(t *testing.T) {
	tests := []struct {
		name, in, want string
	}{
		{"plain ASCII passes unchanged", "MQRC_Q_FULL on QL.A", "MQRC_Q_FULL on QL.A"},
		{"accented and CJK letters pass", "Café 東京 €", "Café 東京 €"},
		{"escape sequence is made visible", "\x1b[2J\x1b]0;pwned\x07", `\x1b[2J\x1b]0;pwned\x07`},
		{"newline and carriage return become \\n and \\r", "a\r\nb", `a\r\nb`},
		{"tab expands to the next tab stop", "ab\tc", "ab      c"},
		{"tab at a tab stop is a full tab", "12345678\tx", "12345678        x"},
		{"NUL and DEL are escaped", "a\x00b\x7f", `a\x00b\x7f`},
		{"C1 CSI rune is escaped", "a\u009b31m", `a\u009b31m`},
		{"NEL is escaped on one line", "a\u0085b", `a\u0085b`},
		{"right-to-left override is escaped", "invoice\u202Egpj.exe", `invoice\u202egpj.exe`},
		{"bidi isolates are escaped", "\u2066x\u2069", `\u2066x\u2069`},
		{"zero-width space and joiner are escaped", "a\u200Bb\u200Dc", `a\u200bb\u200dc`},
		{"left-to-right and right-to-left marks are escaped", "\u200E\u200F", `\u200e\u200f`},
		{"byte order mark is escaped", "\uFEFFhello", `\ufeffhello`},
		{"soft hyphen is escaped", "pass\u00ADword", `pass\u00adword`},
		{"tag characters use the long escape", "a\U000E0041", `a\U000e0041`},
		{"line separator is escaped", "a\u2028b", `a\u2028b`},
		{"invalid UTF-8 bytes are escaped one by one", "ok\xff\xfe", `ok\xff\xfe`},
		{"raw 0x9B CSI byte is invalid UTF-8 and escaped", "\x9b2J", `\x9b2J`},
		{"replacement character stays", "bad\uFFFDbyte", "bad\uFFFDbyte"},
		{"private use is escaped", "\uE000", `\ue000`},
		{"backslash is not doubled", `C:\temp`, `C:\temp`},
		{"empty stays empty", "", ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := Sanitize(tc.in)
			if got != tc.want {
				t.Errorf("Sanitize(%q) = %q, want %q", tc.in, got, tc.want)
			}
			if p := terminalProblem(got, false); p != "" {
				t.Errorf("output unsafe: %s", p)
			}
			if b := SanitizeBytes([]byte(tc.in)); b != got {
				t.Errorf("SanitizeBytes = %q, Sanitize = %q", b, got)
			}
		})
	}
}

func TestSanitizeMultiline(t *testing.T) {
	tests := []struct {
		name, in, want string
	}{
		{"newlines are kept", "a\nb\n", "a\nb\n"},
		{"CR LF becomes LF", "a\r\nb\r\n", "a\nb\n"},
		{"lone CR is escaped so a line cannot overwrite itself", "safe\rEVIL", `safe\rEVIL`},
		{"EBCDIC NEL ends a line", "line1\u0085line2", "line1\nline2"},
		{"line and paragraph separators end a line", "a\u2028b\u2029c", "a\nb\nc"},
		{"tab stops restart on each line", "abc\n\tx", "abc\n        x"},
		{"tab after an escape counts the escape's width", "\x01\tx", `\x01` + "    x"},
		{"escape sequences are escaped", "ok\n\x1b[31mred", "ok\n" + `\x1b[31mred`},
		{"vertical tab and form feed are escaped", "a\vb\fc", `a\x0bb\x0cc`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := SanitizeMultiline(tc.in)
			if got != tc.want {
				t.Errorf("SanitizeMultiline(%q) = %q, want %q", tc.in, got, tc.want)
			}
			if p := terminalProblem(got, true); p != "" {
				t.Errorf("output unsafe: %s", p)
			}
		})
	}
}

func TestSanitizeCleanInputIsNotCopied(t *testing.T) {
	in := strings.Repeat("plain text, nothing to escape. ", 10)
	allocs := testing.AllocsPerRun(100, func() { _ = Sanitize(in) })
	if allocs != 0 {
		t.Errorf("Sanitize of clean text allocated %.0f times, want 0", allocs)
	}
}

func FuzzSanitize(f *testing.F) {
	for _, s := range []string{"", "plain", "\x1b[2J", "a\r\nb", "\u202Eevil", "\xff\xfe", "\t\t", "\u0085\u2028", "\U000E0001"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if p := terminalProblem(Sanitize(s), false); p != "" {
			t.Errorf("Sanitize(%q): %s", s, p)
		}
		if p := terminalProblem(SanitizeMultiline(s), true); p != "" {
			t.Errorf("SanitizeMultiline(%q): %s", s, p)
		}
		if Sanitize(s) != SanitizeBytes([]byte(s)) {
			t.Errorf("SanitizeBytes differs from Sanitize for %q", s)
		}
		if safePrefix(s, false) == len(s) && Sanitize(s) != s {
			t.Errorf("clean %q was changed", s)
		}
	})
}

// BenchmarkSanitize sanitises 4 KiB of mostly clean text with some escapes,
// tabs and non-ASCII letters, the shape of a typical text body.
func BenchmarkSanitize(b *testing.B) {
	line := "2026-11-30T07:42:31Z\tORDER 123456 Café\x1b[0m status=REJECTED\r\n"
	in := strings.Repeat(line, 4096/len(line)+1)[:4096]
	b.SetBytes(int64(len(in)))
	b.ReportAllocs()
	for b.Loop() {
		_ = SanitizeMultiline(in)
	}
}
