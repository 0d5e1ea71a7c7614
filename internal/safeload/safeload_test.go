package safeload

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestCheckTOMLNesting(t *testing.T) {
	deep := "a = " + strings.Repeat("{b = ", 40) + "1" + strings.Repeat("}", 40) + "\n"
	arrays := "a = " + strings.Repeat("[", 40) + strings.Repeat("]", 40) + "\n"
	tests := []struct {
		name, doc string
		ok        bool
	}{
		{"flat", "a = 1\n[t]\nb = \"x = {[[\"\n[[arr]]\nc = 'y'\n", true},
		{"nested inline tables", deep, false},
		{"nested arrays", arrays, false},
		{"brackets in strings do not count", "a = \"" + strings.Repeat("{", 100) + "\"\nb = '''\n" + strings.Repeat("[", 100) + "'''\n", true},
		{"brackets in comments do not count", "# " + strings.Repeat("{", 100) + "\na = 1\n", true},
		{"escaped quote", `a = "x\"{{{{{{{{{{{{{{{{{{{{{{{{{{"` + "\n", true},
		{"too many keys", strings.Repeat("k = 1\n", DefaultMaxKeys+1), false},
		{"too many tables", strings.Repeat("[[t]]\n", DefaultMaxKeys+1), false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := CheckTOML([]byte(tt.doc), Limits{})
			if (err == nil) != tt.ok {
				t.Fatalf("err = %v, want ok %v", err, tt.ok)
			}
		})
	}
}

func TestDecodeTOMLUnknownKeysCapped(t *testing.T) {
	var v struct {
		A int `toml:"a"`
	}
	doc := "a = 1\n"
	for i := range 50 {
		doc += "k" + strings.Repeat("x", i) + " = 1\n"
	}
	err := DecodeTOML([]byte(doc), &v, Limits{})
	if err == nil || !strings.Contains(err.Error(), "and 45 more") || strings.Count(err.Error(), "\"k") != MaxListedKeys {
		t.Fatalf("err = %v", err)
	}
}

func TestDecodeTOMLSizeCap(t *testing.T) {
	var v struct{}
	err := DecodeTOML(make([]byte, 100), &v, Limits{MaxBytes: 10})
	if !errors.Is(err, ErrTooLarge) {
		t.Fatalf("err = %v", err)
	}
}

func TestReadFileRegularOnly(t *testing.T) {
	if _, err := ReadFile("/dev/zero", 1<<20); err == nil || !strings.Contains(err.Error(), "not a regular file") {
		t.Fatalf("/dev/zero: %v", err)
	}
	dir := t.TempDir()
	if _, err := ReadFile(dir, 1<<20); err == nil {
		t.Fatal("a directory was read")
	}
	p := filepath.Join(dir, "f")
	if err := os.WriteFile(p, make([]byte, 2000), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := ReadFile(p, 1000); !errors.Is(err, ErrTooLarge) {
		t.Fatalf("over the cap: %v", err)
	}
	if b, err := ReadFile(p, 2000); err != nil || len(b) != 2000 {
		t.Fatalf("at the cap: %d %v", len(b), err)
	}
}

// FuzzCheckTOML checks the scan never panics, and that what it passes the
// decoder handles without error other than syntax.
func FuzzCheckTOML(f *testing.F) {
	for _, s := range []string{"a = 1", "a = {b = {c = [1, 2]}}", "[[t]]\nx = \"\"\"\n{\n\"\"\"", "a = '''x'''", `a = "\""`, "[a.b.c]\nx.y = 1", `["a.b".c]`, "x = {a.b.c = 1.5}"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		var v map[string]any
		_ = DecodeTOML(data, &v, Limits{MaxBytes: 1 << 16})
	})
}
