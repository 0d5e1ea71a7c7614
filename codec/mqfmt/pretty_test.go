package mqfmt

import (
	"bytes"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"unicode"
)

// stripSpace removes all white space and byte order marks, to compare content
// across layouts.
func stripSpace(s string) string {
	return strings.Map(func(r rune) rune {
		if unicode.IsSpace(r) || r == '\uFEFF' {
			return -1
		}
		return r
	}, s)
}

func jsonIndent(t testing.TB, s string) string {
	var buf bytes.Buffer
	s = strings.TrimSpace(strings.TrimLeft(s, jsonSpace+"\uFEFF"))
	if err := json.Indent(&buf, []byte(s), "", "  "); err != nil {
		t.Fatalf("json.Indent(%q): %v", s, err)
	}
	return buf.String()
}

func TestPrettyJSONMatchesEncodingJSON(t *testing.T) {
	for _, in := range []string{
		`{"order":42,"items":[1,2,{"sku":"A-1","qty":2}],"note":"a, b: {c}","empty":{},"none":[]}`,
		"  [ 1 , 2 ]\n",
		`"just a string"`,
		`{"esc":"quote \" backslash \\ unicode \u00e9","n":-1.5e+10,"t":true,"f":false,"z":null}`,
		`[[[]],[{}],[[1]]]`,
	} {
		t.Run(in, func(t *testing.T) {
			got, err := PrettyJSON(in)
			if err != nil {
				t.Fatal(err)
			}
			if want := jsonIndent(t, in); got != want {
				t.Errorf("PrettyJSON:\n%s\nencoding/json:\n%s", got, want)
			}
		})
	}
}

func TestPrettyJSONPrefixesLookLikeTheWhole(t *testing.T) {
	doc := `{"order": 42, "items": [1, {"sku": "A\"1", "tags": []}], "ok": true}`
	whole := jsonIndent(t, doc)
	for cut := 1; cut < len(doc); cut++ {
		got, err := PrettyJSON(doc[:cut])
		if err == nil {
			continue // a complete value, e.g. nothing: every cut here is inside the object
		}
		if !errors.Is(err, ErrTruncated) {
			t.Fatalf("cut %d: error %v, want ErrTruncated", cut, err)
		}
		if !strings.HasPrefix(whole, got) {
			t.Errorf("cut %d: %q is not a prefix of the whole layout", cut, got)
		}
	}
}

func TestPrettyJSONErrors(t *testing.T) {
	tests := []struct {
		name, in string
		offset   int
	}{
		{"invalid value names its byte", `{"a": x}`, 6},
		{"leading white space counts in the offset", "\n  {\"a\": x}", 9},
		{"trailing comma", `[1,2,]`, 5},
		{"data after the value", `{"a":1} trailing`, 8},
		{"unquoted key", `{a:1}`, 1},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := PrettyJSON(tc.in)
			if got != tc.in {
				t.Errorf("malformed input changed to %q", got)
			}
			var de *DecodeError
			if !errors.As(err, &de) || errors.Is(err, ErrTruncated) {
				t.Fatalf("error %v, want a non-truncation *DecodeError", err)
			}
			if de.Offset != tc.offset {
				t.Errorf("offset %d, want %d (%v)", de.Offset, tc.offset, err)
			}
		})
	}
}

func TestPrettyXML(t *testing.T) {
	tests := []struct {
		name, in, want string
	}{
		{"nested elements are indented, leaves stay on one line",
			`<?xml version="1.0"?><order id="7"><qty>2</qty><item sku="A&amp;B"/></order>`,
			"<?xml version=\"1.0\"?>\n<order id=\"7\">\n  <qty>2</qty>\n  <item sku=\"A&amp;B\"/>\n</order>"},
		{"white space between tags is replaced by indentation",
			"<a>\n   <b>  x  </b>\n\n</a>\n",
			"<a>\n  <b>x</b>\n</a>"},
		{"mixed content keeps its text in order",
			"<p>Hello <b>world</b> again</p>",
			"<p>\n  Hello\n  <b>world</b>\n  again\n</p>"},
		{"comments, CDATA and doctype each get a line",
			`<!DOCTYPE n [<!ELEMENT n (#PCDATA)>]><!-- c --><n><![CDATA[<raw> & ]]></n>`,
			"<!DOCTYPE n [<!ELEMENT n (#PCDATA)>]>\n<!-- c -->\n<n>\n  <![CDATA[<raw> & ]]>\n</n>"},
		{"attribute values keep '>' and quotes",
			`<a title='x > y' b="it's"><c/></a>`,
			"<a title='x > y' b=\"it's\">\n  <c/>\n</a>"},
		{"namespaces and empty elements",
			`<soap:Envelope xmlns:soap="urn:x"><soap:Body></soap:Body></soap:Envelope>`,
			"<soap:Envelope xmlns:soap=\"urn:x\">\n  <soap:Body></soap:Body>\n</soap:Envelope>"},
		{"white-space-only leaf text is kept", "<a> </a>", "<a> </a>"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := PrettyXML(tc.in)
			if err != nil {
				t.Fatal(err)
			}
			if got != tc.want {
				t.Errorf("PrettyXML:\n got %q\nwant %q", got, tc.want)
			}
			if stripSpace(got) != stripSpace(tc.in) {
				t.Errorf("content changed")
			}
		})
	}
}

