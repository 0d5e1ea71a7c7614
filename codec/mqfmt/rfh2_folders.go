package mqfmt

import (
	"encoding/binary"
	"fmt"
	"strings"
)

// Folder is one NameValueData folder of an MQRFH2: <jms>...</jms>. Elements
// keep their order of appearance. Raw keeps the exact bytes found on the wire
// (padding included) so that re-encoding a decoded header changes nothing.
type Folder struct {
	Name     string
	Attrs    []Attr // attributes of the folder tag, e.g. content='properties'
	Elements []Element
	// Offset is the absolute offset of the folder's NameValueData in the
	// buffer it was decoded from; 0 for folders built in Go.
	Offset int
	// Raw is the NameValueData as decoded. Encode writes it verbatim when it
	// is not empty; after editing Elements directly, set Raw to "" so that
	// Encode serialises the tree instead (Set does this itself).
	Raw string
}

// Element is a property (Value set) or a group of properties (Children set)
// inside a folder.
type Element struct {
	Name     string
	Value    string // with &lt; and friends already replaced
	DataType string // the dt attribute: "" (string), "boolean", "bin.hex", "i1", "i2", "i4", "i8", "int", "r4", "r8"
	Nil      bool   // xsi:nil='true': the property is null, not empty
	Attrs    []Attr // attributes other than dt and xsi:nil
	Children []Element
}

// Attr is one attribute of a tag, its value unescaped.
type Attr struct{ Name, Value string }

// NewFolder builds a folder to add to a header.
func NewFolder(name string, elems ...Element) Folder {
	return Folder{Name: name, Elements: elems}
}

// NewElement builds a string property.
func NewElement(name, value string) Element { return Element{Name: name, Value: value} }

// NewTypedElement builds a property with a dt data type, e.g. ("Tms", "i8", "1446139225436").
func NewTypedElement(name, dataType, value string) Element {
	return Element{Name: name, DataType: dataType, Value: value}
}

// NewGroup builds a group of properties, as found in usr and mqps folders.
func NewGroup(name string, children ...Element) Element {
	if children == nil {
		children = []Element{}
	}
	return Element{Name: name, Children: children}
}

// IsGroup reports whether e groups other elements rather than holding a value.
func (e *Element) IsGroup() bool { return e != nil && e.Children != nil }

// Lookup finds an element by its path of names, "Dst" or "group/name". It
// returns the first match at each level.
func (f *Folder) Lookup(path string) (*Element, bool) {
	if f == nil {
		return nil, false
	}
	elems := f.Elements
	for {
		name, rest, more := strings.Cut(path, "/")
		var found *Element
		for i := range elems {
			if elems[i].Name == name {
				found = &elems[i]
				break
			}
		}
		if found == nil {
			return nil, false
		}
		if !more {
			return found, true
		}
		elems, path = found.Children, rest
	}
}

// Get returns the value of the element at path, or "" when there is none.
func (f *Folder) Get(path string) string {
	if e, ok := f.Lookup(path); ok {
		return e.Value
	}
	return ""
}

// Set gives the top-level element name the value, adding it when missing, and
// drops Raw so that Encode writes the edited folder.
func (f *Folder) Set(name, value string) {
	f.Raw = ""
	for i := range f.Elements {
		if f.Elements[i].Name == name {
			f.Elements[i].Value, f.Elements[i].Nil, f.Elements[i].Children = value, false, nil
			return
		}
	}
	f.Elements = append(f.Elements, NewElement(name, value))
}

// appendNameValue appends NameValueLength and NameValueData for f.
func (f *Folder) appendNameValue(dst []byte, ccsid int32, bo binary.ByteOrder) ([]byte, error) {
	if f.Raw != "" {
		if len(f.Raw)%4 != 0 {
			return dst, fmt.Errorf("MQRFH2 folder %q: Raw is %d bytes, not a multiple of 4", f.Name, len(f.Raw))
		}
		dst = appendU32(dst, bo, uint32(len(f.Raw)))
		return append(dst, f.Raw...), nil
	}
	at := len(dst)
	dst = append(dst, 0, 0, 0, 0)
	text, err := f.appendXML(nil)
	if err != nil {
		return dst[:at], err
	}
	if isUTF16CCSID(ccsid) {
		if dst, err = appendUTF16(dst, text, bo); err != nil {
			return dst[:at], fmt.Errorf("MQRFH2 folder %q: %w", f.Name, err)
		}
		for (len(dst)-at-4)%4 != 0 {
			dst = appendU16(dst, bo, ' ')
		}
	} else {
		dst = append(dst, text...)
		for (len(dst)-at-4)%4 != 0 {
			dst = append(dst, ' ')
		}
	}
	bo.PutUint32(dst[at:], uint32(len(dst)-at-4))
	return dst, nil
}

