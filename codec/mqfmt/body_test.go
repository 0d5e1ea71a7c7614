package mqfmt

import (
	"bytes"
	"errors"
	"strings"
	"testing"
)

func TestDecodeTextFaults(t *testing.T) {
	tests := []struct {
		name     string
		ccsid    int32
		in       []byte
		want     string
		sentinel error // nil: no error
		offset   int
	}{
		{"UTF-8 BOM is dropped", 1208, []byte("\xEF\xBB\xBFhi"), "hi", nil, 0},
		{"invalid UTF-8 is replaced and flagged at its offset", 1208, []byte("ab\xFFcd"), "ab\uFFFDcd", ErrInvalidText, 2},
		{"each invalid byte is replaced", 1208, []byte("\xC3\x28x\x80"), "\uFFFD(x\uFFFD", ErrInvalidText, 0},
		{"UTF-8 character cut off at the end is truncation", 1208, []byte("ok\xE2\x82"), "ok\uFFFD", ErrTruncated, 2},
		{"an encoded U+FFFD is text, not a fault", 1208, []byte("\xEF\xBF\xBD"), "\uFFFD", nil, 0},
		{"UTF-16 BOM FE FF is dropped", 1200, []byte{0xFE, 0xFF, 0x00, 0x41}, "A", nil, 0},
		{"UTF-16 BOM FF FE switches to little-endian", 1200, []byte{0xFF, 0xFE, 0x41, 0x00}, "A", nil, 0},
		{"UTF-16 odd length is truncation", 1200, []byte{0x00, 0x41, 0x00}, "A\uFFFD", ErrTruncated, 2},
		{"UTF-16 lone low surrogate is invalid", 1200, []byte{0xDC, 0x00, 0x00, 0x41}, "\uFFFDA", ErrInvalidText, 0},
		{"UTF-16 high surrogate without low is invalid", 1200, []byte{0xD8, 0x3D, 0x00, 0x41, 0x00, 0x42}, "\uFFFDAB", ErrInvalidText, 0},
		{"UTF-16 surrogate pair cut off at the end is truncation", 1200, []byte{0x00, 0x41, 0xD8, 0x3D, 0xDE}, "A\uFFFD", ErrTruncated, 2},
		{"byte undefined in Windows-1252 is flagged", 1252, []byte{0x41, 0x81}, "A\uFFFD", ErrInvalidText, 1},
		{"byte above 0x7F in ASCII is flagged", 367, []byte{0x41, 0xE9}, "A\uFFFD", ErrInvalidText, 1},
		{"empty data is empty text", 37, nil, "", nil, 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := DecodeText(tc.in, tc.ccsid)
			if got != tc.want {
				t.Errorf("text = %q, want %q", got, tc.want)
			}
			if tc.sentinel == nil {
				if err != nil {
					t.Errorf("unexpected error %v", err)
				}
				return
			}
			var de *DecodeError
			if !errors.Is(err, tc.sentinel) || !errors.As(err, &de) {
				t.Fatalf("error %v, want a *DecodeError wrapping %v", err, tc.sentinel)
			}
			if de.Offset != tc.offset {
				t.Errorf("offset %d, want %d (%v)", de.Offset, tc.offset, err)
			}
		})
	}
}

func TestDecodeTextUnknownCCSID(t *testing.T) {
	tests := []struct {
		name  string
		ccsid int32
		hint  string
	}{
		{"unsupported code page", 1051, "CCSID 1051"},
		{"MQCCSI_Q_MGR needs resolving first", 0, "MQCCSI_Q_MGR"},
		{"MQCCSI_INHERIT needs the previous header", -2, "MQCCSI_INHERIT"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := DecodeText([]byte("abc"), tc.ccsid)
			if got != "" || !errors.Is(err, ErrUnknownCCSID) {
				t.Fatalf("DecodeText = %q, %v; want \"\" and ErrUnknownCCSID", got, err)
			}
			if !strings.Contains(err.Error(), tc.hint) {
				t.Errorf("error %q does not mention %q", err, tc.hint)
			}
		})
	}
}

