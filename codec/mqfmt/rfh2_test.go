package mqfmt

import (
	"bytes"
	"encoding/binary"
	"reflect"
	"strings"
	"sync"
	"testing"
)

// rfh2Golden builds an MQRFH2 from IBM's layout: the 36-byte fixed part
// (StrucId, Version, StrucLength, Encoding, CodedCharSetId, Format, Flags,
// NameValueCCSID), then for each folder its NameValueLength and the folder
// bytes exactly as given (padding included).
func rfh2Golden(t testing.TB, bo binary.ByteOrder, enc Encoding, ccsid int32, format string, nvccsid int32, folders ...string) []byte {
	n := RFH2FixedLen
	for _, f := range folders {
		n += 4 + len(f)
	}
	b := hdrBytes(t, RFH2FixedLen, bo,
		hdrF{0, 4, "RFH "}, hdrF{4, 4, int32(2)}, hdrF{8, 4, int32(n)}, hdrF{12, 4, int32(enc)},
		hdrF{16, 4, ccsid}, hdrF{20, 8, format}, hdrF{28, 4, int32(0)}, hdrF{32, 4, nvccsid},
	)
	for _, f := range folders {
		b = appendU32(b, bo, uint32(len(f)))
		b = append(b, f...)
	}
	return b
}

const (
	rfhMcd = "<mcd><Msd>jms_text</Msd></mcd>  "
	rfhJms = "<jms><Dst>queue:///ORDERS.IN</Dst><Tms>1446139225436</Tms><Dlv>2</Dlv></jms>    "
	rfhUsr = "<usr><app dt='i4'>42</app><grp><a>x &lt; y</a><b dt=\"boolean\">1</b></grp></usr>     "
)

func rfh2GoldenWant(t testing.TB, golden []byte) RFH2 {
	return RFH2{
		Version: 2, StrucLength: int32(len(golden)), Encoding: 546, CodedCharSetId: 1208,
		Format: FmtString, NameValueCCSID: 1208,
		Folders: []Folder{
			{Name: "mcd", Offset: 40, Raw: rfhMcd, Elements: []Element{{Name: "Msd", Value: "jms_text"}}},
			{Name: "jms", Offset: 76, Raw: rfhJms, Elements: []Element{
				{Name: "Dst", Value: "queue:///ORDERS.IN"}, {Name: "Tms", Value: "1446139225436"}, {Name: "Dlv", Value: "2"}}},
			{Name: "usr", Offset: 76 + len(rfhJms) + 4, Raw: rfhUsr, Elements: []Element{
				{Name: "app", DataType: "i4", Value: "42"},
				{Name: "grp", Children: []Element{{Name: "a", Value: "x < y"}, {Name: "b", DataType: "boolean", Value: "1"}}}}},
		},
	}
}

func TestRFH2GoldenVectors(t *testing.T) {
	for _, o := range hdrOrders {
		t.Run(o.name, func(t *testing.T) {
			golden := rfh2Golden(t, o.bo, 546, 1208, "MQSTR", 1208, rfhMcd, rfhJms, rfhUsr)
			got, err := DecodeRFH2(golden, 0, o.bo)
			if err != nil {
				t.Fatalf("DecodeRFH2: %v", err)
			}
			if want := rfh2GoldenWant(t, golden); !reflect.DeepEqual(got, want) {
				t.Errorf("decoded\n%+v\nwant\n%+v", got, want)
			}
			enc, err := got.Encode(o.bo)
			if err != nil || !bytes.Equal(enc, golden) {
				t.Errorf("Encode(Decode(b)) differs from b at byte %d (%v)", hdrFirstDiff(enc, golden), err)
			}
		})
	}
}

