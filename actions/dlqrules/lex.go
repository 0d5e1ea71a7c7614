package dlqrules

import (
	"bytes"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/poisonwatch/poisonwatch/internal/words"
)

// Pos is a place in a rules table: 1-based line and column (in bytes).
type Pos struct{ Line, Col int }

func (p Pos) String() string { return fmt.Sprintf("line %d, column %d", p.Line, p.Col) }

// Error is one problem in a rules table.
type Error struct {
	Pos Pos
	Msg string
}

func (e *Error) Error() string { return e.Pos.String() + ": " + e.Msg }

// Errors are all the problems of a table; a table with any is refused whole.
type Errors []*Error

func (es Errors) Error() string {
	parts := make([]string, len(es))
	for i, e := range es {
		parts[i] = e.Error()
	}
	return strings.Join(parts, "\n")
}

// Counted is how many errors there are, in words: "1 error", "3 errors".
func (es Errors) Counted() string { return words.CountPlain(len(es), "error") }

// maxSignificant is the portable line length IBM's conventions give.
const maxSignificant = 72

// entry is one logical entry: its physical lines joined at the continuation
// characters, each byte remembering where it came from.
type entry struct {
	text []byte
	pos  []Pos
}

func (e *entry) at(i int) Pos {
	switch {
	case len(e.pos) == 0:
		return Pos{1, 1}
	case i < len(e.pos):
		return e.pos[i]
	}
	p := e.pos[len(e.pos)-1]
	return Pos{p.Line, p.Col + 1}
}

// entries splits a table into logical entries: blank lines and comment lines
// (first non-blank character '*') go; a '+' as the last non-blank character
// joins the next line from its first non-blank character, a '-' from its
// start. Binary data is refused at its first byte.
func entries(data []byte) ([]entry, []string, error) {
	if err := checkText(data); err != nil {
		return nil, nil, err
	}
	var out []entry
	var warns []string
	var cur *entry
	cont := byte(0)
	contAt := Pos{}
	lines := bytes.Split(bytes.TrimSuffix(data, []byte("\n")), []byte("\n"))
	for n, raw := range lines {
		line := bytes.TrimRight(raw, "\r")
		lineNo := n + 1
		start := 0
		if cur == nil {
			t := bytes.TrimLeft(line, " \t")
			if len(t) == 0 || t[0] == '*' {
				continue
			}
			cur = &entry{}
		} else if cont == '+' {
			start = len(line) - len(bytes.TrimLeft(line, " \t"))
		}
		end := len(bytes.TrimRight(line, " \t"))
		if end > maxSignificant {
			warns = append(warns, fmt.Sprintf("line %d: %d significant characters; IBM's conventions allow 72 for portability", lineNo, end))
		}
		cont = 0
		if end > start && (line[end-1] == '+' || line[end-1] == '-') {
			cont = line[end-1]
			contAt = Pos{lineNo, end}
			end--
		}
		for i := start; i < end; i++ {
			cur.text = append(cur.text, line[i])
			cur.pos = append(cur.pos, Pos{lineNo, i + 1})
		}
		if cont == 0 {
			out = append(out, *cur)
			cur = nil
		}
	}
	if cur != nil {
		return nil, nil, &Error{Pos: contAt, Msg: fmt.Sprintf("the entry continues ('%c') but no line follows", cont)}
	}
	return out, warns, nil
}

// checkText refuses data that is not text: a NUL or other control byte, or
// bytes that are not UTF-8.
func checkText(data []byte) error {
	line, col := 1, 1
	for i := 0; i < len(data); {
		r, size := utf8.DecodeRune(data[i:])
		switch {
		case r == utf8.RuneError && size <= 1:
			return &Error{Pos: Pos{line, col}, Msg: fmt.Sprintf("byte 0x%02x is not text (UTF-8): this is not a rules table", data[i])}
		case r == '\n':
			line, col = line+1, 0
		case r < 0x20 && r != '\t' && r != '\r', r == 0x7f:
			return &Error{Pos: Pos{line, col}, Msg: fmt.Sprintf("control byte 0x%02x: this is not a rules table", r)}
		}
		i += size
		col += size
	}
	return nil
}

// item is one KEYWORD(value) of an entry.
type item struct {
	kw     string // upper case
	kwPos  Pos
	value  string // unquoted values folded to upper case; quoted as written
	quoted bool
	valPos Pos
}

// items tokenises an entry: keywords separated by blanks or commas, each with
// a parenthesised value, quoted with ' (” inside for one ') or not.
func items(e *entry) ([]item, *Error) {
	t := e.text
	var out []item
	i := 0
	skip := func(seps string) {
		for i < len(t) && strings.IndexByte(seps, t[i]) >= 0 {
			i++
		}
	}
	for {
		skip(" \t,")
		if i >= len(t) {
			return out, nil
		}
		it := item{kwPos: e.at(i)}
		s := i
		for i < len(t) && (t[i] >= 'A' && t[i] <= 'Z' || t[i] >= 'a' && t[i] <= 'z') {
			i++
		}
		if i == s {
			return nil, &Error{Pos: e.at(i), Msg: fmt.Sprintf("expected a keyword, found %q", clip(t[i:]))}
		}
		it.kw = strings.ToUpper(string(t[s:i]))
		skip(" \t")
		if i >= len(t) || t[i] != '(' {
			return nil, &Error{Pos: e.at(i), Msg: fmt.Sprintf("expected '(' and a value after %s", it.kw)}
		}
		i++
		skip(" \t")
		it.valPos = e.at(i)
		var err *Error
		if i, err = value(e, i, &it); err != nil {
			return nil, err
		}
		out = append(out, it)
	}
}

// value reads a value and its closing parenthesis from t[i:].
func value(e *entry, i int, it *item) (int, *Error) {
	t := e.text
	if i < len(t) && t[i] == '\'' {
		it.quoted = true
		var b strings.Builder
		for i++; ; i++ {
			if i >= len(t) {
				return i, &Error{Pos: it.valPos, Msg: fmt.Sprintf("%s: the quoted value is not closed with '", it.kw)}
			}
			if t[i] == '\'' {
				if i+1 < len(t) && t[i+1] == '\'' {
					b.WriteByte('\'')
					i++
					continue
				}
				i++
				break
			}
			b.WriteByte(t[i])
		}
		it.value = b.String()
		for i < len(t) && (t[i] == ' ' || t[i] == '\t') {
			i++
		}
	} else {
		s := i
		for i < len(t) && t[i] != ')' && t[i] != ' ' && t[i] != '\t' && t[i] != '(' && t[i] != '\'' {
			i++
		}
		it.value = strings.ToUpper(string(t[s:i]))
		for i < len(t) && (t[i] == ' ' || t[i] == '\t') {
			i++
		}
	}
	if i >= len(t) || t[i] != ')' {
		return i, &Error{Pos: e.at(i), Msg: fmt.Sprintf("expected ')' to close %s(", it.kw)}
	}
	if it.value == "" {
		return i, &Error{Pos: it.valPos, Msg: fmt.Sprintf("%s needs a value with at least one significant character", it.kw)}
	}
	return i + 1, nil
}

// clip shows at most a few bytes of what was found, sanitised by %q.
func clip(b []byte) string {
	if len(b) > 12 {
		b = b[:12]
	}
	return string(b)
}