func TestDecodeTextEncUTF16ByteOrder(t *testing.T) {
	le := []byte{0x48, 0x00, 0x69, 0x00}
	be := []byte{0x00, 0x48, 0x00, 0x69}
	tests := []struct {
		name  string
		ccsid int32
		enc   Encoding
		in    []byte
	}{
		{"1200 with Encoding 546 is little-endian", 1200, EncodingNative, le},
		{"1200 with Encoding 273 is big-endian", 1200, EncodingNormal, be},
		{"17584 with Encoding 546 is little-endian", 17584, EncodingNative, le},
		{"13488 with Encoding 785 is big-endian", 13488, EncodingS390, be},
		{"1202 is little-endian whatever the Encoding", 1202, EncodingNormal, le},
		{"a BOM overrides the Encoding", 1200, EncodingNative, append([]byte{0xFE, 0xFF}, be...)},
		{"Encoding does not matter for EBCDIC", 37, EncodingNative, []byte{0xC8, 0x89}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := DecodeTextEnc(tc.in, tc.ccsid, tc.enc)
			if err != nil || got != "Hi" {
				t.Errorf("DecodeTextEnc = %q, %v; want \"Hi\"", got, err)
			}
		})
	}
}

func TestClassify(t *testing.T) {
	ebcdicJSON := []byte{0xC0, 0x7F, 0x81, 0x7F, 0x7A, 0xF1, 0xD0} // {"a":1} in CCSID 37
	tests := []struct {
		name  string
		in    []byte
		ccsid int32
		want  Kind
	}{
		{"plain text", []byte("Order 42 rejected: no stock\r\n"), 1208, KindText},
		{"empty body is text", nil, 1208, KindText},
		{"JSON object", []byte(` {"order": 42, "items": [1, 2]}`), 1208, KindJSON},
		{"JSON array", []byte(`[1,2,3]`), 819, KindJSON},
		{"JSON cut off by a bounded browse", []byte(`{"order": 42, "items": [1, 2`), 1208, KindJSON},
		{"JSON in EBCDIC", ebcdicJSON, 37, KindJSON},
		{"bracketed log line is text, not JSON", []byte("[INFO] started"), 1208, KindText},
		{"braces with garbage are text", []byte("{not json}"), 1208, KindText},
		{"XML document", []byte(`<?xml version="1.0"?><order id="1"><qty>2</qty></order>`), 1208, KindXML},
		{"XML after a BOM and white space", []byte("\xEF\xBB\xBF\n <a/>"), 1208, KindXML},
		{"XML cut off by a bounded browse", []byte(`<order><qty>2</qty><item`), 1208, KindXML},
		{"mismatched tags are text", []byte(`<a><b></a></b>`), 1208, KindText},
		{"HTML-ish fragment with trailing text is text", []byte(`<b>bold</b> and more`), 1208, KindText},
		{"Java serialized object is binary", []byte("\xAC\xED\x00\x05sr\x00\x10com.acme.Order"), 1208, KindBinary},
		{"gzip is binary", []byte("\x1F\x8B\x08\x00\x00\x00"), 819, KindBinary},
		{"packed decimal record is binary", []byte("\x00\x00\x12\x3C\x00\x00\x00\x01ACCT"), 819, KindBinary},
		{"one stray control in long text is still text", append(bytes.Repeat([]byte("text "), 40), 0x07), 819, KindText},
		{"NUL padding is binary", append([]byte("NAME"), make([]byte, 16)...), 819, KindBinary},
		{"EBCDIC text with NL line ends is text", []byte{0xC1, 0xC2, 0x15, 0xC3, 0xC4, 0x15}, 37, KindText},
		{"mostly invalid UTF-8 is binary", []byte("\xFF\xFE\xFD\xFC abc"), 1208, KindBinary},
		{"unknown CCSID is binary", []byte("hello"), 1051, KindBinary},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := Classify(tc.in, tc.ccsid); got != tc.want {
				t.Errorf("Classify(%q, %d) = %v, want %v", tc.in, tc.ccsid, got, tc.want)
			}
		})
	}
}