func TestDecodeRFH2Rejects(t *testing.T) {
	be := binary.BigEndian
	golden := rfh2Golden(t, be, 273, 1208, "MQSTR", 1208, rfhMcd)
	with := func(f func(b []byte)) []byte {
		b := bytes.Clone(golden)
		f(b)
		return b
	}
	setLen := func(at int, v uint32) func([]byte) { return func(b []byte) { be.PutUint32(b[at:], v) } }
	tests := []struct {
		name   string
		in     []byte
		off    int
		trunc  bool
		substr string
	}{
		{"fixed_part_cut_is_truncated", golden[:35], 0, true, "needs 36 bytes, 35 remain"},
		{"wrong_strucid", with(func(b []byte) { copy(b, "RFH2") }), 0, false, "StrucId"},
		{"rfh_version_1_is_not_an_rfh2", with(setLen(4, 1)), 4, false, "Version 1, want 2"},
		{"struclength_below_fixed_part", with(setLen(8, 32)), 8, false, "StrucLength 32 is shorter"},
		{"struclength_negative", with(setLen(8, 0xFFFFFFF0)), 8, false, "StrucLength -16 is shorter"},
		{"struclength_not_multiple_of_4", with(setLen(8, 74)), 8, false, "not a multiple of 4"},
		{"struclength_beyond_buffer_is_truncated", with(setLen(8, 80)), 72, true, "StrucLength 80 ends at byte 80"},
		{"struclength_2GB_is_truncated_not_allocated", with(setLen(8, 0x7FFFFFFC)), 72, true, "StrucLength 2147483644"},
		{"folder_cut_is_truncated", golden[:60], 36, true, "data ends at byte 60"},
		{"namevaluelength_cut_is_truncated", with(setLen(8, 76))[:38], 36, true, "truncated"},
		{"namevaluelength_exceeds_struclength", with(setLen(36, 36)), 36, false, "exceeds the 32 bytes StrucLength 72 leaves"},
		{"namevaluelength_negative", with(setLen(36, 0xFFFFFFFC)), 36, false, "negative"},
		{"namevaluelength_not_multiple_of_4", with(setLen(36, 30)), 36, false, "NameValueLength 30 is not a multiple of 4"},
		{"namevalueccsid_not_unicode", with(setLen(32, 819)), 32, false, "NameValueCCSID 819"},
		{"folder_xml_broken_reports_its_offset", with(func(b []byte) { b[40+9] = '!' }), 49, false, "folder:"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := DecodeRFH2(tt.in, 0, be)
			hdrWantErr(t, err, tt.off, tt.trunc, tt.substr)
		})
	}
}

func TestDecodeRFH2BoundsFoldersAndElements(t *testing.T) {
	be := binary.BigEndian
	many := make([]string, MaxRFH2Folders+1)
	for i := range many {
		many[i] = "<a/>"
	}
	t.Run("more_folders_than_MaxRFH2Folders", func(t *testing.T) {
		_, err := DecodeRFH2(rfh2Golden(t, be, 273, 1208, "", 1208, many...), 0, be)
		hdrWantErr(t, err, RFH2FixedLen+MaxRFH2Folders*8, false, "more than 256 folders")
	})
	t.Run("MaxRFH2Folders_folders_decode", func(t *testing.T) {
		r, err := DecodeRFH2(rfh2Golden(t, be, 273, 1208, "", 1208, many[1:]...), 0, be)
		if err != nil || len(r.Folders) != MaxRFH2Folders {
			t.Fatalf("%d folders, %v", len(r.Folders), err)
		}
	})
	t.Run("more_elements_than_MaxRFH2Elements", func(t *testing.T) {
		folder := "<usr>" + strings.Repeat("<a/>", MaxRFH2Elements+1) + "</usr> "
		_, err := DecodeRFH2(rfh2Golden(t, be, 273, 1208, "", 1208, folder), 0, be)
		hdrWantErr(t, err, RFH2FixedLen+4+5+MaxRFH2Elements*4, false, "more than 65536 elements")
	})
}

func TestDecodeRFH2KeepsWholeFoldersOfATruncatedHeader(t *testing.T) {
	golden := rfh2Golden(t, binary.LittleEndian, 546, 1208, "MQSTR", 1208, rfhMcd, rfhJms, rfhUsr)
	cut := golden[:len(golden)-10]
	got, err := DecodeRFH2(cut, 0, binary.LittleEndian)
	hdrWantErr(t, err, 76+len(rfhJms), true, "truncated")
	if len(got.Folders) != 2 || got.Folder("mcd") == nil || got.Folder("jms") == nil || got.Folder("usr") != nil {
		t.Errorf("partial decode kept %d folders: %+v", len(got.Folders), got.Folders)
	}
	if got.StrucLength != int32(len(golden)) || got.Format != FmtString {
		t.Errorf("fixed part not kept: %+v", got)
	}
}

