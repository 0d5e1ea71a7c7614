// Package themes holds poisonwatch's colour themes as data files embedded in
// the binary, and loads user theme files. Colour names are semantic (Danger,
// Warning, Selected...) so the ui derives every style from them in one place.
package themes

import (
	"embed"
	"fmt"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"unicode"

	"github.com/poisonwatch/poisonwatch/internal/safeload"
)

// maxThemeBytes bounds a theme file: a real one is under a kilobyte.
const maxThemeBytes = 64 << 10

//go:embed *.toml
var files embed.FS

// Theme is a validated set of semantic colours. Empty means "terminal default".
type Theme struct {
	Name       string `toml:"name"`
	Foreground string `toml:"foreground"`
	Background string `toml:"background"`
	Muted      string `toml:"muted"`
	Border     string `toml:"border"`
	Focused    string `toml:"focused"`
	Selected   string `toml:"selected"`
	Marked     string `toml:"marked"`
	Header     string `toml:"header"`
	HeaderBg   string `toml:"header_bg"`
	OK         string `toml:"ok"`
	Warning    string `toml:"warning"`
	Danger     string `toml:"danger"`
	DangerBg   string `toml:"danger_bg"`
	Info       string `toml:"info"`
	Accent     string `toml:"accent"`
	BadgeRO    string `toml:"badge_ro"`
	BadgeRW    string `toml:"badge_rw"`
}

// Default is the theme used when none is named.
const Default = "dark"

// Names lists the built-in themes.
func Names() []string {
	entries, _ := files.ReadDir(".")
	var out []string
	for _, e := range entries {
		out = append(out, strings.TrimSuffix(e.Name(), ".toml"))
	}
	sort.Strings(out)
	return out
}

// Load returns a built-in theme by name, or loads a theme file when name is a
// path (contains a slash or ends in .toml).
func Load(name string) (Theme, error) {
	if strings.ContainsRune(name, '/') || strings.HasSuffix(name, ".toml") {
		b, err := safeload.ReadFile(name, maxThemeBytes)
		if err != nil {
			return Theme{}, fmt.Errorf("theme file: %w", err)
		}
		return Parse(b, name)
	}
	b, err := files.ReadFile(name + ".toml")
	if err != nil {
		return Theme{}, fmt.Errorf("unknown theme %q (built-in: %s)", name, strings.Join(Names(), ", "))
	}
	return Parse(b, name)
}

var colour = regexp.MustCompile(`^(#[0-9a-fA-F]{6}|#[0-9a-fA-F]{3}|[0-9]{1,3})$`)

// Parse decodes and validates a theme file. Unknown keys are an error, so a
// typo does not silently leave a colour unset.
func Parse(b []byte, source string) (Theme, error) {
	var t Theme
	if err := safeload.DecodeTOML(b, &t, safeload.Limits{MaxBytes: maxThemeBytes}); err != nil {
		return Theme{}, fmt.Errorf("theme %s: %w", source, err)
	}
	if strings.IndexFunc(t.Name, func(r rune) bool { return !unicode.IsGraphic(r) }) >= 0 || len(t.Name) > 64 {
		return Theme{}, fmt.Errorf("theme %s: name %q: want up to 64 printable characters", source, t.Name)
	}
	for key, v := range t.colours() {
		if v == "" {
			if key == "background" {
				continue
			}
			return Theme{}, fmt.Errorf("theme %s: %s is not set", source, key)
		}
		if n, err := strconv.Atoi(v); !colour.MatchString(v) || (err == nil && n > 255) {
			return Theme{}, fmt.Errorf("theme %s: %s = %q is not a colour (#rrggbb, #rgb or 0-255)", source, key, v)
		}
	}
	if t.Name == "" {
		t.Name = source
	}
	return t, nil
}

func (t Theme) colours() map[string]string {
	return map[string]string{
		"foreground": t.Foreground, "background": t.Background, "muted": t.Muted, "border": t.Border,
		"focused": t.Focused, "selected": t.Selected, "marked": t.Marked, "header": t.Header,
		"header_bg": t.HeaderBg, "ok": t.OK, "warning": t.Warning, "danger": t.Danger,
		"danger_bg": t.DangerBg, "info": t.Info, "accent": t.Accent, "badge_ro": t.BadgeRO, "badge_rw": t.BadgeRW,
	}
}
