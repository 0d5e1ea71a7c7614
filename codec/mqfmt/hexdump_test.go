package mqfmt

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestHexDumpMatchesAmqsbcg(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("testdata", "body", "dlh_put_inhibited_le.bin"))
	if err != nil {
		t.Fatal(err)
	}
	golden, err := os.ReadFile(filepath.Join("testdata", "body", "amqsbcg_DLQ_QMW.golden"))
	if err != nil {
		t.Fatal(err)
	}
	want := strings.Split(strings.TrimRight(string(golden), "\n"), "\n")
	got := strings.Split(HexDump(data, 819), "\n")
	if len(got) != len(want) {
		t.Fatalf("%d lines, amqsbcg printed %d", len(got), len(want))
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("line %d:\n got %q\nwant %q", i, got[i], want[i])
		}
		if line := HexDumpLine(data, i, 819); line != want[i] {
			t.Errorf("HexDumpLine(%d) = %q, want %q", i, line, want[i])
		}
	}
}

func TestHexDumpLayout(t *testing.T) {
	tests := []struct {
		name  string
		in    []byte
		ccsid int32
		want  string
	}{
		{"empty data is one blank line as in amqsbcg", nil, 819,
			"00000000:                                          '                '"},
		{"odd byte count pads the last pair", []byte("ABCDE"), 819,
			"00000000:  4142 4344 45                            'ABCDE           '"},
		{"EBCDIC column shows characters of the code page", []byte{0xC8, 0x85, 0x93, 0x93, 0x96, 0x40, 0x5A, 0x15}, 37,
			"00000000:  C885 9393 9640 5A15                     'Hello !.        '"},
		{"CCSID 500 column uses CP500", []byte{0x4A, 0x5A, 0x4F}, 500,
			"00000000:  4A5A 4F                                 '[]!             '"},
		{"Latin-1 letters show, controls and NBSP do not", []byte{0xE9, 0x1B, 0x9B, 0xA0, 0xAD, 0x7F}, 819,
			"00000000:  E91B 9BA0 AD7F                          'é.....          '"},
		{"UTF-8 column is printable ASCII only", []byte("é"), 1208,
			"00000000:  C3A9                                    '..              '"},
		{"unknown CCSID column is printable ASCII", []byte("A\x00"), 4242,
			"00000000:  4100                                    'A.              '"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := HexDump(tc.in, tc.ccsid); got != tc.want {
				t.Errorf("HexDump:\n got %q\nwant %q", got, tc.want)
			}
		})
	}
}

func TestHexDumpLineBounds(t *testing.T) {
	data := bytes.Repeat([]byte{0x41}, 33)
	if n := HexDumpLines(len(data)); n != 3 {
		t.Fatalf("HexDumpLines(33) = %d, want 3", n)
	}
	for _, line := range []int{-1, 3, 1 << 30} {
		if got := HexDumpLine(data, line, 819); got != "" {
			t.Errorf("HexDumpLine(%d) = %q, want \"\"", line, got)
		}
	}
	if got := HexDumpLine(data, 2, 819); !strings.HasPrefix(got, "00000020:  41 ") {
		t.Errorf("last line = %q", got)
	}
}

func TestHexDumpColumnIsSafeForEveryCCSID(t *testing.T) {
	all := make([]byte, 256)
	for i := range all {
		all[i] = byte(i)
	}
	for _, c := range append(SupportedCCSIDs(), 0, 4242) {
		dump := HexDump(all, c)
		if p := terminalProblem(dump, true); p != "" {
			t.Errorf("CCSID %d: %s", c, p)
		}
		for i, line := range strings.Split(dump, "\n") {
			if n := utf8.RuneCountInString(line); n != 69 {
				t.Errorf("CCSID %d line %d is %d runes, want 69: %q", c, i, n, line)
			}
		}
	}
}

func TestHexLines(t *testing.T) {
	data := []byte("DLH \x01\x00\x00\x00\x03\x08\x00\x00QL.A")
	tests := []struct {
		name  string
		width int
		want  []string
	}{
		{"80 columns fit 16 bytes", 80, []string{"0000: 444C4820 01000000 03080000 514C2E41  DLH ........QL.A"}},
		{"40 columns fit 8 bytes", 40, []string{"0000: 444C4820 01000000  DLH ....", "0008: 03080000 514C2E41  ....QL.A"}},
		{"20 columns fit 4 bytes", 20, []string{"0000: 444C4820  DLH ", "0004: 01000000  ....", "0008: 03080000  ....", "000C: 514C2E41  QL.A"}},
		{"19 columns fit 2 bytes", 19, []string{"0000: 444C  DL", "0002: 4820  H ", "0004: 0100  ..", "0006: 0000  ..",
			"0008: 0308  ..", "000A: 0000  ..", "000C: 514C  QL", "000E: 2E41  .A"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := HexLines(data, tc.width)
			if strings.Join(got, "\n") != strings.Join(tc.want, "\n") {
				t.Errorf("HexLines(%d):\n got %q\nwant %q", tc.width, got, tc.want)
			}
			for _, line := range got {
				if utf8.RuneCountInString(line) > tc.width {
					t.Errorf("line wider than %d: %q", tc.width, line)
				}
			}
		})
	}
	t.Run("last line is padded so the column aligns", func(t *testing.T) {
		got := HexLines([]byte("ABCDEFGHIJ"), 40)
		want := []string{"0000: 41424344 45464748  ABCDEFGH", "0008: 494A               IJ"}
		if strings.Join(got, "\n") != strings.Join(want, "\n") {
			t.Errorf("got %q, want %q", got, want)
		}
	})
	t.Run("offsets widen for large data", func(t *testing.T) {
		got := HexLines(make([]byte, 0x10001), 80)
		if last := got[len(got)-1]; !strings.HasPrefix(last, "10000: 00") {
			t.Errorf("last line %q", last)
		}
	})
	t.Run("EBCDIC column through HexLinesCCSID", func(t *testing.T) {
		got := HexLinesCCSID([]byte{0xC1, 0xC2}, 80, 37)
		if len(got) != 1 || !strings.HasSuffix(got[0], "  AB") {
			t.Errorf("got %q", got)
		}
	})
}

// BenchmarkHexDump dumps 4 KiB in the amqsbcg layout with an EBCDIC column.
func BenchmarkHexDump(b *testing.B) {
	in := make([]byte, 4096)
	for i := range in {
		in[i] = byte(i * 7)
	}
	b.SetBytes(int64(len(in)))
	b.ReportAllocs()
	for b.Loop() {
		_ = HexDump(in, 37)
	}
}

func TestHexColumnCacheIsBounded(t *testing.T) {
	for c := int32(100000); c < 101000; c++ {
		_ = HexDumpLine([]byte("x"), 0, c)
	}
	n := 0
	hexColumns.Range(func(any, any) bool { n++; return true })
	if n > len(ccsids) {
		t.Errorf("%d cached columns after 1000 made-up CCSIDs; at most %d CCSIDs are supported", n, len(ccsids))
	}
}