// appendXML serialises the folder tree in IBM's NameValueData syntax.
func (f *Folder) appendXML(dst []byte) ([]byte, error) {
	if f.Name == "" && len(f.Elements) == 0 && len(f.Attrs) == 0 {
		return dst, nil
	}
	if err := checkTagName(f.Name); err != nil {
		return dst, fmt.Errorf("MQRFH2 folder: %w", err)
	}
	dst = append(dst, '<')
	dst = append(dst, f.Name...)
	dst, err := appendAttrs(dst, f.Attrs, false)
	if err != nil {
		return dst, fmt.Errorf("MQRFH2 folder %q: %w", f.Name, err)
	}
	dst = append(dst, '>')
	for i := range f.Elements {
		if dst, err = f.Elements[i].appendXML(dst, 1); err != nil {
			return dst, fmt.Errorf("MQRFH2 folder %q: %w", f.Name, err)
		}
	}
	dst = append(dst, "</"...)
	dst = append(dst, f.Name...)
	return append(dst, '>'), nil
}

func (e *Element) appendXML(dst []byte, depth int) ([]byte, error) {
	if depth > maxFolderDepth {
		return dst, fmt.Errorf("groups nested deeper than %d", maxFolderDepth)
	}
	if err := checkTagName(e.Name); err != nil {
		return dst, err
	}
	dst = append(dst, '<')
	dst = append(dst, e.Name...)
	var attrs [2]Attr
	n := 0
	if e.DataType != "" {
		attrs[n], n = Attr{"dt", e.DataType}, n+1
	}
	if e.Nil {
		attrs[n], n = Attr{"xsi:nil", "true"}, n+1
	}
	for _, a := range attrs[:n] {
		dst = appendAttr(dst, a)
	}
	dst, err := appendAttrs(dst, e.Attrs, true)
	if err != nil {
		return dst, fmt.Errorf("element %q: %w", e.Name, err)
	}
	dst = append(dst, '>')
	if e.Children != nil {
		for i := range e.Children {
			if dst, err = e.Children[i].appendXML(dst, depth+1); err != nil {
				return dst, err
			}
		}
	} else {
		dst = appendEscaped(dst, e.Value, false)
	}
	dst = append(dst, "</"...)
	dst = append(dst, e.Name...)
	return append(dst, '>'), nil
}

// appendAttrs writes attributes; for elements (typed) dt and xsi:nil are
// skipped because they are written from the Element's own fields.
func appendAttrs(dst []byte, attrs []Attr, typed bool) ([]byte, error) {
	for _, a := range attrs {
		if typed && (a.Name == "dt" || a.Name == "xsi:nil") {
			continue
		}
		if err := checkTagName(a.Name); err != nil {
			return dst, fmt.Errorf("attribute: %w", err)
		}
		dst = appendAttr(dst, a)
	}
	return dst, nil
}

// appendAttr writes  name='value' with single quotes, as IBM MQ classes for
// JMS write dt='i8'.
func appendAttr(dst []byte, a Attr) []byte {
	dst = append(dst, ' ')
	dst = append(dst, a.Name...)
	dst = append(dst, "='"...)
	dst = appendEscaped(dst, a.Value, true)
	return append(dst, '\'')
}

// appendEscaped writes s with the characters the folder syntax reserves
// replaced by entity references.
func appendEscaped(dst []byte, s string, attr bool) []byte {
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '<':
			dst = append(dst, "&lt;"...)
		case c == '>':
			dst = append(dst, "&gt;"...)
		case c == '&':
			dst = append(dst, "&amp;"...)
		case c == '\'' && attr:
			dst = append(dst, "&apos;"...)
		default:
			dst = append(dst, c)
		}
	}
	return dst
}

// checkTagName accepts the names the folder scanner accepts.
func checkTagName(name string) error {
	if name == "" {
		return fmt.Errorf("empty name")
	}
	for i := 0; i < len(name); i++ {
		if !isFolderNameByte(name[i]) {
			return fmt.Errorf("name %q: character %q is not allowed in a tag name", name, name[i])
		}
	}
	return nil
}
