package mqfmt

import (
	"errors"
	"slices"
	"testing"

	"golang.org/x/text/encoding/charmap"
)

func TestCP500Table(t *testing.T) {
	// IBM's CP500 differs from CP037 in exactly these positions.
	moved := map[byte]rune{0x4A: '[', 0x4F: '!', 0x5A: ']', 0x5F: '^', 0xB0: '¢', 0xBA: '¬', 0xBB: '|'}
	for i := range 256 {
		b := byte(i)
		want := charmap.CodePage037.DecodeByte(b)
		if r, ok := moved[b]; ok {
			want = r
		}
		if cp500Table[b] != want {
			t.Errorf("CP500 0x%02X = %U, want %U", b, cp500Table[b], want)
		}
	}
	t.Run("CP037 holds the other characters at the moved positions", func(t *testing.T) {
		for b, r := range map[byte]rune{0x4A: '¢', 0x4F: '|', 0x5A: '!', 0x5F: '¬', 0xB0: '^', 0xBA: '[', 0xBB: ']'} {
			if got := charmap.CodePage037.DecodeByte(b); got != r {
				t.Errorf("CP037 0x%02X = %U, want %U", b, got, r)
			}
		}
	})
}

func TestDecodeTextKnownBytes(t *testing.T) {
	tests := []struct {
		name  string
		ccsid int32
		in    []byte
		want  string
	}{
		{"CCSID 37 letters digits and space", 37, []byte{0xC8, 0x85, 0x93, 0x93, 0x96, 0x40, 0xF1, 0xF2}, "Hello 12"},
		{"CCSID 37 0x5A is exclamation mark", 37, []byte{0x5A, 0x4A, 0x4F}, "!¢|"},
		{"CCSID 500 0xC1 is A", 500, []byte{0xC1}, "A"},
		{"CCSID 500 0x4A is left bracket", 500, []byte{0x4A}, "["},
		{"CCSID 500 0x5A is right bracket", 500, []byte{0x5A}, "]"},
		{"CCSID 500 0x4F is exclamation mark", 500, []byte{0x4F}, "!"},
		{"CCSID 500 braces", 500, []byte{0xC0, 0xD0}, "{}"},
		{"CCSID 1047 brackets", 1047, []byte{0xAD, 0xBD}, "[]"},
		{"CCSID 1140 euro", 1140, []byte{0x9F}, "€"},
		{"CCSID 37 currency sign where 1140 has the euro", 37, []byte{0x9F}, "¤"},
		{"CCSID 1148 euro", 1148, []byte{0x9F, 0x4A}, "€["},
		{"EBCDIC NL decodes to NEL", 37, []byte{0xC1, 0x15, 0xC2, 0x25}, "A\u0085B\n"},
		{"CCSID 819 Latin-1", 819, []byte{0x43, 0x61, 0x66, 0xE9}, "Café"},
		{"CCSID 1252 euro and quotes", 1252, []byte{0x80, 0x93, 0x94}, "€“”"},
		{"CCSID 5348 is 1252 with euro", 5348, []byte{0x80}, "€"},
		{"CCSID 437 box drawing", 437, []byte{0xC9, 0xCD, 0x82}, "╔═é"},
		{"CCSID 850 e acute", 850, []byte{0x82, 0xD5}, "éı"},
		{"CCSID 923 euro", 923, []byte{0xA4}, "€"},
		{"CCSID 912 Latin-2", 912, []byte{0xB1}, "ą"},
		{"CCSID 367 ASCII", 367, []byte("plain"), "plain"},
		{"CCSID 1208 UTF-8", 1208, []byte("Grüße"), "Grüße"},
		{"CCSID 1200 big-endian", 1200, []byte{0x00, 0x48, 0x00, 0x69}, "Hi"},
		{"CCSID 13488 big-endian", 13488, []byte{0x00, 0x41, 0x20, 0xAC}, "A€"},
		{"CCSID 17584 big-endian with surrogate pair", 17584, []byte{0xD8, 0x3D, 0xDE, 0x00}, "😀"},
		{"CCSID 1202 little-endian", 1202, []byte{0x48, 0x00, 0x69, 0x00}, "Hi"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := DecodeText(tc.in, tc.ccsid)
			if err != nil || got != tc.want {
				t.Errorf("DecodeText(% X, %d) = %q, %v; want %q", tc.in, tc.ccsid, got, err, tc.want)
			}
		})
	}
}

func TestSupportedCCSIDs(t *testing.T) {
	got := SupportedCCSIDs()
	for _, c := range []int32{1208, 819, 1252, 437, 850, 37, 500, 1047, 1140, 1200, 1202, 13488, 17584} {
		if !slices.Contains(got, c) {
			t.Errorf("CCSID %d missing from SupportedCCSIDs", c)
		}
		if codePageName(c) == "" {
			t.Errorf("CCSID %d has no name", c)
		}
		if _, err := DecodeText([]byte("x"), c); errors.Is(err, ErrUnknownCCSID) {
			t.Errorf("CCSID %d listed but not decoded", c)
		}
	}
	if !slices.IsSorted(got) {
		t.Error("SupportedCCSIDs is not sorted")
	}
}

func TestIsEBCDIC(t *testing.T) {
	tests := []struct {
		ccsid int32
		want  bool
	}{{37, true}, {500, true}, {1047, true}, {1140, true}, {1148, true}, {819, false}, {1208, false}, {1200, false}, {9999, false}}
	for _, tc := range tests {
		t.Run(codePageName(tc.ccsid), func(t *testing.T) {
			if got := IsEBCDIC(tc.ccsid); got != tc.want {
				t.Errorf("IsEBCDIC(%d) = %v, want %v", tc.ccsid, got, tc.want)
			}
		})
	}
}
