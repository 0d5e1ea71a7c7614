package mqfmt

import (
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"regexp"
	"strings"
)

// xmlSpace is the white space XML allows between markup.
const xmlSpace = " \t\r\n"

// maxXMLDepth bounds element nesting, as encoding/xml bounds Unmarshal: deeper
// documents are refused rather than held as an ever longer stack of open names.
const maxXMLDepth = 10000

// PrettyXML indents XML two spaces a level: each tag, comment, CDATA section and
// processing instruction on its own line, an element holding only text on one
// line. Markup is copied byte for byte (attributes, quotes, entity references
// and namespace prefixes untouched); text loses only its leading and trailing
// white space, white space between tags is replaced by the indentation, and a
// leading byte order mark is dropped, so with all white space and byte order
// marks removed the output equals the input.
//
// The tokens come from encoding/xml (strict, so attribute values are quoted and
// entity references known: the five predefined, character references and those
// declared in the DOCTYPE); on top of it PrettyXML checks that end tags match,
// that there is one root element with no text outside it, and that nesting stays
// within maxXMLDepth. When s is cut off by the end of the data the part that was
// seen is indented, the unfinished rest appended as is, and a *DecodeError
// wrapping ErrTruncated is returned. Otherwise malformed input is returned
// unchanged with a *DecodeError naming the offset in s where the check failed.
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

// eofReader is the decoder's input. It remembers whether the decoder asked for
// a byte past the end, which is how a body cut off inside a token is told from
// a malformed one: encoding/xml reports both as a *xml.SyntaxError.
type eofReader struct {
	strings.Reader
	hitEOF bool
}

func (r *eofReader) ReadByte() (byte, error) {
	b, err := r.Reader.ReadByte()
	r.hitEOF = r.hitEOF || err == io.EOF
	return b, err
}

func (r *eofReader) Read(p []byte) (int, error) {
	n, err := r.Reader.Read(p)
	r.hitEOF = r.hitEOF || err == io.EOF
	return n, err
}

// xmlScanner checks the structure encoding/xml leaves to its caller and hands
// each token's raw bytes to emit.
type xmlScanner struct {
	s      string
	dec    *xml.Decoder
	in     *eofReader
	stack  []xml.Name
	roots  int
	closed bool // the last token was a self-closing start tag
	emit   func(xmlToken)
}

// scanXML scans s, which starts at its first non-space byte. It returns the
// offset of the token being scanned when it stopped (len(s) when it finished)
// and a *DecodeError, wrapping ErrTruncated when s ended early.
func scanXML(s string, emit func(xmlToken)) (int, error) {
	if emit == nil {
		emit = func(xmlToken) {}
	}
	in := &eofReader{}
	in.Reset(s)
	dec := xml.NewDecoder(in)
	// The body is already decoded text; the declaration's encoding names what
	// its bytes were, so there is nothing left to convert.
	dec.CharsetReader = func(_ string, r io.Reader) (io.Reader, error) { return r, nil }
	dec.Entity = map[string]string{}
	sc := xmlScanner{s: s, dec: dec, in: in, emit: emit}
	for {
		start := int(dec.InputOffset())
		tok, err := dec.RawToken()
		if err == io.EOF {
			return len(s), sc.finish()
		}
		if err != nil {
			return start, sc.decodeFailed(start, err)
		}
		raw := s[start:dec.InputOffset()]
		if err := sc.token(tok, start, raw); err != nil {
			return start, err
		}
	}
}

func (sc *xmlScanner) finish() error {
	if n := len(sc.stack); n > 0 {
		return sc.cut(len(sc.s), fmt.Sprintf("%d elements still open, innermost <%s>", n, xmlName(sc.stack[n-1])))
	}
	if sc.roots == 0 {
		return decodeErr("XML", 0, "no element")
	}
	return nil
}

func (sc *xmlScanner) cut(off int, what string) error {
	return &DecodeError{Struct: "XML", Offset: off, Err: ErrTruncated, Msg: what + ": the body is cut off"}
}

// decodeFailed turns the decoder's error into a *DecodeError: a cut when the
// decoder ran out of input inside the token starting at start, else malformed
// at the offset where the decoder stopped.
func (sc *xmlScanner) decodeFailed(start int, err error) error {
	if sc.in.hitEOF {
		return sc.cut(start, unfinished(sc.s[start:])+" not closed")
	}
	msg := err.Error()
	var se *xml.SyntaxError
	if errors.As(err, &se) {
		msg = se.Msg
	}
	return decodeErr("XML", int(sc.dec.InputOffset()), "%s", sanitizeShort([]byte(msg)))
}

