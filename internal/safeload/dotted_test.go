package safeload

import (
	"strings"
	"testing"
)

// Dotted table headers and keys nest as deep as brackets: a 32 KB header
// took the decoder 385 MB. They are refused before decoding; ordinary
// dotted names, quoted dots and dotted values pass.
func TestCheckTOMLBoundsDottedDepth(t *testing.T) {
	deep := strings.Repeat("a.", 16<<10) + "a"
	for _, tc := range []struct {
		name, doc, want string
	}{
		{"header_32KB", "[" + deep + "]\nx = 1\n", "table header of more than 16 dotted parts"},
		{"array_header", "[[" + deep + "]]\n", "table header of more than 16 dotted parts"},
		{"dotted_key", deep + " = 1\n", "dotted key of more than 16 parts"},
		{"inline_dotted_key", "x = {" + deep + " = 1}\n", "dotted key of more than 16 parts"},
		{"header_17", "[" + strings.Repeat("a.", 16) + "a]\n", "more than 16"},
		{"header_16", "[" + strings.Repeat("a.", 15) + "a]\n", ""},
		{"key_16", strings.Repeat("a.", 15) + "a = 1\n", ""},
		{"quoted_dots", "[\"" + deep + "\"]\n\"" + deep + "\" = 1\n", ""},
		{"dotted_values", "x = 1.5\ny = 1979-05-27T07:32:00.999Z\nz = [1.5, 2.5, 3.5]\n[qmgr.tls]\nv = \"a.b.c\"\n", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := CheckTOML([]byte(tc.doc), Limits{MaxBytes: 1 << 20})
			if tc.want == "" && err != nil || tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)) {
				t.Fatalf("err = %v, want %q", err, tc.want)
			}
		})
	}
}

func BenchmarkCheckTOMLDottedHeader(b *testing.B) {
	doc := []byte("[" + strings.Repeat("a.", 16<<10) + "a]\n")
	for b.Loop() {
		_ = CheckTOML(doc, Limits{})
	}
}