func TestDetectRFH2Order(t *testing.T) {
	tests := []struct {
		name   string
		in     []byte
		want   binary.ByteOrder
		errOff int
		substr string
	}{
		{"big_endian", rfh2Golden(t, binary.BigEndian, 273, 1208, "MQSTR", 1208, rfhMcd), binary.BigEndian, 0, ""},
		{"little_endian", rfh2Golden(t, binary.LittleEndian, 546, 1208, "MQSTR", 1208, rfhMcd), binary.LittleEndian, 0, ""},
		{"only_the_first_12_bytes", rfh2Golden(t, binary.LittleEndian, 546, 1208, "", 1208)[:12], binary.LittleEndian, 0, ""},
		{"version_3_in_neither_order", []byte("RFH \x00\x00\x00\x03\x00\x00\x00\x24"), nil, 4, "neither"},
		{"implausible_struclength", []byte("RFH \x00\x00\x00\x02\x7f\x00\x00\x00"), nil, 8, "not a plausible"},
		{"struclength_below_36", []byte("RFH \x02\x00\x00\x00\x20\x00\x00\x00"), nil, 8, "not a plausible"},
		{"not_an_rfh", []byte("MD  \x00\x00\x00\x02\x00\x00\x00\x24"), nil, 0, "StrucId"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := DetectRFH2Order(tt.in, 0)
			if tt.want == nil {
				hdrWantErr(t, err, tt.errOff, false, tt.substr)
				return
			}
			if err != nil || got != tt.want {
				t.Fatalf("DetectRFH2Order = %v, %v; want %v", got, err, tt.want)
			}
		})
	}
}

func TestNewRFH2EncodesPaddedFolders(t *testing.T) {
	// R5b: a header added to a message that had none carries the message's
	// original Encoding, CCSID and Format.
	r := NewRFH2(546, 819, "MQSTR",
		NewFolder("mcd", NewElement("Msd", "jms_text")),
		NewFolder("usr", NewTypedElement("count", "i4", "7"), NewGroup("g", NewElement("k", "a<b&c>d"))),
	)
	wantFolders := []string{
		"<mcd><Msd>jms_text</Msd></mcd>  ",
		"<usr><count dt='i4'>7</count><g><k>a&lt;b&amp;c&gt;d</k></g></usr>  ",
	}
	for _, o := range hdrOrders {
		t.Run(o.name, func(t *testing.T) {
			got, err := r.Encode(o.bo)
			if err != nil {
				t.Fatal(err)
			}
			want := rfh2Golden(t, o.bo, 546, 819, "MQSTR", 1208, wantFolders...)
			if !bytes.Equal(got, want) {
				t.Fatalf("Encode differs at byte %d:\n%q\n%q", hdrFirstDiff(got, want), got, want)
			}
			back, err := DecodeRFH2(got, 0, o.bo)
			if err != nil {
				t.Fatal(err)
			}
			if back.Folder("usr").Get("g/k") != "a<b&c>d" || back.Folder("usr").Get("count") != "7" {
				t.Errorf("built folders do not read back: %+v", back.Folders)
			}
		})
	}
}

func TestRFH2UTF16FoldersRoundTrip(t *testing.T) {
	for _, ccsid := range []int32{NVCCSIDUTF16, NVCCSIDUCS2v2, NVCCSIDUTF16v30} {
		for _, o := range hdrOrders {
			t.Run(o.name+"_"+string(rune('0'+ccsid%10)), func(t *testing.T) {
				r := NewRFH2(273, 1208, "MQSTR", NewFolder("usr", NewElement("city", "Zürich €"), NewElement("emoji", "\U0001F600")))
				r.NameValueCCSID = ccsid
				b, err := r.Encode(o.bo)
				if err != nil {
					t.Fatal(err)
				}
				if (len(b)-RFH2FixedLen-4)%4 != 0 {
					t.Fatalf("UTF-16 folder not padded to 4: %d bytes", len(b))
				}
				back, err := DecodeRFH2(b, 0, o.bo)
				if err != nil {
					t.Fatal(err)
				}
				if got := back.Folder("usr").Get("city"); got != "Zürich €" {
					t.Errorf("city = %q", got)
				}
				if got := back.Folder("usr").Get("emoji"); got != "\U0001F600" {
					t.Errorf("emoji = %q", got)
				}
				if again, _ := back.Encode(o.bo); !bytes.Equal(again, b) {
					t.Error("decoded UTF-16 header does not re-encode byte for byte")
				}
			})
		}
	}
}

