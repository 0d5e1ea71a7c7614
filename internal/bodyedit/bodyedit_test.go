package bodyedit

import (
	"bytes"
	"errors"
	"testing"

	"github.com/poisonwatch/poisonwatch/codec/mqfmt"
)

// xxdOut is what `xxd` (vim 9) prints for the same bytes.
const xxdOut = `00000000: 4865 6c6c 6f20 776f 726c 640a 0001 ff20  Hello world.... 
00000010: 6162 6364 6566 6768 696a 6b6c 6d6e 6f70  abcdefghijklmnop
00000020: 7172 7374 7576 7778 797a                 qrstuvwxyz
`

var xxdIn = []byte("Hello world\n\x00\x01\xff abcdefghijklmnopqrstuvwxyz")

func TestDumpMatchesXxd(t *testing.T) {
	if got := Dump(xxdIn); got != xxdOut {
		t.Fatalf("Dump:\n%s\nwant (xxd):\n%s", got, xxdOut)
	}
	back, err := ParseDump(xxdOut)
	if err != nil || !bytes.Equal(back, xxdIn) {
		t.Fatalf("ParseDump = %q, %v", back, err)
	}
}

func TestParseDumpStrict(t *testing.T) {
	for _, tc := range []struct {
		name, in  string
		line, col int
	}{
		{"no offset", "4865 6c6c\n", 1, 1},
		{"bad offset digit", "0000000g: 4865\n", 1, 8},
		{"line lost", "00000000: 4865\n00000004: 6c6c\n", 2, 1},
		{"odd digit", "00000000: 486\n", 1, 13},
		{"not hex", "00000000: 48zz\n", 1, 13},
		{"no space after colon", "00000000:4865\n", 1, 10},
		{"empty line body", "00000000: \n", 1, 10},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ParseDump(tc.in)
			var pe *PosError
			if !errors.As(err, &pe) {
				t.Fatalf("err = %v, want a PosError", err)
			}
			if pe.Line != tc.line || pe.Col != tc.col {
				t.Fatalf("at %d:%d (%v), want %d:%d", pe.Line, pe.Col, pe, tc.line, tc.col)
			}
		})
	}
}

func TestParseDumpInsertedByteWithRenumbering(t *testing.T) {
	in := "00000000: 4865 6c6c 6f  Hello\n00000005: 21  !\n"
	got, err := ParseDump(in)
	if err != nil || string(got) != "Hello!" {
		t.Fatalf("got %q, %v", got, err)
	}
}

func TestTextRoundTripInCCSID(t *testing.T) {
	for _, tc := range []struct {
		name  string
		ccsid int32
		enc   mqfmt.Encoding
		text  string
	}{
		{"EBCDIC 500", 500, mqfmt.EncodingNormal, "ORDER 42 [rush] !\nqty=3 ^ ¬|"},
		{"EBCDIC 037", 37, mqfmt.EncodingNormal, "ORDER 42 [rush] ¢\nqty=3"},
		{"UTF-16 big-endian", 1200, mqfmt.EncodingNormal, "Bestellung ÄÖÜ €\nzwei"},
		{"UTF-16 little-endian by Encoding", 1200, mqfmt.Encoding(546), "commande é\nligne"},
		{"UTF-16LE 1202", 1202, mqfmt.EncodingNormal, "注文 42"},
		{"Latin-1", 819, mqfmt.EncodingNormal, "café\n"},
		{"UTF-8", 1208, mqfmt.EncodingNormal, "{\"id\": \"注文\"}"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			body, err := Encode(tc.text, tc.ccsid, tc.enc)
			if err != nil {
				t.Fatal(err)
			}
			d := Open(body, tc.ccsid, tc.enc)
			if d.Mode != Text || d.Text != tc.text {
				t.Fatalf("Open = %v %q, want text %q", d.Mode, d.Text, tc.text)
			}
			edited := d.Text + " edited"
			back, err := d.Parse(edited)
			if err != nil {
				t.Fatal(err)
			}
			got, _ := mqfmt.DecodeTextEnc(back, tc.ccsid, tc.enc)
			if got != edited {
				t.Fatalf("round trip = %q, want %q", got, edited)
			}
			same, err := d.Parse(d.Text)
			if err != nil || !bytes.Equal(same, body) {
				t.Fatalf("unchanged text gave %x, want %x (%v)", same, body, err)
			}
		})
	}
}