func TestDecodeBody(t *testing.T) {
	t.Run("UTF-16 JSON in little-endian by Encoding", func(t *testing.T) {
		in := []byte{'[', 0, '1', 0, ']', 0}
		b := DecodeBody(in, 1200, EncodingNative)
		if b.Kind != KindJSON || b.Text != "[1]" || b.Err != nil {
			t.Errorf("DecodeBody = %+v", b)
		}
	})
	t.Run("unknown CCSID keeps the error for the caller", func(t *testing.T) {
		b := DecodeBody([]byte("x"), 4242, EncodingNormal)
		if b.Kind != KindBinary || !errors.Is(b.Err, ErrUnknownCCSID) {
			t.Errorf("DecodeBody = %+v", b)
		}
	})
	t.Run("text with a bad byte is text with a warning", func(t *testing.T) {
		b := DecodeBody([]byte("hello wonderful world \xFF"), 1208, EncodingNormal)
		if b.Kind != KindText || !errors.Is(b.Err, ErrInvalidText) {
			t.Errorf("DecodeBody = %+v", b)
		}
	})
}

func TestKindString(t *testing.T) {
	for k, want := range map[Kind]string{KindBinary: "binary", KindText: "text", KindJSON: "JSON", KindXML: "XML", Kind(99): "binary"} {
		if got := k.String(); got != want {
			t.Errorf("Kind(%d).String() = %q, want %q", k, got, want)
		}
	}
}

// fuzzCCSIDs are the code pages FuzzDecodeText picks from.
var fuzzCCSIDs = []int32{1208, 819, 1252, 437, 850, 37, 500, 1047, 1140, 1148, 367, 1200, 1202, 13488, 17584, 0, 1051}

func FuzzDecodeText(f *testing.F) {
	f.Add([]byte("hello"), uint8(0))
	f.Add([]byte{0xC8, 0x85, 0x93, 0x93, 0x96, 0x15, 0x27}, uint8(5))
	f.Add([]byte{0xFF, 0xFE, 0x3C, 0x00, 0x61, 0x00, 0x3E, 0x00}, uint8(11))
	f.Add([]byte{0xD8, 0x3D}, uint8(14))
	f.Add([]byte("\xAC\xED\x00\x05sr"), uint8(2))
	f.Add([]byte(`{"a":[1,"\u202e"]}`), uint8(0))
	f.Fuzz(func(t *testing.T, data []byte, pick uint8) {
		ccsid := fuzzCCSIDs[int(pick)%len(fuzzCCSIDs)]
		for _, enc := range []Encoding{EncodingNormal, EncodingNative} {
			text, err := DecodeTextEnc(data, ccsid, enc)
			if err != nil && !errors.Is(err, ErrUnknownCCSID) && !errors.Is(err, ErrInvalidText) && !errors.Is(err, ErrTruncated) {
				t.Fatalf("unexpected error kind: %v", err)
			}
			if p := terminalProblem(Sanitize(text), false); p != "" {
				t.Fatalf("Sanitize(decoded): %s", p)
			}
			if p := terminalProblem(SanitizeMultiline(text), true); p != "" {
				t.Fatalf("SanitizeMultiline(decoded): %s", p)
			}
			body := DecodeBody(data, ccsid, enc)
			if _, err := Pretty(body.Text, body.Kind); err != nil && body.Kind == KindText {
				t.Fatalf("Pretty of text failed: %v", err)
			}
			_ = Mask(body.Text)
		}
		if p := terminalProblem(HexDump(data, ccsid), true); p != "" {
			t.Fatalf("HexDump: %s", p)
		}
	})
}

// BenchmarkDecodeText decodes 4 KiB of EBCDIC (CCSID 37) text.
func BenchmarkDecodeText(b *testing.B) {
	in := bytes.Repeat([]byte{0xC8, 0x85, 0x93, 0x93, 0x96, 0x40, 0xE6, 0x96, 0x99, 0x93, 0x84, 0x4B, 0x40, 0xF1, 0xF2, 0x15}, 256)
	b.SetBytes(int64(len(in)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := DecodeText(in, 37); err != nil {
			b.Fatal(err)
		}
	}
}