func TestPrettyXMLCutOff(t *testing.T) {
	tests := []struct {
		name, in, want string
	}{
		{"open elements at the end", "<a><b>1</b><c>", "<a>\n  <b>1</b>\n  <c>"},
		{"inside a tag keeps the unfinished tag", `<a><b x="1`, "<a>\n  <b x=\"1"},
		{"inside text", "<a><b>hel", "<a>\n  <b>\n    hel"},
		{"inside a comment", "<a><!-- not clo", "<a>\n  <!-- not clo"},
		{"after a lone '<'", "<a><", "<a>\n  <"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := PrettyXML(tc.in)
			if !errors.Is(err, ErrTruncated) {
				t.Fatalf("error %v, want ErrTruncated", err)
			}
			if got != tc.want {
				t.Errorf("PrettyXML:\n got %q\nwant %q", got, tc.want)
			}
		})
	}
}

func TestPrettyXMLMalformed(t *testing.T) {
	tests := []struct {
		name, in string
		offset   int
	}{
		{"mismatched end tag", "<a><b></a>", 6},
		{"end tag with nothing open", "<a/></b>", 4},
		{"second root element", "<a/><b/>", 4},
		{"text after the root", "<a/>tail", 4},
		{"text before the root", "  lead<a/>", 2},
		{"'<' not starting a name", "<a>< b</a>", 4},
		{"'<' inside a tag", "<a <b>", 3},
		{"no element at all", "<!-- only a comment -->", 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := PrettyXML(tc.in)
			if got != tc.in {
				t.Errorf("malformed input changed to %q", got)
			}
			var de *DecodeError
			if !errors.As(err, &de) || errors.Is(err, ErrTruncated) {
				t.Fatalf("error %v, want a non-truncation *DecodeError", err)
			}
			if de.Offset != tc.offset {
				t.Errorf("offset %d, want %d (%v)", de.Offset, tc.offset, err)
			}
		})
	}
}

func TestPrettyDeepNestingIsBounded(t *testing.T) {
	const depth = 10000
	tests := []struct {
		name, in string
		pretty   func(string) (string, error)
	}{
		{"JSON", strings.Repeat("[", depth) + strings.Repeat("]", depth), PrettyJSON},
		{"XML", strings.Repeat("<a>", depth) + strings.Repeat("</a>", depth), PrettyXML},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, _ := tc.pretty(tc.in)
			if limit := len(tc.in) * (2*maxIndentLevels + 3); len(got) > limit {
				t.Errorf("output %d bytes for %d bytes of input, limit %d", len(got), len(tc.in), limit)
			}
		})
	}
}

func TestPrettyByKind(t *testing.T) {
	tests := []struct {
		name string
		kind Kind
		in   string
		want string
	}{
		{"JSON is indented", KindJSON, `{"a":1}`, "{\n  \"a\": 1\n}"},
		{"XML is indented", KindXML, `<a><b/></a>`, "<a>\n  <b/>\n</a>"},
		{"text is unchanged", KindText, `{"a":1}`, `{"a":1}`},
		{"binary is unchanged", KindBinary, "\x00\x01", "\x00\x01"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got, err := Pretty(tc.in, tc.kind); err != nil || got != tc.want {
				t.Errorf("Pretty = %q, %v; want %q", got, err, tc.want)
			}
		})
	}
}

func FuzzPretty(f *testing.F) {
	for _, s := range []string{
		`{"a":[1,2,{"b":null}]}`, `[1,2`, `{"a": x}`,
		`<?xml version="1.0"?><a x="1"><b>t</b><!-- c --><![CDATA[d]]></a>`, `<a><b>`, `<a></b>`,
		"plain text", "",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		checkPretty(t, "PrettyJSON", s, PrettyJSON)
		checkPretty(t, "PrettyXML", s, PrettyXML)
		if got, err := PrettyJSON(s); err == nil && maxDepth(s) < maxIndentLevels {
			if want := jsonIndent(t, s); got != want {
				t.Errorf("PrettyJSON(%q) = %q, encoding/json says %q", s, got, want)
			}
		}
		m := Mask(s)
		if len([]rune(m)) != len([]rune(s)) && !strings.ContainsRune(s, '\uFFFD') {
			t.Errorf("Mask changed the rune count of %q", s)
		}
		if k := ClassifyText(s); k == KindJSON || k == KindXML {
			if _, err := Pretty(s, k); err != nil && !errors.Is(err, ErrTruncated) {
				t.Errorf("ClassifyText(%q) = %v but Pretty fails: %v", s, k, err)
			}
		}
	})
}

// checkPretty asserts Pretty's contract: unchanged on a syntax error, the same
// content (white space aside) when it succeeds or the input was cut off.
func checkPretty(t *testing.T, name, s string, pretty func(string) (string, error)) {
	got, err := pretty(s)
	var de *DecodeError
	switch {
	case err == nil || errors.Is(err, ErrTruncated):
		if stripSpace(got) != stripSpace(s) {
			t.Errorf("%s(%q) = %q: content changed", name, s, got)
		}
	case !errors.As(err, &de):
		t.Errorf("%s(%q): error %v is not a *DecodeError", name, s, err)
	case got != s:
		t.Errorf("%s(%q) failed but changed its input to %q", name, s, got)
	case de.Offset < 0 || de.Offset > len(s):
		t.Errorf("%s(%q): offset %d out of range", name, s, de.Offset)
	}
}

// maxDepth is the deepest bracket nesting in s, ignoring strings' contents
// only roughly; it gates the comparison with encoding/json's uncapped layout.
func maxDepth(s string) int {
	d, m := 0, 0
	for _, c := range s {
		switch c {
		case '{', '[':
			d++
			m = max(m, d)
		case '}', ']':
			d--
		}
	}
	return m
}