func TestEncodeRefusesWhatTheCCSIDCannotHold(t *testing.T) {
	_, err := Encode("line one\nprice 5 €", 500, mqfmt.EncodingNormal)
	var pe *PosError
	if !errors.As(err, &pe) || pe.Line != 2 || pe.Col != 9 {
		t.Fatalf("err = %v, want line 2 column 9", err)
	}
	if _, err := Encode("x", 4242, mqfmt.EncodingNormal); !errors.Is(err, ErrCannotWrite) {
		t.Fatalf("unknown CCSID: %v", err)
	}
}

func TestOpenBinaryIsHex(t *testing.T) {
	body := []byte{0x00, 0x01, 0x02, 0xff, 0xfe, 0x10}
	d := Open(body, 1208, mqfmt.EncodingNormal)
	if d.Mode != Hex {
		t.Fatalf("mode %v, want hex", d.Mode)
	}
	back, err := d.Parse(d.Text)
	if err != nil || !bytes.Equal(back, body) {
		t.Fatalf("hex round trip %x, %v", back, err)
	}
}

func FuzzParseDump(f *testing.F) {
	f.Add(xxdOut)
	f.Add("00000000: 4865\n")
	f.Add("00000000: 48 65 6c  Hel\n00000003: 6c6f\n")
	f.Fuzz(func(t *testing.T, s string) {
		b, err := ParseDump(s)
		if err != nil {
			var pe *PosError
			if !errors.As(err, &pe) || pe.Line < 1 || pe.Col < 1 {
				t.Fatalf("error without a position: %v", err)
			}
			return
		}
		again, err := ParseDump(Dump(b))
		if err != nil || !bytes.Equal(again, b) {
			t.Fatalf("Dump of parsed bytes does not parse back: %v", err)
		}
	})
}

func FuzzOpenParse(f *testing.F) {
	f.Add([]byte("hello"), int32(500))
	f.Add([]byte{0, 0x41, 0, 0x42}, int32(1200))
	f.Fuzz(func(t *testing.T, body []byte, ccsid int32) {
		d := Open(body, ccsid, mqfmt.EncodingNormal)
		back, err := d.Parse(d.Text)
		if err != nil || !bytes.Equal(back, body) {
			t.Fatalf("unchanged %v edit of %x (CCSID %d) gave %x, %v", d.Mode, body, ccsid, back, err)
		}
	})
}

func TestDiff(t *testing.T) {
	before := "a\nb\nc\nd\ne\nf\ng"
	after := "a\nb\nc\nD\ne\nf\ng"
	got := Diff(before, after, 1)
	want := []string{"…", "  c", "- d", "+ D", "  e", "…"}
	if len(got) != len(want) {
		t.Fatalf("Diff = %q, want %q", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("Diff = %q, want %q", got, want)
		}
	}
	if Diff("same", "same", 2) != nil {
		t.Fatal("no change must give no diff")
	}
}

func TestTrimFinalNewline(t *testing.T) {
	d := Doc{Mode: Text, Text: `{"a":1}`}
	if got := d.TrimFinalNewline("{\"a\":2}\n"); got != `{"a":2}` {
		t.Fatalf("editor's newline kept: %q", got)
	}
	if got := d.TrimFinalNewline("{\"a\":2}\n\n"); got != "{\"a\":2}\n" {
		t.Fatalf("a newline typed on purpose lost: %q", got)
	}
	withNL := Doc{Mode: Text, Text: "line\n"}
	if got := withNL.TrimFinalNewline("line 2\n"); got != "line 2\n" {
		t.Fatalf("a body ending in a newline lost it: %q", got)
	}
}
