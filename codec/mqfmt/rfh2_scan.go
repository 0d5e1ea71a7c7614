package mqfmt

import (
	"encoding/binary"
	"fmt"
	"strings"
	"sync"
)

// maxFolderDepth bounds group nesting so that hostile folder data cannot
// exhaust the stack; IBM sets no limit, real folders nest two or three deep.
const maxFolderDepth = 64

// maxTagAttrs bounds the attributes of one tag (IBM defines three: dt,
// xsi:nil, content), which keeps the repeated-attribute check linear.
const maxTagAttrs = 16

// MaxRFH2Folders and MaxRFH2Elements bound one header's folders and elements
// (groups and properties, all folders together). A decoded element costs
// about a hundred bytes however short its text, so without a bound a header
// of minimal folders or properties would cost 25 times its size to decode;
// real headers carry a handful of folders and at most hundreds of properties.
const (
	MaxRFH2Folders  = 256
	MaxRFH2Elements = 65536
)

// folderScanner parses IBM's XML-like NameValueData syntax by hand: one folder
// tag holding elements (<name dt='i4'>value</name>) and groups of them, entity
// references in values, then blank padding. encoding/xml is not used because it
// accepts far more than the syntax (comments, CDATA, namespaces) and cannot
// report where in the header a problem is.
type folderScanner struct {
	s    string // the folder as UTF-8 text
	pos  int
	base int // absolute offset of the folder's first byte
	// u16 holds the wire bytes of a UTF-16 folder, so that error offsets
	// can be mapped back from s; nil for UTF-8 folders.
	u16 []byte
	bo  binary.ByteOrder
	// elems and attrs are scratch stacks reused across the folders of a
	// header: children collect here and are copied out once per group, so
	// a folder costs one allocation per level instead of one per append.
	elems  []Element
	attrs  []Attr
	nElems int // elements decoded so far in this header
}

// parseFolder parses one NameValueData field that starts at absolute offset
// base, in NameValueCCSID ccsid. raw is the field as a string (names and
// values of UTF-8 folders are substrings of it) and wire the same bytes.
func (sc *folderScanner) parseFolder(raw string, wire []byte, base int, ccsid int32, bo binary.ByteOrder) (Folder, error) {
	f := Folder{Offset: base, Raw: raw}
	sc.s, sc.pos, sc.base, sc.u16, sc.bo = raw, 0, base, nil, bo
	if isUTF16CCSID(ccsid) {
		text, err := utf16ToUTF8(wire, bo, base)
		if err != nil {
			return Folder{}, err
		}
		sc.s, sc.u16 = text, wire
	}
	if err := sc.folder(&f); err != nil {
		return Folder{}, err
	}
	return f, nil
}

// folderScanners recycles scanners and their scratch stacks between decodes.
var folderScanners = sync.Pool{New: func() any {
	return &folderScanner{elems: make([]Element, 0, 16), attrs: make([]Attr, 0, 4)}
}}

func getFolderScanner() *folderScanner { return folderScanners.Get().(*folderScanner) }

// putFolderScanner returns sc to the pool without references into the
// decoded message, so pooled scanners keep no message data alive.
func putFolderScanner(sc *folderScanner) {
	clear(sc.elems[:cap(sc.elems)])
	clear(sc.attrs[:cap(sc.attrs)])
	*sc = folderScanner{elems: sc.elems[:0], attrs: sc.attrs[:0]}
	folderScanners.Put(sc)
}

// parseFolder parses a single folder on its own (tests, tools).
func parseFolder(raw []byte, base int, ccsid int32, bo binary.ByteOrder) (Folder, error) {
	var sc folderScanner
	return sc.parseFolder(string(raw), raw, base, ccsid, bo)
}

func (sc *folderScanner) folder(f *Folder) error {
	sc.skipWS()
	if sc.restIsPadding() {
		return nil // an empty NameValueData: nothing but padding
	}
	if sc.s[sc.pos] != '<' {
		return sc.errAt(sc.pos, "folder data starts with %q, want '<'", sanitizeShort([]byte{sc.s[sc.pos]}))
	}
	openAt := sc.pos
	name, attrs, selfClose, err := sc.startTag()
	if err != nil {
		return err
	}
	f.Name = name
	if len(attrs) > 0 {
		f.Attrs = append([]Attr(nil), attrs...)
	}
	if !selfClose {
		elems, text, textAt, err := sc.content(name, openAt, 1)
		if err != nil {
			return err
		}
		if elems == nil && !isBlankText(text) {
			return sc.errAt(textAt, "folder <%s> holds text; a folder holds elements", name)
		}
		f.Elements = elems
	}
	if !sc.restIsPadding() {
		return sc.errAt(sc.pos, "unexpected %q after </%s>: the rest of a folder must be blank", sanitizeShort([]byte{sc.s[sc.pos]}), name)
	}
	return nil
}

