package mqfmt

import (
	"encoding/binary"
	"testing"
)

func TestDecodeSavedFindsWhereTheDataStarts(t *testing.T) {
	le, be := binary.LittleEndian, binary.BigEndian
	v2 := NewMQMD()
	v2.Format, v2.CodedCharSetId = FmtString, 1208
	v1 := v2
	v1.Version = 1
	v1rfh := v1
	v1rfh.Format = FmtRFH2
	rfh := chainRFH2(t, le, "MQSTR", 546, 1208)
	dlh := chainDLH(FmtString, 546, 819)
	text := []byte("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz") // looks like no MQMD tail
	tests := []struct {
		name    string
		in      []byte
		mdLen   int
		headers int
		body    Body
	}{
		{"version_2_mqmd_and_text", append(v2.Encode(le), "hi"...), 364, 0,
			Body{Offset: 364, Length: 2, Format: FmtString, Encoding: 546, CCSID: 1208}},
		{"version_1_in_the_full_layout_then_text", append(v1.Encode(be), "hi"...), 364, 0,
			Body{Offset: 364, Length: 2, Format: FmtString, Encoding: 546, CCSID: 1208}},
		{"version_1_in_the_324_byte_layout_then_text", append(v1.Encode(le)[:324], text...), 324, 0,
			Body{Offset: 324, Length: len(text), Format: FmtString, Encoding: 546, CCSID: 1208}},
		{"version_1_in_the_324_byte_layout_then_rfh2", append(append(v1rfh.Encode(le)[:324], rfh...), 'x'), 324, 1,
			Body{Offset: 324 + len(rfh), Length: 1, Format: FmtString, Encoding: 546, CCSID: 1208}},
		{"version_1_short_file", v1.Encode(le)[:330], 324, 0,
			Body{Offset: 324, Length: 6, Format: FmtString, Encoding: 546, CCSID: 1208}},
		{"no_mqmd_dead_letter_header", append(dlh.Encode(be), "x"...), 0, 1,
			Body{Offset: 172, Length: 1, Format: FmtString, Encoding: 546, CCSID: 819}},
		{"no_mqmd_plain_text", []byte("hello"), 0, 0, Body{Length: 5, Format: FmtNone}},
		{"empty_file", nil, 0, 0, Body{Format: FmtNone}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, err := DecodeSaved(tt.in)
			if err != nil {
				t.Fatal(err)
			}
			if s.MDLength != tt.mdLen || (s.MD != nil) != (tt.mdLen > 0) || len(s.Chain.Headers) != tt.headers || s.Chain.Body != tt.body {
				t.Errorf("MDLength %d, %d headers, body %+v; want %d, %d, %+v",
					s.MDLength, len(s.Chain.Headers), s.Chain.Body, tt.mdLen, tt.headers, tt.body)
			}
		})
	}
}

func TestDecodeSavedRejects(t *testing.T) {
	md := NewMQMD()
	tests := []struct {
		name   string
		in     []byte
		off    int
		trunc  bool
		substr string
	}{
		{"mqmd_version_neither_order", []byte("MD  \x00\x00\x00\x09"), 4, false, "neither 1 nor 2"},
		{"mqmd_cut_before_324_bytes", md.Encode(binary.BigEndian)[:100], 0, true, "needs 364"},
		{"rfh_version_1_is_not_decoded", []byte("RFH \x00\x00\x00\x01\x00\x00\x00\x20"), 4, false, "Version is 2 in neither"},
		{"dlh_version_in_neither_order", []byte("DLH \x00\x00\x00\x07"), 4, false, "neither byte order"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := DecodeSaved(tt.in)
			hdrWantErr(t, err, tt.off, tt.trunc, tt.substr)
		})
	}
}

func TestDecodeSavedDetectsEveryHeaderAtTheStart(t *testing.T) {
	for _, o := range hdrOrders {
		xqh, _ := xqhGolden(t, o.bo)
		mde, _ := mdeGolden(t, o.bo)
		tm, _ := tmGolden(t, o.bo)
		for _, tt := range []struct {
			name string
			in   []byte
			kind HeaderKind
		}{{"xqh", xqh, KindXQH}, {"mde", mde, KindMDE}, {"tm", tm, KindTM}} {
			t.Run(o.name+"_"+tt.name, func(t *testing.T) {
				s, _ := DecodeSaved(tt.in)
				if len(s.Chain.Headers) == 0 || s.Chain.Headers[0].Kind != tt.kind || s.Chain.Headers[0].Encoding != EncodingFor(o.bo) {
					t.Errorf("headers %+v", s.Chain.Headers)
				}
			})
		}
	}
}
