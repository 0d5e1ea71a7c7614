package mqfmt

import (
	"encoding/json"
	"errors"
	"io"
	"strings"
)

// prettyIndent is one level of indentation in pretty-printed bodies.
const prettyIndent = "  "

// maxIndentLevels caps indentation. Without a cap, a hostile body of 10,000
// nested brackets (20 KB) would pretty-print to hundreds of megabytes; with it
// the output is at most about fifty times the input.
const maxIndentLevels = 24

// jsonSpace is the white space JSON allows between tokens.
const jsonSpace = " \t\r\n"

// Pretty lays a decoded body out for reading: JSON and XML indented, text and
// binary returned unchanged. See PrettyJSON and PrettyXML for the errors.
func Pretty(s string, k Kind) (string, error) {
	switch k {
	case KindJSON:
		return PrettyJSON(s)
	case KindXML:
		return PrettyXML(s)
	}
	return s, nil
}

// PrettyJSON indents JSON text two spaces a level, in exactly the layout of
// encoding/json's Indent (tested against it), with indentation capped at
// maxIndentLevels. Strings and numbers are copied byte for byte; leading white
// space and byte order marks are dropped, as ClassifyText skips them.
//
// When s is the start of a JSON value cut off by the end of the data (a browse
// reads a bounded prefix), the prefix is indented and returned with a
// *DecodeError wrapping ErrTruncated. When s is not JSON, it is returned
// unchanged with a *DecodeError naming the offending byte's offset in s.
func PrettyJSON(s string) (string, error) {
	t := strings.TrimLeft(s, jsonSpace+"\uFEFF")
	lead := len(s) - len(t)
	shape, err := checkJSON(t)
	if shape == shapeBad {
		if de, ok := err.(*DecodeError); ok {
			de.Offset += lead
		}
		return s, err
	}
	if err != nil {
		err.(*DecodeError).Offset += lead
	}
	return indentJSON(t), err
}

// jsonShapeKind says whether text is JSON, the start of JSON, or neither.
type jsonShapeKind uint8

const (
	shapeOK jsonShapeKind = iota
	shapeTruncated
	shapeBad
)

func jsonShape(t string) jsonShapeKind {
	s, _ := checkJSON(t)
	return s
}

// discardJSON lets json.Decoder validate a value without building it.
type discardJSON struct{}

// UnmarshalJSON accepts the value; the decoder has validated it by now.
func (*discardJSON) UnmarshalJSON([]byte) error { return nil }

// checkJSON validates one JSON value in t (no leading white space) with
// encoding/json's scanner. io.ErrUnexpectedEOF from the decoder means every
// byte so far was valid and the value just had not ended: a cut-off body.
func checkJSON(t string) (jsonShapeKind, error) {
	dec := json.NewDecoder(strings.NewReader(t))
	err := dec.Decode(&discardJSON{})
	switch {
	case err == nil:
		end := int(dec.InputOffset())
		rest := strings.TrimLeft(t[end:], jsonSpace)
		if rest != "" {
			return shapeBad, decodeErr("JSON", len(t)-len(rest), "data after the end of the JSON value")
		}
		return shapeOK, nil
	case errors.Is(err, io.ErrUnexpectedEOF):
		return shapeTruncated, &DecodeError{Struct: "JSON", Offset: len(t), Err: ErrTruncated,
			Msg: "ends inside a value: the body is cut off"}
	}
	var se *json.SyntaxError
	if errors.As(err, &se) && se.Offset > 0 {
		return shapeBad, decodeErr("JSON", int(se.Offset)-1, "%s", se.Error())
	}
	return shapeBad, decodeErr("JSON", 0, "%v", err)
}

// indentJSON lays out valid JSON, or a valid prefix of it, as json.Indent does:
// a newline and indentation after an opening bracket unless the container is
// empty, after each comma, and before each closing bracket; ": " after a key.
// White space outside strings is dropped; everything else is copied.
func indentJSON(t string) string {
	var b strings.Builder
	b.Grow(len(t) + len(t)/2)
	depth, inString, escaped, needIndent := 0, false, false, false
	for i := 0; i < len(t); i++ {
		c := t[i]
		if inString {
			b.WriteByte(c)
			switch {
			case escaped:
				escaped = false
			case c == '\\':
				escaped = true
			case c == '"':
				inString = false
			}
			continue
		}
		if c == ' ' || c == '\t' || c == '\r' || c == '\n' {
			continue
		}
		if needIndent && c != '}' && c != ']' {
			newline(&b, depth)
			needIndent = false
		}
		switch c {
		case '{', '[':
			b.WriteByte(c)
			depth++
			needIndent = true
		case '}', ']':
			depth = max(depth-1, 0)
			if !needIndent {
				newline(&b, depth)
			}
			needIndent = false
			b.WriteByte(c)
		case ',':
			b.WriteByte(c)
			newline(&b, depth)
		case ':':
			b.WriteString(": ")
		case '"':
			inString = true
			b.WriteByte(c)
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

// newline starts a new line indented depth levels, capped at maxIndentLevels.
func newline(b *strings.Builder, depth int) {
	b.WriteByte('\n')
	for range min(depth, maxIndentLevels) {
		b.WriteString(prettyIndent)
	}
}