// content reads what follows a start tag up to and including its end tag. It
// returns either the child elements (a group) or the raw text (a value) and
// where that text starts.
func (sc *folderScanner) content(name string, openAt, depth int) ([]Element, string, int, error) {
	mark := len(sc.elems)
	children, text, textAt, err := sc.contentFrom(mark, name, openAt, depth)
	sc.elems = sc.elems[:mark]
	return children, text, textAt, err
}

// contentFrom does content's work with the children collected in
// sc.elems[mark:].
func (sc *folderScanner) contentFrom(mark int, name string, openAt, depth int) ([]Element, string, int, error) {
	for {
		i := strings.IndexByte(sc.s[sc.pos:], '<')
		if i < 0 {
			return nil, "", 0, sc.errAt(openAt, "<%s> is not closed before the end of the folder", name)
		}
		textAt := sc.pos
		text := sc.s[sc.pos : sc.pos+i]
		sc.pos += i
		if strings.HasPrefix(sc.s[sc.pos:], "</") {
			if err := sc.endTag(name); err != nil {
				return nil, "", 0, err
			}
			if len(sc.elems) == mark {
				return nil, text, textAt, nil
			}
			if !isBlankText(text) {
				return nil, "", 0, sc.errAt(textAt, "text mixed with elements inside <%s>", name)
			}
			return append([]Element(nil), sc.elems[mark:]...), "", 0, nil
		}
		if !isBlankText(text) {
			return nil, "", 0, sc.errAt(textAt, "text mixed with elements inside <%s>", name)
		}
		if depth >= maxFolderDepth {
			return nil, "", 0, sc.errAt(sc.pos, "groups nested deeper than %d", maxFolderDepth)
		}
		child, err := sc.element(depth + 1)
		if err != nil {
			return nil, "", 0, err
		}
		sc.elems = append(sc.elems, child)
	}
}

func (sc *folderScanner) element(depth int) (Element, error) {
	openAt := sc.pos
	if sc.nElems++; sc.nElems > MaxRFH2Elements {
		return Element{}, sc.errAt(openAt, "more than %d elements in one MQRFH2", MaxRFH2Elements)
	}
	name, attrs, selfClose, err := sc.startTag()
	if err != nil {
		return Element{}, err
	}
	e := Element{Name: name}
	for i, a := range attrs {
		switch a.Name {
		case "dt":
			e.DataType = a.Value
		case "xsi:nil":
			e.Nil = a.Value == "true" || a.Value == "1"
		default:
			if e.Attrs == nil {
				e.Attrs = make([]Attr, 0, len(attrs)-i)
			}
			e.Attrs = append(e.Attrs, a)
		}
	}
	if selfClose {
		return e, nil
	}
	children, text, textAt, err := sc.content(name, openAt, depth)
	if err != nil {
		return Element{}, err
	}
	if children != nil {
		e.Children = children
		return e, nil
	}
	e.Value, err = sc.unescape(text, textAt)
	return e, err
}

// startTag reads <name attr='v' ...> or <name .../> at sc.pos.
//
// The returned attributes live in sc.attrs and are valid until the next call:
// callers copy what they keep before reading further.
func (sc *folderScanner) startTag() (string, []Attr, bool, error) {
	name, attrs, selfClose, err := sc.readStartTag(sc.attrs[:0])
	sc.attrs = attrs[:0]
	return name, attrs, selfClose, err
}

func (sc *folderScanner) readStartTag(attrs []Attr) (name string, _ []Attr, selfClose bool, err error) {
	openAt := sc.pos
	sc.pos++ // '<'
	if name = sc.name(); name == "" {
		return "", nil, false, sc.errAt(sc.pos, "expected a name after '<', found %s", sc.describe(sc.pos))
	}
	for {
		blank := sc.skipWS()
		if sc.pos >= len(sc.s) {
			return "", nil, false, sc.errAt(openAt, "tag <%s is not closed with '>'", name)
		}
		switch c := sc.s[sc.pos]; {
		case c == '>':
			sc.pos++
			return name, attrs, false, nil
		case c == '/' && strings.HasPrefix(sc.s[sc.pos:], "/>"):
			sc.pos += 2
			return name, attrs, true, nil
		case !blank:
			return "", nil, false, sc.errAt(sc.pos, "expected a blank, '>' or '/>' in tag <%s, found %s", name, sc.describe(sc.pos))
		}
		if len(attrs) == maxTagAttrs {
			return "", nil, false, sc.errAt(sc.pos, "more than %d attributes in <%s>", maxTagAttrs, name)
		}
		a, err := sc.attr(name)
		if err != nil {
			return "", nil, false, err
		}
		for _, prev := range attrs {
			if prev.Name == a.Name {
				return "", nil, false, sc.errAt(sc.pos, "attribute %s repeated in <%s>", a.Name, name)
			}
		}
		attrs = append(attrs, a)
	}
}

