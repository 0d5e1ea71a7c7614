package mqfmt

import (
	"encoding/binary"
	"reflect"
	"strings"
	"testing"
)

func TestParseFolderAcceptsIBMSyntax(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want Folder
	}{
		{"empty_folder", "<jms></jms> ", Folder{Name: "jms"}},
		{"self_closed_folder", "<jms/>  ", Folder{Name: "jms"}},
		{"only_padding_is_an_empty_nameless_folder", "    ", Folder{}},
		{"nul_padding_after_the_folder", "<a></a>\x00", Folder{Name: "a"}},
		{"folder_attribute_content_properties", "<usr content='properties'><p>1</p></usr>",
			Folder{Name: "usr", Attrs: []Attr{{"content", "properties"}}, Elements: []Element{{Name: "p", Value: "1"}}}},
		{"single_and_double_quoted_dt", `<usr><a dt='i4'>1</a><b dt="boolean">0</b></usr>`,
			Folder{Name: "usr", Elements: []Element{{Name: "a", DataType: "i4", Value: "1"}, {Name: "b", DataType: "boolean", Value: "0"}}}},
		{"blanks_around_attribute_equals", "<usr><a  dt = 'r8' >1.5</a ></usr >",
			Folder{Name: "usr", Elements: []Element{{Name: "a", DataType: "r8", Value: "1.5"}}}},
		{"blanks_and_newlines_between_tags", " <mqps>\r\n <Top>a/b</Top>\n\t<Sub>s</Sub> </mqps>  ",
			Folder{Name: "mqps", Elements: []Element{{Name: "Top", Value: "a/b"}, {Name: "Sub", Value: "s"}}}},
		{"nested_groups_keep_order", "<usr><g1><g2><g3><v>deep</v></g3></g2><w>2</w></g1><x>3</x></usr>",
			Folder{Name: "usr", Elements: []Element{
				{Name: "g1", Children: []Element{
					{Name: "g2", Children: []Element{{Name: "g3", Children: []Element{{Name: "v", Value: "deep"}}}}},
					{Name: "w", Value: "2"}}},
				{Name: "x", Value: "3"}}}},
		{"entity_references_unescaped", "<usr><e>&lt;&gt;&amp;&quot;&apos;&#65;&#x42;&#x20AC;</e></usr>",
			Folder{Name: "usr", Elements: []Element{{Name: "e", Value: "<>&\"'AB€"}}}},
		{"escaped_attribute_value", "<usr><e note='it&apos;s &lt;ok&gt;'>v</e></usr>",
			Folder{Name: "usr", Elements: []Element{{Name: "e", Value: "v", Attrs: []Attr{{"note", "it's <ok>"}}}}}},
		{"blanks_in_a_value_are_significant", "<usr><b>  two  </b></usr>",
			Folder{Name: "usr", Elements: []Element{{Name: "b", Value: "  two  "}}}},
		{"empty_value_and_self_closed_element", "<usr><e></e><s/><t dt='i4'/></usr>",
			Folder{Name: "usr", Elements: []Element{{Name: "e"}, {Name: "s"}, {Name: "t", DataType: "i4"}}}},
		{"xsi_nil_marks_a_null_property", "<usr><n xsi:nil='true'></n><m xsi:nil=\"1\"/></usr>",
			Folder{Name: "usr", Elements: []Element{{Name: "n", Nil: true}, {Name: "m", Nil: true}}}},
		{"greater_than_in_a_value", "<usr><c>a>b</c></usr>", Folder{Name: "usr", Elements: []Element{{Name: "c", Value: "a>b"}}}},
		{"utf8_names_and_values", "<usr><städte>Zürich</städte></usr>",
			Folder{Name: "usr", Elements: []Element{{Name: "städte", Value: "Zürich"}}}},
		{"repeated_names_kept_in_order", "<usr><a>1</a><a>2</a></usr>",
			Folder{Name: "usr", Elements: []Element{{Name: "a", Value: "1"}, {Name: "a", Value: "2"}}}},
		{"jms_uri_with_query", "<jms><Dst>queue://QM1/Q.A?persistence=2&amp;expiry=0</Dst></jms>",
			Folder{Name: "jms", Elements: []Element{{Name: "Dst", Value: "queue://QM1/Q.A?persistence=2&expiry=0"}}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := parseFolder([]byte(tt.in), 100, NVCCSIDUTF8, binary.BigEndian)
			if err != nil {
				t.Fatalf("parseFolder(%q): %v", tt.in, err)
			}
			tt.want.Raw, tt.want.Offset = tt.in, 100
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("parseFolder(%q)\n got %+v\nwant %+v", tt.in, got, tt.want)
			}
		})
	}
}

