package ui

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/charmbracelet/lipgloss"
	"github.com/muesli/termenv"

	"github.com/poisonwatch/poisonwatch/themes"
)

// TestWriteScreenshots renders every screen in colour for `make screenshots`,
// which turns the files into PNGs. It runs only when POISONWATCH_SCREENSHOTS
// names the output directory.
func TestWriteScreenshots(t *testing.T) {
	dir := os.Getenv("POISONWATCH_SCREENSHOTS")
	if dir == "" {
		t.Skip("set POISONWATCH_SCREENSHOTS=DIR to write the screens (make screenshots does)")
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	shots := []struct {
		name  string
		theme string
		w, h  int
		keys  []string
		opt   Options
	}{
		{"dashboard", "dark", 160, 40, nil, Options{}},
		{"dashboard-80x24", "dark", 80, 24, nil, Options{}},
		{"dlq-triage", "dark", 120, 30, []string{"d"}, Options{}},
		{"dlq-group", "dark", 120, 30, []string{"d", "enter"}, Options{}},
		{"message-dlh", "dark", 120, 30, []string{"d", "enter", "enter"}, Options{}},
		{"message-mqmd", "dark", 120, 40, []string{"d", "enter", "enter", "l", "l", "l"}, Options{}},
		{"message-body", "dark", 120, 30, []string{"d", "enter", "enter", "l"}, Options{}},
		{"message-route", "dark", 120, 30, []string{"d", "enter", "enter", "l", "l"}, Options{}},
		{"queue-input", "dark", 120, 30, []string{"j", "enter"}, Options{}},
		{"requeue-dialog", "dark", 120, 30, []string{"d", "enter", "space", "space", "R"}, Options{}},
		{"palette", "dark", 120, 30, []string{":", "q", " ", "o"}, Options{}},
		{"help", "dark", 120, 35, []string{"?"}, Options{}},
		{"war-room", "high-contrast", 160, 40, nil, Options{WarRoom: true}},
		{"light", "light", 160, 40, nil, Options{}},
		{"colorblind", "colorblind", 160, 40, nil, Options{}},
	}
	for _, s := range shots {
		a, _ := newTestApp(t, s.w, s.h, withOps(s.opt))
		r := lipgloss.NewRenderer(os.Stdout)
		r.SetColorProfile(termenv.TrueColor)
		r.SetHasDarkBackground(s.theme != "light")
		th, err := themes.Load(s.theme)
		if err != nil {
			t.Fatal(err)
		}
		a.opt.Renderer = r
		a.setTheme(th)
		a.Update(snapshotMsg{snap: incident(1, 300)})
		press(a, s.keys...)
		if err := os.WriteFile(filepath.Join(dir, s.name+".ansi"), []byte(a.View()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func withOps(o Options) Options {
	o.Ops = &fakeOps{msg: sampleMessage()}
	return o
}
