package mqfmt

import (
	"errors"
	"strings"
	"testing"
)

func TestPrettyXMLMarkupKinds(t *testing.T) {
	tests := []struct {
		name, in, want string
	}{
		{"a declared encoding is not converted again",
			`<?xml version="1.0" encoding="ISO-8859-1"?><a>é</a>`,
			"<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?>\n<a>é</a>"},
		{"entities declared in the DOCTYPE are accepted",
			`<!DOCTYPE a [<!ENTITY co "ACME">]><a>&co; &amp; &#65;</a>`,
			"<!DOCTYPE a [<!ENTITY co \"ACME\">]>\n<a>&co; &amp; &#65;</a>"},
		{"a '/' in a quoted value does not close the tag",
			`<r><a x="/>">t</a><b y='/'/></r>`,
			"<r>\n  <a x=\"/>\">t</a>\n  <b y='/'/>\n</r>"},
		{"self-closing with space, processing instruction inside",
			`<r><a /><?pi data?></r>`,
			"<r>\n  <a />\n  <?pi data?>\n</r>"},
		{"CDATA holding markup is one token",
			`<r><![CDATA[</r><x>]]>tail</r>`,
			"<r>\n  <![CDATA[</r><x>]]>\n  tail\n</r>"},
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
		})
	}
}

// TestPrettyXMLErrorsSayWhereAndWhat pins the offset and the words of each
// error: the offset is where an operator finds the bad byte in the hex dump.
func TestPrettyXMLErrorsSayWhereAndWhat(t *testing.T) {
	tests := []struct {
		name, in  string
		truncated bool
		offset    int
		msg       string
	}{
		{"cut inside a tag", `<a><b x="1`, true, 3, "tag not closed: the body is cut off"},
		{"cut inside a comment", "<a><!-- not clo", true, 3, "comment not closed"},
		{"cut inside CDATA", "<a><![CDATA[x", true, 3, "CDATA section not closed"},
		{"cut inside an end tag", "<a></a", true, 3, "end tag not closed"},
		{"cut with elements open", "<a><b>1</b><c>", true, 14, "2 elements still open, innermost <c>"},
		{"leading space counts", "\n  <a><!--", true, 6, "comment not closed"},
		{"unknown entity", "<a>&nbsp;</a>", false, 9, "invalid character entity &nbsp;"},
		{"unquoted attribute", "<a x=1/>", false, 6, "unquoted or missing attribute value"},
		{"mismatch names both tags", "<s:a></s:b>", false, 5, "end tag </s:b> does not match <s:a>"},
		{"CDATA outside the root", "<![CDATA[x]]><a/>", false, 0, "CDATA section outside the root element"},
		{"declaration inside the root", "<a><!DOCTYPE a></a>", false, 3, "declaration after the root element started"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := PrettyXML(tc.in)
			var de *DecodeError
			if !errors.As(err, &de) {
				t.Fatalf("error %v, want a *DecodeError", err)
			}
			if errors.Is(err, ErrTruncated) != tc.truncated {
				t.Errorf("truncated = %v, want %v (%v)", !tc.truncated, tc.truncated, err)
			}
			if de.Offset != tc.offset {
				t.Errorf("offset %d, want %d (%v)", de.Offset, tc.offset, err)
			}
			if !strings.Contains(de.Msg, tc.msg) {
				t.Errorf("message %q, want it to say %q", de.Msg, tc.msg)
			}
		})
	}
}

func TestPrettyXMLErrorsCarryNoControls(t *testing.T) {
	for _, in := range []string{
		"<a>&\x1b[31m;</a>", "<a\x1b]52;c;eA==\x07/>", "<a></\u009b1m>", "<a>\x1b</a>", "<\x1b>", "<a b\x07='1'/>",
	} {
		_, err := PrettyXML(in)
		if err == nil {
			t.Fatalf("PrettyXML(%q) accepted", in)
		}
		if !isPrintableASCII(err.Error()) {
			t.Errorf("PrettyXML(%q): error %q carries bytes that are not printable ASCII", in, err)
		}
	}
}

func TestPrettyXMLDepthIsBounded(t *testing.T) {
	nest := func(n int) string { return strings.Repeat("<a>", n) + strings.Repeat("</a>", n) }
	if _, err := PrettyXML(nest(maxXMLDepth)); err != nil {
		t.Fatalf("%d levels: %v", maxXMLDepth, err)
	}
	_, err := PrettyXML(nest(maxXMLDepth + 1))
	var de *DecodeError
	if !errors.As(err, &de) || errors.Is(err, ErrTruncated) {
		t.Fatalf("%d levels: error %v, want malformed", maxXMLDepth+1, err)
	}
	if want := 3 * maxXMLDepth; de.Offset != want || !strings.Contains(de.Msg, "nested deeper") {
		t.Errorf("error %v, want it at byte %d saying the nesting is too deep", err, want)
	}
	if k := ClassifyText(nest(maxXMLDepth + 1)); k != KindText {
		t.Errorf("too deep a body is classified %v, want text", k)
	}
}

func isPrintableASCII(s string) bool {
	for i := range len(s) {
		if s[i] < 0x20 || s[i] >= 0x7f {
			return false
		}
	}
	return true
}

// FuzzPrettyXML checks what PrettyXML promises beyond FuzzPretty's content
// check: errors are printable, offsets in range, and the layout is a fixed
// point (a pretty body pretty-printed again is unchanged).
func FuzzPrettyXML(f *testing.F) {
	for _, s := range []string{
		`<?xml version="1.0" encoding="ISO-8859-1"?><a x="1"><b>t</b><!-- c --><![CDATA[d]]></a>`,
		`<!DOCTYPE a [<!ENTITY e "v">]><a>&e;</a>`, `<a><b/><c x='/>'/></a>`, `<a><b>`, `<a></b>`,
		"<p>Hello <b>world</b> again</p>", "<a>&nbsp;</a>", "<a><!-- x", "",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got, err := PrettyXML(s)
		if err != nil {
			var de *DecodeError
			if !errors.As(err, &de) {
				t.Fatalf("error %v is not a *DecodeError", err)
			}
			if !isPrintableASCII(err.Error()) {
				t.Errorf("error %q is not printable ASCII", err)
			}
			if de.Offset < 0 || de.Offset > len(s) {
				t.Errorf("offset %d out of range 0..%d", de.Offset, len(s))
			}
			return
		}
		again, err := PrettyXML(got)
		if err != nil || again != got {
			t.Errorf("PrettyXML(%q) = %q, which pretty-prints to %q, %v", s, got, again, err)
		}
	})
}

// BenchmarkPrettyXML lays out a 1 MB order document, the size of a large
// SOAP or ISO 20022 body.
func BenchmarkPrettyXML(b *testing.B) {
	var sb strings.Builder
	sb.WriteString(`<?xml version="1.0" encoding="UTF-8"?><orders xmlns="urn:x">`)
	for i := 0; sb.Len() < 1<<20; i++ {
		sb.WriteString(`<order id="` + strings.Repeat("7", i%9+1) + `"><qty>2</qty><item sku="A&amp;B"/><!-- c --><note><![CDATA[<b>x</b>]]></note></order>`)
	}
	sb.WriteString(`</orders>`)
	s := sb.String()
	b.SetBytes(int64(len(s)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := PrettyXML(s); err != nil {
			b.Fatal(err)
		}
	}
}
