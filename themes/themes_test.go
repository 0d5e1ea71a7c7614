package themes

import (
	"os"
	"path/filepath"
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
