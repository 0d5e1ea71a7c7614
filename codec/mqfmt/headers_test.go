package mqfmt

import (
	"encoding/binary"
	"errors"
	"strings"
	"testing"
)

// hdrF is one field of a structure as IBM's reference documents it: its
// offset, its width and the value to place there. Golden vectors are built from
// these tables, independently of the encoders under test.
type hdrF struct {
	off int
	n   int
	v   any // int32: an MQLONG; string: characters, blank padded; []byte: raw bytes
}

// hdrBytes lays the fields out in a size-byte buffer and fails the test when
// the table leaves a gap or overlaps, so every byte of the layout is covered by
// a documented field.
func hdrBytes(t testing.TB, size int, bo binary.ByteOrder, fields ...hdrF) []byte {
	t.Helper()
	b := make([]byte, size)
	next := 0
	for _, f := range fields {
		if f.off != next {
			t.Fatalf("layout table: field at %d, want %d (gap or overlap)", f.off, next)
		}
		switch v := f.v.(type) {
		case int32:
			if f.n != 4 {
				t.Fatalf("layout table: MQLONG at %d with width %d", f.off, f.n)
			}
			bo.PutUint32(b[f.off:], uint32(v))
		case string:
			if len(v) > f.n {
				t.Fatalf("layout table: %q longer than its %d-byte field", v, f.n)
			}
			copy(b[f.off:], v+strings.Repeat(" ", f.n-len(v)))
		case []byte:
			if len(v) != f.n {
				t.Fatalf("layout table: %d bytes for a %d-byte field", len(v), f.n)
			}
			copy(b[f.off:], v)
		default:
			t.Fatalf("layout table: unsupported value %T", v)
		}
		next = f.off + f.n
	}
	if next != size {
		t.Fatalf("layout table ends at %d, structure is %d bytes", next, size)
	}
	return b
}

// hdrOrders are both byte orders IBM MQ writes, by name.
var hdrOrders = []struct {
	name string
	bo   binary.ByteOrder
}{{"big-endian", binary.BigEndian}, {"little-endian", binary.LittleEndian}}

// hdrWantErr checks that err is a *DecodeError at offset, wrapping
// ErrTruncated exactly when trunc, and mentioning substr.
func hdrWantErr(t *testing.T, err error, offset int, trunc bool, substr string) {
	t.Helper()
	var de *DecodeError
	if !errors.As(err, &de) {
		t.Fatalf("error %v (%T), want a *DecodeError", err, err)
	}
	if de.Offset != offset {
		t.Errorf("error offset %d, want %d (%v)", de.Offset, offset, err)
	}
	if got := errors.Is(err, ErrTruncated); got != trunc {
		t.Errorf("errors.Is(ErrTruncated) = %v, want %v (%v)", got, trunc, err)
	}
	if !strings.Contains(err.Error(), substr) {
		t.Errorf("error %q does not mention %q", err, substr)
	}
}

func TestFormat8(t *testing.T) {
	tests := []struct{ name, in, want string }{
		{"short_name_blank_padded", "MQSTR", "MQSTR   "},
		{"full_name_kept", "MQHRF2  ", "MQHRF2  "},
		{"empty_is_MQFMT_NONE", "", FmtNone},
		{"long_name_cut", "MQHRF2  XX", "MQHRF2  "},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := format8(tt.in); got != tt.want {
				t.Errorf("format8(%q) = %q, want %q", tt.in, got, tt.want)
			}
		})
	}
}

func TestVersionErrorHintsAtByteOrder(t *testing.T) {
	tests := []struct {
		name    string
		got     int32
		swapped bool
	}{
		{"version_1_reversed", 0x01000000, true},
		{"version_2_reversed", 0x02000000, true},
		{"plain_wrong_version", 7, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := versionErr("MQDLH", 4, tt.got, "1")
			if got := strings.Contains(err.Error(), "byte-swapped"); got != tt.swapped {
				t.Errorf("%q: byte-order hint %v, want %v", err, got, tt.swapped)
			}
		})
	}
}

func TestCheckHeaderStart(t *testing.T) {
	b := []byte("xxDLH \x00\x00\x00\x01")
	tests := []struct {
		name   string
		off    int
		need   int
		errOff int
		trunc  bool
		substr string
	}{
		{"offset_beyond_buffer", 20, 8, 20, false, "outside"},
		{"negative_offset", -1, 8, -1, false, "outside"},
		{"too_short_for_strucid", 9, 8, 9, true, "truncated"},
		{"wrong_strucid", 0, 8, 0, false, "StrucId"},
		{"shorter_than_structure", 2, 172, 2, true, "needs 172 bytes, 8 remain"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			hdrWantErr(t, checkHeaderStart("MQDLH", b, tt.off, tt.need, StrucIdDLH), tt.errOff, tt.trunc, tt.substr)
		})
	}
	if err := checkHeaderStart("MQDLH", b, 2, 8, StrucIdDLH); err != nil {
		t.Errorf("a whole header at offset 2: %v", err)
	}
}