func TestRFH2UTF16ErrorOffsetsPointAtWireBytes(t *testing.T) {
	bo := binary.BigEndian
	// "<a>" then an unpaired high surrogate, then "    " padding to 12 bytes.
	folder := appendU16(nil, bo, '<')
	folder = appendU16(folder, bo, 'a')
	folder = appendU16(folder, bo, '>')
	folder = appendU16(folder, bo, 0xD800)
	folder = appendU16(folder, bo, ' ')
	folder = appendU16(folder, bo, ' ')
	b := rfh2Golden(t, bo, 273, 1208, "", NVCCSIDUTF16, string(folder))
	_, err := DecodeRFH2(b, 0, bo)
	hdrWantErr(t, err, 40+6, false, "surrogate")

	// A syntax error after non-ASCII text maps back to the UTF-16 offset.
	var text []byte
	for _, r := range "<é><!>" {
		text = appendU16(text, bo, uint16(r))
	}
	b = rfh2Golden(t, bo, 273, 1208, "", NVCCSIDUTF16, string(text))
	_, err = DecodeRFH2(b, 0, bo)
	hdrWantErr(t, err, 40+8, false, "expected a name after '<'")
}

func TestRFH2EncodeRejectsBadInput(t *testing.T) {
	tests := []struct {
		name   string
		r      RFH2
		substr string
	}{
		{"format_longer_than_8", RFH2{Version: 2, Format: "MQSTRING!"}, "longer than 8"},
		{"raw_not_multiple_of_4", RFH2{Version: 2, Folders: []Folder{{Name: "x", Raw: "<x></x>"}}}, "not a multiple of 4"},
		{"element_name_with_blank", NewRFH2(273, 1208, "", NewFolder("usr", NewElement("a b", "v"))), "not allowed"},
		{"empty_folder_name_with_elements", NewRFH2(273, 1208, "", NewFolder("", NewElement("a", "v"))), "empty name"},
		{"invalid_utf8_in_utf16_folder", func() RFH2 {
			r := NewRFH2(273, 1208, "", NewFolder("usr", NewElement("a", "\xff")))
			r.NameValueCCSID = NVCCSIDUTF16
			return r
		}(), "not valid UTF-8"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := tt.r.Encode(binary.BigEndian)
			if err == nil || !strings.Contains(err.Error(), tt.substr) {
				t.Fatalf("Encode error %v, want %q", err, tt.substr)
			}
		})
	}
}

func TestDecodeRFH2ConcurrentDecodesDoNotShareScratch(t *testing.T) {
	// Scanners are pooled; each decode must still see only its own folders.
	inputs := make([][]byte, 8)
	for g := range inputs {
		folder := "<usr><k>" + strings.Repeat("v", g+1) + "</k></usr>"
		folder += strings.Repeat(" ", (4-len(folder)%4)%4)
		inputs[g] = rfh2Golden(t, binary.BigEndian, 273, 1208, "MQSTR", 1208, folder)
	}
	var wg sync.WaitGroup
	for g, b := range inputs {
		wg.Go(func() {
			want := strings.Repeat("v", g+1)
			for range 200 {
				r, err := DecodeRFH2(b, 0, binary.BigEndian)
				if err != nil || r.Folder("usr").Get("k") != want {
					t.Errorf("goroutine %d read %q, %v", g, r.Folder("usr").Get("k"), err)
					return
				}
			}
		})
	}
	wg.Wait()
}