// attr reads name='value' or name="value" (IBM allows either quote).
func (sc *folderScanner) attr(tag string) (Attr, error) {
	at := sc.pos
	n := sc.name()
	if n == "" {
		return Attr{}, sc.errAt(at, "unexpected %s in tag <%s", sc.describe(at), tag)
	}
	sc.skipWS()
	if sc.pos >= len(sc.s) || sc.s[sc.pos] != '=' {
		return Attr{}, sc.errAt(sc.pos, "attribute %s in <%s> has no '='", n, tag)
	}
	sc.pos++
	sc.skipWS()
	if sc.pos >= len(sc.s) || (sc.s[sc.pos] != '\'' && sc.s[sc.pos] != '"') {
		return Attr{}, sc.errAt(sc.pos, "attribute %s in <%s>: value must be quoted", n, tag)
	}
	q := sc.s[sc.pos]
	j := strings.IndexByte(sc.s[sc.pos+1:], q)
	if j < 0 {
		return Attr{}, sc.errAt(sc.pos, "attribute %s in <%s>: unterminated value", n, tag)
	}
	raw, rawAt := sc.s[sc.pos+1:sc.pos+1+j], sc.pos+1
	if k := strings.IndexByte(raw, '<'); k >= 0 {
		return Attr{}, sc.errAt(rawAt+k, "'<' in the value of attribute %s", n)
	}
	sc.pos += j + 2
	v, err := sc.unescape(raw, rawAt)
	return Attr{Name: n, Value: v}, err
}

// endTag reads </name> at sc.pos; blanks may precede the '>'.
func (sc *folderScanner) endTag(name string) error {
	at := sc.pos
	sc.pos += 2
	got := sc.name()
	if got != name {
		return sc.errAt(at, "</%s> closes <%s>", got, name)
	}
	sc.skipWS()
	if sc.pos >= len(sc.s) || sc.s[sc.pos] != '>' {
		return sc.errAt(sc.pos, "end tag </%s is not closed with '>'", name)
	}
	sc.pos++
	return nil
}

func (sc *folderScanner) name() string {
	start := sc.pos
	for sc.pos < len(sc.s) && isFolderNameByte(sc.s[sc.pos]) {
		sc.pos++
	}
	return sc.s[start:sc.pos]
}

// isFolderNameByte accepts XML name characters: ASCII letters, digits, '_',
// '-', '.', ':' and any byte of a multi-byte UTF-8 character.
func isFolderNameByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' ||
		c == '_' || c == '-' || c == '.' || c == ':' || c >= 0x80
}

func (sc *folderScanner) skipWS() bool {
	start := sc.pos
	for sc.pos < len(sc.s) && isFolderSpace(sc.s[sc.pos]) {
		sc.pos++
	}
	return sc.pos > start
}

func isFolderSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\r' || c == '\n' }

func isBlankText(s string) bool {
	for i := 0; i < len(s); i++ {
		if !isFolderSpace(s[i]) {
			return false
		}
	}
	return true
}

// restIsPadding reports whether only padding is left. IBM pads folders with
// blanks; NULs are accepted too because C writers that clear their buffer
// leave them, and they carry no data.
func (sc *folderScanner) restIsPadding() bool {
	for i := sc.pos; i < len(sc.s); i++ {
		if c := sc.s[i]; c != ' ' && c != 0 {
			sc.pos = i
			return false
		}
	}
	sc.pos = len(sc.s)
	return true
}

func (sc *folderScanner) describe(i int) string {
	if i >= len(sc.s) {
		return "the end of the folder"
	}
	return fmt.Sprintf("%q", sanitizeShort([]byte{sc.s[i]}))
}

func (sc *folderScanner) errAt(i int, format string, args ...any) *DecodeError {
	return decodeErr("MQRFH2", sc.abs(i), "folder: "+format, args...)
}
