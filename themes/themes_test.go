package themes

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

func TestBuiltinThemesLoad(t *testing.T) {
	names := Names()
	if len(names) < 4 {
		t.Fatalf("built-in themes %v", names)
	}
	for _, n := range names {
		if _, err := Load(n); err != nil {
			t.Errorf("%s: %v", n, err)
		}
	}
}

func TestThemeErrors(t *testing.T) {
	dark, _ := files.ReadFile("dark.toml")
	tests := []struct {
		name, text, want string
	}{
		{"unknown key", string(dark) + "\nsparkle = \"#ffffff\"\n", "unknown key"},
		{"bad colour", strings.Replace(string(dark), `danger     = "#ff5f5f"`, `danger = "red"`, 1), "not a colour"},
		{"missing colour", strings.Replace(string(dark), `danger     = "#ff5f5f"`, ``, 1), "danger is not set"},
		{"not toml", "= =", "theme"},
		{"colour over 255", strings.Replace(string(dark), `danger     = "#ff5f5f"`, `danger = "256"`, 1), "not a colour"},
		{"colour 999", strings.Replace(string(dark), `danger     = "#ff5f5f"`, `danger = "999"`, 1), "not a colour"},
		{"negative colour", strings.Replace(string(dark), `danger     = "#ff5f5f"`, `danger = "-1"`, 1), "not a colour"},
		{"escape in name", strings.Replace(string(dark), `name = "dark"`, `name = "\u001b]0;x\u0007"`, 1), "printable"},
		{"nested inline tables", "x = " + strings.Repeat("{a = ", 100) + "1" + strings.Repeat("}", 100), "nested deeper"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Parse([]byte(tt.text), "test")
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("err %v, want %q", err, tt.want)
			}
		})
	}
	if _, err := Load("nope"); err == nil || !strings.Contains(err.Error(), "built-in") {
		t.Fatalf("unknown theme: %v", err)
	}
}

// TestThemeColour255Accepted: the highest ANSI colour is a colour. The
// danger line is found whatever its spacing and value, and the theme must
// carry the 255, so a change to dark.toml cannot turn the test into a no-op.
func TestThemeColour255Accepted(t *testing.T) {
	dark, err := files.ReadFile("dark.toml")
	if err != nil {
		t.Fatal(err)
	}
	line := regexp.MustCompile(`(?m)^danger[ \t]*=.*$`)
	if n := len(line.FindAll(dark, -1)); n != 1 {
		t.Fatalf("dark.toml has %d danger lines, want 1", n)
	}
	th, err := Parse(line.ReplaceAll(dark, []byte(`danger = "255"`)), "t")
	if err != nil {
		t.Fatal(err)
	}
	if th.Danger != "255" {
		t.Fatalf("danger = %q, want the 255 the file sets", th.Danger)
	}
}

func TestThemeFileNotRegularOrTooLarge(t *testing.T) {
	if _, err := Load("/dev/zero"); err == nil || !strings.Contains(err.Error(), "not a regular file") {
		t.Fatalf("/dev/zero: %v", err)
	}
	p := filepath.Join(t.TempDir(), "big.toml")
	if err := os.WriteFile(p, make([]byte, maxThemeBytes+1), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := Load(p); err == nil || !strings.Contains(err.Error(), "limit") {
		t.Fatalf("large file: %v", err)
	}
}

// FuzzParse feeds the theme loader arbitrary text: an error or a theme,
// never a panic, and a theme only with valid colours.
func FuzzParse(f *testing.F) {
	dark, _ := files.ReadFile("dark.toml")
	f.Add(dark)
	f.Add([]byte("name = 'x'\nforeground = '300'"))
	f.Fuzz(func(t *testing.T, b []byte) {
		th, err := Parse(b, "fuzz")
		if err != nil {
			return
		}
		for k, v := range th.colours() {
			if v != "" && !colour.MatchString(v) {
				t.Fatalf("%s = %q accepted", k, v)
			}
		}
	})
}

func TestUserThemeFile(t *testing.T) {
	dark, _ := files.ReadFile("dark.toml")
	p := filepath.Join(t.TempDir(), "mine.toml")
	if err := os.WriteFile(p, []byte(strings.Replace(string(dark), `name = "dark"`, `name = "mine"`, 1)), 0o600); err != nil {
		t.Fatal(err)
	}
	th, err := Load(p)
	if err != nil || th.Name != "mine" {
		t.Fatalf("%+v %v", th, err)
	}
}