func TestParseFolderRejectsMalformedData(t *testing.T) {
	deep := strings.Repeat("<g>", maxFolderDepth+1) + "1" + strings.Repeat("</g>", maxFolderDepth+1)
	tests := []struct {
		name   string
		in     string
		at     int // offset within the folder
		substr string
	}{
		{"text_before_the_folder_tag", "abc ", 0, "starts with"},
		{"end_tag_first", "</a>", 1, "expected a name after '<'"},
		{"folder_never_closed", "<a><b>x</b>", 0, "<a> is not closed"},
		{"element_never_closed", "<a><b>x", 3, "<b> is not closed"},
		{"mismatched_end_tag", "<a><b>x</c></a>", 7, "</c> closes <b>"},
		{"end_tag_without_gt", "<a><b>x</b </a>", 11, "not closed with '>'"},
		{"text_then_element", "<a>t<b>x</b></a>", 3, "text mixed with elements"},
		{"element_then_text", "<a><b>x</b>t</a>", 11, "text mixed with elements"},
		{"folder_holding_text", "<a>text</a>", 3, "holds text"},
		{"bare_ampersand", "<a><b>x & y</b></a>", 8, "'&' starts no entity"},
		{"unknown_entity", "<a><b>&nbsp;</b></a>", 6, "unknown entity"},
		{"nul_character_reference", "<a><b>&#0;</b></a>", 6, "unknown entity"},
		{"surrogate_character_reference", "<a><b>&#xD800;</b></a>", 6, "unknown entity"},
		{"unquoted_attribute", "<a><b dt=i4>1</b></a>", 9, "must be quoted"},
		{"attribute_without_equals", "<a><b dt>1</b></a>", 8, "has no '='"},
		{"attribute_without_blank", "<a><b dt='i4'x='1'>1</b></a>", 13, "expected a blank"},
		{"repeated_attribute", "<a><b dt='i4' dt='i8'>1</b></a>", 21, "repeated"},
		{"lt_in_attribute_value", "<a><b dt='<'>1</b></a>", 10, "'<' in the value"},
		{"unterminated_attribute", "<a><b dt='i4>1</b></a>", 9, "unterminated value"},
		{"tag_never_closed", "<a><b dt='i4'", 3, "tag <b is not closed"},
		{"comment_is_not_folder_syntax", "<a><!-- c --></a>", 4, "expected a name after '<'"},
		{"junk_after_the_folder", "<a></a>x   ", 7, "the rest of a folder must be blank"},
		{"second_folder_in_one_field", "<a></a><b></b>", 7, "the rest of a folder must be blank"},
		{"too_many_attributes", "<a><b" + hdrManyAttrs(17) + ">1</b></a>", 5 + 6*16 + 1, "more than 16 attributes"},
		{"groups_nested_too_deep", "<usr>" + deep + "</usr>", 5 + 3*maxFolderDepth - 3, "nested deeper"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := parseFolder([]byte(tt.in), 1000, NVCCSIDUTF8, binary.BigEndian)
			hdrWantErr(t, err, 1000+tt.at, false, tt.substr)
		})
	}
}

func TestFolderLookups(t *testing.T) {
	f, err := parseFolder([]byte("<usr><a>1</a><g><b>2</b><h><c>3</c></h></g><a>dup</a></usr>"), 0, NVCCSIDUTF8, binary.BigEndian)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		path string
		want string
		ok   bool
	}{
		{"a", "1", true},
		{"g/b", "2", true},
		{"g/h/c", "3", true},
		{"g", "", true},
		{"missing", "", false},
		{"g/missing", "", false},
		{"a/b", "", false},
	}
	for _, tt := range tests {
		t.Run(strings.ReplaceAll(tt.path, "/", "_"), func(t *testing.T) {
			e, ok := f.Lookup(tt.path)
			if ok != tt.ok || f.Get(tt.path) != tt.want {
				t.Errorf("Lookup(%q) = %+v, %v; Get = %q; want %q, %v", tt.path, e, ok, f.Get(tt.path), tt.want, tt.ok)
			}
		})
	}
	t.Run("group_is_a_group", func(t *testing.T) {
		g, _ := f.Lookup("g")
		a, _ := f.Lookup("a")
		if !g.IsGroup() || a.IsGroup() {
			t.Errorf("IsGroup: g %v, a %v", g.IsGroup(), a.IsGroup())
		}
	})
	t.Run("nil_folder_is_safe", func(t *testing.T) {
		var r *RFH2
		if r.Folder("jms").Get("Dst") != "" {
			t.Error("nil header returned a value")
		}
		if _, ok := r.Folder("jms").Lookup("Dst"); ok {
			t.Error("nil folder found an element")
		}
	})
}

func TestFolderSetReserialises(t *testing.T) {
	golden := rfh2Golden(t, binary.BigEndian, 273, 1208, "MQSTR", 1208, "<jms><Dst>queue:///A</Dst></jms>")
	r, err := DecodeRFH2(golden, 0, binary.BigEndian)
	if err != nil {
		t.Fatal(err)
	}
	jms := r.Folder("jms")
	jms.Set("Dst", "queue:///B")
	jms.Set("Pri", "4")
	b, err := r.Encode(binary.BigEndian)
	if err != nil {
		t.Fatal(err)
	}
	want := rfh2Golden(t, binary.BigEndian, 273, 1208, "MQSTR", 1208, "<jms><Dst>queue:///B</Dst><Pri>4</Pri></jms>")
	if string(b) != string(want) {
		t.Errorf("edited header\n%q\nwant\n%q", b, want)
	}
}

func TestFolderAttributesSurviveReserialising(t *testing.T) {
	// A folder tag keeps every attribute, dt included; only elements carry
	// dt and xsi:nil as fields.
	f, err := parseFolder([]byte("<usr dt='x' content=\"properties\"><a xsi:nil='true' dt='i4' k='v'/></usr>"), 0, NVCCSIDUTF8, binary.BigEndian)
	if err != nil {
		t.Fatal(err)
	}
	f.Raw = ""
	r := NewRFH2(273, 1208, "", f)
	b, err := r.Encode(binary.BigEndian)
	if err != nil {
		t.Fatal(err)
	}
	want := "<usr dt='x' content='properties'><a dt='i4' xsi:nil='true' k='v'></a></usr> "
	if got := string(b[RFH2FixedLen+4:]); got != want {
		t.Errorf("re-serialised\n%q\nwant\n%q", got, want)
	}
}

// hdrManyAttrs returns n distinct attributes of 6 bytes each: " a='1'",
// " b='1'", ...
func hdrManyAttrs(n int) string {
	var sb strings.Builder
	for i := range n {
		sb.WriteString(" " + string(rune('a'+i)) + "='1'")
	}
	return sb.String()
}
