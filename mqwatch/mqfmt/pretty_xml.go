package mqfmt

import (
	"errors"
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// xmlSpace is the white space XML allows between markup.
const xmlSpace = " \t\r\n"

// PrettyXML indents XML two spaces a level: each tag, comment, CDATA section and
// processing instruction on its own line, an element holding only text on one
// line. Markup is copied byte for byte (attributes, quotes, entity references
// and namespace prefixes untouched); text loses only its leading and trailing
// white space, white space between tags is replaced by the indentation, and a
// leading byte order mark is dropped, so with all white space and byte order
// marks removed the output equals the input.
//
// It is a tolerant scanner, not a validating parser: it checks that tags are
// closed, nest and match, that there is one root element, and that quotes
// close. When s is cut off by the end of the data the part that was seen is
// indented, the unfinished rest appended as is, and a *DecodeError wrapping
// ErrTruncated is returned. Otherwise malformed input is returned unchanged with
// a *DecodeError naming the offset in s where the scan failed.
func PrettyXML(s string) (string, error) {
	t := strings.TrimLeft(s, xmlSpace+"\uFEFF")
	lead := len(s) - len(t)
	var l xmlLayout
	rest, err := scanXML(t, l.add)
	var de *DecodeError
	if errors.As(err, &de) {
		de.Offset += lead
	}
	if err != nil && !errors.Is(err, ErrTruncated) {
		return s, err
	}
	l.flush()
	if tail := t[rest:]; tail != "" {
		l.line(tail)
	}
	return l.b.String(), err
}

// xmlKind is a lexical kind of XML token.
type xmlKind uint8

const (
	xmlText  xmlKind = iota
	xmlStart         // <a ...>
	xmlEnd           // </a>
	xmlOther         // <a/>, comment, CDATA, processing instruction, declaration
)

type xmlToken struct {
	kind xmlKind
	raw  string
}

// xmlScanner walks XML text, checking structure and handing tokens to emit.
type xmlScanner struct {
	s     string
	pos   int
	stack []string
	roots int
	emit  func(xmlToken)
}

// scanXML scans s, which starts at its first non-space byte. It returns the
// offset of the token being scanned when it stopped (len(s) when it finished)
// and a *DecodeError, wrapping ErrTruncated when s ended early.
func scanXML(s string, emit func(xmlToken)) (int, error) {
	if emit == nil {
		emit = func(xmlToken) {}
	}
	sc := xmlScanner{s: s, emit: emit}
	for sc.pos < len(s) {
		start := sc.pos
		var err error
		if s[sc.pos] == '<' {
			err = sc.markup()
		} else {
			err = sc.text()
		}
		if err != nil {
			return start, err
		}
	}
	if n := len(sc.stack); n > 0 {
		return len(s), sc.cut(len(s), fmt.Sprintf("%d elements still open, innermost <%s>", n, sanitizeShort([]byte(sc.stack[n-1]))))
	}
	if sc.roots == 0 {
		return len(s), decodeErr("XML", 0, "no element")
	}
	return len(s), nil
}

func (sc *xmlScanner) cut(off int, what string) error {
	return &DecodeError{Struct: "XML", Offset: off, Err: ErrTruncated, Msg: what + ": the body is cut off"}
}

func (sc *xmlScanner) text() error {
	end := strings.IndexByte(sc.s[sc.pos:], '<')
	if end < 0 {
		end = len(sc.s) - sc.pos
	}
	raw := sc.s[sc.pos : sc.pos+end]
	if len(sc.stack) == 0 {
		if t := strings.TrimLeft(raw, xmlSpace); t != "" {
			return decodeErr("XML", sc.pos+len(raw)-len(t), "text outside the root element")
		}
	}
	sc.emit(xmlToken{xmlText, raw})
	sc.pos += end
	return nil
}

func (sc *xmlScanner) markup() error {
	rest := sc.s[sc.pos:]
	for _, m := range []string{"<!--", "<![CDATA["} {
		if len(rest) < len(m) && strings.HasPrefix(m, rest) {
			return sc.cut(sc.pos, "markup")
		}
	}
	switch {
	case strings.HasPrefix(rest, "<!--"):
		return sc.until("-->", 4, "comment")
	case strings.HasPrefix(rest, "<![CDATA["):
		if len(sc.stack) == 0 {
			return decodeErr("XML", sc.pos, "CDATA section outside the root element")
		}
		return sc.until("]]>", 9, "CDATA section")
	case strings.HasPrefix(rest, "<?"):
		return sc.until("?>", 2, "processing instruction")
	case strings.HasPrefix(rest, "<!"):
		return sc.declaration()
	case strings.HasPrefix(rest, "</"):
		return sc.endTag()
	}
	return sc.startTag()
}

// until emits everything up to and including term as one token.
func (sc *xmlScanner) until(term string, skip int, what string) error {
	i := strings.Index(sc.s[sc.pos+skip:], term)
	if i < 0 {
		return sc.cut(sc.pos, what+" not closed")
	}
	end := sc.pos + skip + i + len(term)
	sc.emit(xmlToken{xmlOther, sc.s[sc.pos:end]})
	sc.pos = end
	return nil
}

// declaration scans <!DOCTYPE ...>, whose internal subset may hold '>' inside
// brackets and quotes. It may only come before the root element.
func (sc *xmlScanner) declaration() error {
	if len(sc.stack) > 0 || sc.roots > 0 {
		return decodeErr("XML", sc.pos, "declaration after the root element started")
	}
	depth, quote := 0, byte(0)
	for i := sc.pos + 2; i < len(sc.s); i++ {
		c := sc.s[i]
		switch {
		case quote != 0:
			if c == quote {
				quote = 0
			}
		case c == '"' || c == '\'':
			quote = c
		case c == '[':
			depth++
		case c == ']':
			depth--
		case c == '>' && depth <= 0:
			sc.emit(xmlToken{xmlOther, sc.s[sc.pos : i+1]})
			sc.pos = i + 1
			return nil
		}
	}
	return sc.cut(sc.pos, "declaration not closed")
}

// name returns the tag name starting at i and the offset after it.
func (sc *xmlScanner) name(i int) (string, int) {
	j := i
	for j < len(sc.s) && !strings.ContainsRune(xmlSpace+"/><=\"'", rune(sc.s[j])) {
		j++
	}
	return sc.s[i:j], j
}

func isNameStart(s string) bool {
	r, _ := utf8.DecodeRuneInString(s)
	return r == '_' || r == ':' || unicode.IsLetter(r)
}

func (sc *xmlScanner) startTag() error {
	name, i := sc.name(sc.pos + 1)
	if name == "" && i == len(sc.s) {
		return sc.cut(sc.pos, "tag not closed")
	}
	if !isNameStart(name) {
		return decodeErr("XML", sc.pos+1, "'<' not followed by an element name")
	}
	for i < len(sc.s) {
		switch c := sc.s[i]; {
		case c == '"' || c == '\'':
			j := strings.IndexByte(sc.s[i+1:], c)
			if j < 0 {
				return sc.cut(sc.pos, "attribute value not closed")
			}
			i += j + 2
		case c == '<':
			return decodeErr("XML", i, "'<' inside the tag <%s>", sanitizeShort([]byte(name)))
		case c == '>' || (c == '/' && i+1 < len(sc.s) && sc.s[i+1] == '>'):
			return sc.openElement(name, c == '/', i)
		default:
			i++
		}
	}
	return sc.cut(sc.pos, "tag not closed")
}

// openElement emits a start tag ending at gt ('>' or the '/' of "/>").
func (sc *xmlScanner) openElement(name string, empty bool, gt int) error {
	if len(sc.stack) == 0 {
		if sc.roots > 0 {
			return decodeErr("XML", sc.pos, "a second root element <%s>", sanitizeShort([]byte(name)))
		}
		sc.roots++
	}
	end, kind := gt+1, xmlStart
	if empty {
		end, kind = gt+2, xmlOther
	} else {
		sc.stack = append(sc.stack, name)
	}
	sc.emit(xmlToken{kind, sc.s[sc.pos:end]})
	sc.pos = end
	return nil
}

func (sc *xmlScanner) endTag() error {
	name, i := sc.name(sc.pos + 2)
	for i < len(sc.s) && strings.IndexByte(xmlSpace, sc.s[i]) >= 0 {
		i++
	}
	if i == len(sc.s) {
		return sc.cut(sc.pos, "end tag not closed")
	}
	if sc.s[i] != '>' {
		return decodeErr("XML", i, "unexpected %q in the end tag", sanitizeShort([]byte{sc.s[i]}))
	}
	n := len(sc.stack)
	if n == 0 {
		return decodeErr("XML", sc.pos, "end tag </%s> with no open element", sanitizeShort([]byte(name)))
	}
	if sc.stack[n-1] != name {
		return decodeErr("XML", sc.pos, "end tag </%s> does not match <%s>",
			sanitizeShort([]byte(name)), sanitizeShort([]byte(sc.stack[n-1])))
	}
	sc.stack = sc.stack[:n-1]
	sc.emit(xmlToken{xmlEnd, sc.s[sc.pos : i+1]})
	sc.pos = i + 1
	return nil
}

// xmlLayout turns tokens into indented lines as they arrive. A start tag is held
// back until the next token shows whether the element holds only text, so a
// leaf element stays on one line.
type xmlLayout struct {
	b        strings.Builder
	depth    int
	start    string // held-back start tag, "" if none
	text     string // text following the held-back start tag
	haveText bool
}

func (l *xmlLayout) add(t xmlToken) {
	switch {
	case t.kind == xmlText && l.start != "" && !l.haveText:
		l.text, l.haveText = t.raw, true
	case t.kind == xmlText:
		if s := strings.Trim(t.raw, xmlSpace); s != "" {
			l.line(s)
		}
	case t.kind == xmlEnd && l.start != "":
		text := l.text
		if strings.Trim(text, xmlSpace) != "" {
			text = strings.Trim(text, xmlSpace)
		}
		l.line(l.start + text + t.raw)
		l.start, l.text, l.haveText = "", "", false
	case t.kind == xmlEnd:
		l.depth = max(l.depth-1, 0)
		l.line(t.raw)
	case t.kind == xmlStart:
		l.flush()
		l.start = t.raw
	default:
		l.flush()
		l.line(t.raw)
	}
}

// flush writes a held-back start tag and its text as an open element.
func (l *xmlLayout) flush() {
	if l.start == "" {
		return
	}
	l.line(l.start)
	l.depth++
	if s := strings.Trim(l.text, xmlSpace); s != "" {
		l.line(s)
	}
	l.start, l.text, l.haveText = "", "", false
}

func (l *xmlLayout) line(s string) {
	if l.b.Len() > 0 {
		l.b.WriteByte('\n')
	}
	for range min(l.depth, maxIndentLevels) {
		l.b.WriteString(prettyIndent)
	}
	l.b.WriteString(s)
}
