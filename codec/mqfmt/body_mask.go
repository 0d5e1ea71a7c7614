package mqfmt

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// MaskRune replaces each hidden letter or digit in Mask's output.
const MaskRune = '•'

// Mask hides the values in a decoded body for screens others can see (a
// war-room display), keeping its shape so an operator can still tell what kind
// of message it is: every letter and digit of a value becomes MaskRune, one rune
// for one rune, while punctuation, white space and structure stay.
//
//   - JSON (text starting with '{' or '['): object keys stay; string, number and
//     literal values are masked.
//   - XML (text starting with '<'): element and attribute names stay; attribute
//     values, text, CDATA, comments and any other words inside tags are masked.
//   - Anything else: every letter and digit is masked.
//
// Mask works on malformed and cut-off input too, never fails, and never
// un-masks anything that it cannot place. It does not sanitise: Sanitize after.
func Mask(s string) string {
	t := strings.TrimLeft(s, jsonSpace+"\uFEFF")
	var b strings.Builder
	b.Grow(len(s) + len(s)/2)
	b.WriteString(s[:len(s)-len(t)])
	switch {
	case t == "":
	case t[0] == '{' || t[0] == '[':
		maskJSON(&b, t)
	case t[0] == '<':
		maskXML(&b, t)
	default:
		maskAll(&b, t)
	}
	return b.String()
}

// maskAll writes s with each letter and digit replaced.
func maskAll(b *strings.Builder, s string) {
	for _, r := range s {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			b.WriteRune(MaskRune)
		} else {
			b.WriteRune(r)
		}
	}
}

// maskJSON tracks, for each open container, whether the next string is a key:
// after '{', and after ',' inside an object. Only those strings stay readable.
func maskJSON(b *strings.Builder, s string) {
	var objects []bool // per open container: is it an object?
	expectKey := false
	for i := 0; i < len(s); {
		c := s[i]
		switch c {
		case '{', '[':
			objects = append(objects, c == '{')
			expectKey = c == '{'
		case '}', ']':
			if len(objects) > 0 {
				objects = objects[:len(objects)-1]
			}
			expectKey = false
		case ',':
			expectKey = len(objects) > 0 && objects[len(objects)-1]
		case ':':
			expectKey = false
		case '"':
			end := jsonStringEnd(s, i)
			if expectKey {
				b.WriteString(s[i:end])
			} else {
				maskAll(b, s[i:end])
			}
			expectKey = false
			i = end
			continue
		default:
			_, n := utf8.DecodeRuneInString(s[i:])
			maskAll(b, s[i:i+n])
			i += n
			continue
		}
		b.WriteByte(c)
		i++
	}
}

// jsonStringEnd returns the offset after the string starting at s[i] == '"',
// or len(s) when it is not closed.
func jsonStringEnd(s string, i int) int {
	for j := i + 1; j < len(s); j++ {
		switch s[j] {
		case '\\':
			j++
		case '"':
			return j + 1
		}
	}
	return len(s)
}

// maskXML keeps markup names and masks content. Inside a tag, quoted attribute
// values are masked; outside, text is masked; comments and CDATA keep their
// delimiters and lose their content.
func maskXML(b *strings.Builder, s string) {
	for i := 0; i < len(s); {
		switch {
		case strings.HasPrefix(s[i:], "<!--"):
			i = maskDelimited(b, s, i, "<!--", "-->")
		case strings.HasPrefix(s[i:], "<![CDATA["):
			i = maskDelimited(b, s, i, "<![CDATA[", "]]>")
		case s[i] == '<':
			i = maskTag(b, s, i)
		default:
			end := strings.IndexByte(s[i:], '<')
			if end < 0 {
				end = len(s) - i
			}
			maskAll(b, s[i:i+end])
			i += end
		}
	}
}

// maskDelimited writes open, the masked content, and close if present.
func maskDelimited(b *strings.Builder, s string, i int, open, close string) int {
	b.WriteString(open)
	i += len(open)
	end := strings.Index(s[i:], close)
	if end < 0 {
		maskAll(b, s[i:])
		return len(s)
	}
	maskAll(b, s[i:i+end])
	b.WriteString(close)
	return i + end + len(close)
}

// maskTag writes the tag starting at s[i] == '<' and returns the offset after
// its '>'. It keeps the tag's name and the names of attributes (words followed
// by '='), and masks everything else: values quoted or not, and stray words,
// which are no XML and could be anything. A tag that does not close is masked
// whole.
func maskTag(b *strings.Builder, s string, i int) int {
	end := tagEnd(s, i)
	if end < 0 {
		maskAll(b, s[i:])
		return len(s)
	}
	tag := s[i:end]
	j := 1
	for j < len(tag) && strings.IndexByte("/?!", tag[j]) >= 0 {
		j++
	}
	name := j + wordLen(tag[j:])
	b.WriteString(tag[:j])
	if isNameStart(tag[j:name]) {
		b.WriteString(tag[j:name])
	} else {
		maskAll(b, tag[j:name])
	}
	for j = name; j < len(tag); {
		switch c := tag[j]; {
		case c == '"' || c == '\'':
			q := strings.IndexByte(tag[j+1:], c) + j + 2
			maskAll(b, tag[j:q])
			j = q
		case c == '=' || c == '/' || c == '?' || c == '>' || isXMLSpace(c):
			b.WriteByte(c)
			j++
		default:
			w := j + wordLen(tag[j:])
			if rest := strings.TrimLeft(tag[w:], xmlSpace); strings.HasPrefix(rest, "=") {
				b.WriteString(tag[j:w])
			} else {
				maskAll(b, tag[j:w])
			}
			j = w
		}
	}
	return end
}

// tagEnd returns the offset after the '>' that closes the tag at s[i], skipping
// quoted values, or -1.
func tagEnd(s string, i int) int {
	for j := i + 1; j < len(s); j++ {
		switch c := s[j]; c {
		case '"', '\'':
			k := strings.IndexByte(s[j+1:], c)
			if k < 0 {
				return -1
			}
			j += k + 1
		case '>':
			return j + 1
		}
	}
	return -1
}

// wordLen is the length of the run of name characters at the start of s.
func wordLen(s string) int {
	for i := 0; i < len(s); i++ {
		if c := s[i]; isXMLSpace(c) || strings.IndexByte("=/?>\"'", c) >= 0 {
			return i
		}
	}
	return len(s)
}

func isXMLSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\r' || c == '\n' }

func isNameStart(s string) bool {
	r, _ := utf8.DecodeRuneInString(s)
	return r == '_' || r == ':' || unicode.IsLetter(r)
}
