package mqfmt

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
	"unicode"
)

var writerHostile = []string{"\x1b]0;t\x07", "a\u009b31mb", "\u202eabc", "x\u2066y", "\x9b", "z\U000E0001z", "tab\there"}

func terminalSafe(s string) bool {
	for _, r := range s {
		if r != '\n' && !unicode.IsGraphic(r) {
			return false
		}
	}
	return true
}

// TestJSONSafeWriterKeepsValuesExact: the output has no control or format
// rune, and decodes to exactly the values encoded.
func TestJSONSafeWriterKeepsValuesExact(t *testing.T) {
	var b bytes.Buffer
	enc := json.NewEncoder(NewJSONSafeWriter(&b))
	enc.SetIndent("", "  ")
	if err := enc.Encode(map[string][]string{"v": writerHostile}); err != nil {
		t.Fatal(err)
	}
	if !terminalSafe(b.String()) {
		t.Fatalf("unsafe output %q", b.String())
	}
	var back map[string][]string
	if err := json.Unmarshal(b.Bytes(), &back); err != nil {
		t.Fatal(err)
	}
	for i, v := range writerHostile {
		want := strings.ToValidUTF8(v, "\uFFFD")
		if back["v"][i] != want {
			t.Errorf("value %d: %q, want %q", i, back["v"][i], want)
		}
	}
}

// TestSafeWriterSplitRunes: a rune split across writes is not escaped as two
// bad bytes, and nothing unsafe passes.
func TestSafeWriterSplitRunes(t *testing.T) {
	in := "é \u009b ok\n" + strings.Join(writerHostile, "\n")
	var b bytes.Buffer
	w := NewSafeWriter(&b)
	for i := range len(in) {
		if _, err := w.Write([]byte{in[i]}); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(b.String(), `é \u009b ok`) || !terminalSafe(b.String()) {
		t.Fatalf("%q", b.String())
	}
}

// FuzzSafeWriters: whatever is written, in whatever pieces, the output of
// both writers is terminal-safe.
func FuzzSafeWriters(f *testing.F) {
	for _, s := range writerHostile {
		f.Add([]byte(s), uint8(1))
	}
	f.Fuzz(func(t *testing.T, data []byte, step uint8) {
		n := int(step%7) + 1
		var a, j bytes.Buffer
		sw, jw := NewSafeWriter(&a), NewJSONSafeWriter(&j)
		for i := 0; i < len(data); i += n {
			chunk := data[i:min(i+n, len(data))]
			sw.Write(chunk)
			jw.Write(chunk)
		}
		sw.Flush()
		if !terminalSafe(a.String()) {
			t.Fatalf("SafeWriter: %q", a.String())
		}
		if !terminalSafe(j.String()) {
			t.Fatalf("JSONSafeWriter: %q", j.String())
		}
	})
}