// unfinished names the markup at the start of rest for a truncation message.
func unfinished(rest string) string {
	for _, k := range []struct{ prefix, what string }{
		{"<!--", "comment"}, {"<![CDATA[", "CDATA section"}, {"<?", "processing instruction"},
		{"<!", "declaration"}, {"</", "end tag"}, {"<", "tag"},
	} {
		if strings.HasPrefix(rest, k.prefix) {
			return k.what
		}
	}
	return "text"
}

// token checks one token against the document's structure and emits it.
func (sc *xmlScanner) token(tok xml.Token, start int, raw string) error {
	switch tok := tok.(type) {
	case xml.StartElement:
		return sc.startElement(tok, start, raw)
	case xml.EndElement:
		return sc.endElement(tok, start, raw)
	case xml.CharData:
		return sc.charData(start, raw)
	case xml.Directive:
		if len(sc.stack) > 0 || sc.roots > 0 {
			return decodeErr("XML", start, "declaration after the root element started")
		}
		sc.declareEntities(raw)
	}
	sc.emit(xmlToken{xmlOther, raw})
	return nil
}

func (sc *xmlScanner) startElement(tok xml.StartElement, start int, raw string) error {
	if len(sc.stack) == 0 {
		if sc.roots > 0 {
			return decodeErr("XML", start, "a second root element <%s>", xmlName(tok.Name))
		}
		sc.roots++
	}
	// The decoder follows <a/> with an EndElement of its own making, which
	// reads no bytes; only the raw tag tells the two forms apart.
	if strings.HasSuffix(raw, "/>") {
		sc.closed = true
		sc.emit(xmlToken{xmlOther, raw})
		return nil
	}
	if len(sc.stack) >= maxXMLDepth {
		return decodeErr("XML", start, "elements nested deeper than %d", maxXMLDepth)
	}
	sc.stack = append(sc.stack, tok.Name)
	sc.emit(xmlToken{xmlStart, raw})
	return nil
}

func (sc *xmlScanner) endElement(tok xml.EndElement, start int, raw string) error {
	if sc.closed && raw == "" {
		sc.closed = false
		return nil
	}
	n := len(sc.stack)
	if n == 0 {
		return decodeErr("XML", start, "end tag </%s> with no open element", xmlName(tok.Name))
	}
	if sc.stack[n-1] != tok.Name {
		return decodeErr("XML", start, "end tag </%s> does not match <%s>", xmlName(tok.Name), xmlName(sc.stack[n-1]))
	}
	sc.stack = sc.stack[:n-1]
	sc.emit(xmlToken{xmlEnd, raw})
	return nil
}

// charData emits text or a CDATA section, which the decoder returns alike;
// outside the root element only white space may stand.
func (sc *xmlScanner) charData(start int, raw string) error {
	cdata := strings.HasPrefix(raw, "<![CDATA[")
	if len(sc.stack) == 0 {
		if cdata {
			return decodeErr("XML", start, "CDATA section outside the root element")
		}
		if t := strings.TrimLeft(raw, xmlSpace); t != "" {
			return decodeErr("XML", start+len(raw)-len(t), "text outside the root element")
		}
	}
	if cdata {
		sc.emit(xmlToken{xmlOther, raw})
	} else {
		sc.emit(xmlToken{xmlText, raw})
	}
	return nil
}

// entityDecl finds the general entities a DOCTYPE's internal subset declares.
var entityDecl = regexp.MustCompile(`<!ENTITY[ \t\r\n]+([^ \t\r\n%]+)`)

// declareEntities lets the decoder accept references to the entities the
// DOCTYPE declares. Their values do not matter: text is copied raw.
func (sc *xmlScanner) declareEntities(raw string) {
	for _, m := range entityDecl.FindAllStringSubmatch(raw, -1) {
		sc.dec.Entity[m[1]] = ""
	}
}

// xmlName renders a tag name for an error message, sanitised.
func xmlName(n xml.Name) string {
	s := n.Local
	if n.Space != "" {
		s = n.Space + ":" + s
	}
	return sanitizeShort([]byte(s))
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
