package cli

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/muesli/termenv"

	"github.com/poisonwatch/poisonwatch/themes"
	"github.com/poisonwatch/poisonwatch/ui"
)

// TestWriteScreenshots renders what `make run` shows a new user (the built-in
// demo: three queue managers, the real engine for dry runs) in colour, for
// `make screenshots`, which turns the files into PNGs. It runs only when
// POISONWATCH_SCREENSHOTS names the output directory.
func TestWriteScreenshots(t *testing.T) {
	dir := screenshotDir(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	be, err := startBackend(ctx, tuiOpts{backend: "embedded"})
	if err != nil {
		t.Fatal(err)
	}
	defer be.stop()
	ops, err := newEngineOps(be.qmgrs, false, "operator", filepath.Join(t.TempDir(), "audit.jsonl"), be.acts())
	if err != nil {
		t.Fatal(err)
	}
	be.ops, be.rules = ops, ops
	<-be.warm
	shots := []struct {
		name, theme string
		w, h        int
		keys        []string
		o           tuiOpts
	}{
		{"dashboard", "dark", 160, 40, nil, tuiOpts{}},
		{"dashboard-80x24", "dark", 80, 24, nil, tuiOpts{}},
		{"alert-detail", "dark", 120, 30, []string{"tab", "enter"}, tuiOpts{}},
		{"all-alerts", "dark", 160, 40, []string{"a"}, tuiOpts{}},
		{"dlq-triage", "dark", 120, 30, []string{"d"}, tuiOpts{}},
		{"dlq-group", "dark", 120, 30, []string{"d", "enter"}, tuiOpts{}},
		{"message-dlh", "dark", 120, 30, []string{"d", "enter", "enter"}, tuiOpts{}},
		{"message-mqmd", "dark", 120, 40, []string{"d", "enter", "enter", "l", "l", "l"}, tuiOpts{}},
		{"message-body", "dark", 120, 30, []string{"d", "enter", "enter", "l"}, tuiOpts{}},
		{"message-route", "dark", 120, 30, []string{"d", "enter", "enter", "l", "l"}, tuiOpts{}},
		{"queue-input", "dark", 120, 30, []string{"j", "j", "enter"}, tuiOpts{}},
		{"requeue-dialog", "dark", 120, 30, []string{"d", "enter", "space", "space", "R"}, tuiOpts{}},
		{"fix-dialog", "dark", 120, 30, []string{"tab", "j", "x"}, tuiOpts{}},
		{"palette", "dark", 120, 30, []string{":", "q", " ", "o"}, tuiOpts{}},
		{"help", "dark", 120, 35, []string{"?"}, tuiOpts{}},
		{"war-room", "high-contrast", 160, 40, nil, tuiOpts{warRoom: true, readOnly: true}},
		{"light", "light", 160, 40, nil, tuiOpts{}},
		{"colorblind", "colorblind", 160, 40, nil, tuiOpts{}},
	}
	for _, s := range shots {
		writeShot(t, ctx, be, dir, s.name, s.theme, s.w, s.h, s.keys, s.o)
	}
	// A fleet opens on the fleet view: one row per queue manager, worst first.
	fleet, err := startBackend(ctx, tuiOpts{backend: "embedded", scenario: "fleet:12x200"})
	if err != nil {
		t.Fatal(err)
	}
	defer fleet.stop()
	<-fleet.warm
	writeShot(t, ctx, fleet, dir, "fleet", "dark", 160, 40, nil, tuiOpts{})
}

// writeShot renders one screen of the backend in colour to dir/name.ansi.
func writeShot(t *testing.T, ctx context.Context, be *backend, dir, name, theme string, w, h int, keys []string, o tuiOpts) {
	t.Helper()
	th, err := themes.Load(theme)
	if err != nil {
		t.Fatal(err)
	}
	r := lipgloss.NewRenderer(nil)
	r.SetColorProfile(termenv.TrueColor)
	r.SetHasDarkBackground(theme != "light")
	o.interval = 250 * time.Millisecond
	v := screen(ctx, be, o, th, r, w, h, keys)
	if err := os.WriteFile(filepath.Join(dir, name+".ansi"), []byte(v), 0o644); err != nil {
		t.Fatal(err)
	}
}

// screen runs a dashboard on the backend for a few polls, presses keys as an
// operator would (letting fetches and dry runs answer) and returns the frame.
func screen(ctx context.Context, be *backend, o tuiOpts, th themes.Theme, r *lipgloss.Renderer, w, h int, keys []string) string {
	ctx, cancel := context.WithCancel(ctx)
	app, wait := newDashboard(ctx, o, be, th, r)
	defer func() { cancel(); wait() }()
	d := newDriver(ctx, app, w, h)
	d.settle(1500 * time.Millisecond) // a few polls: sparklines and rates
	for _, k := range keys {
		d.press(k)
	}
	return app.View()
}

// driver is the program loop run by hand: Init's and Update's commands run
// in goroutines and their messages reach Update in order.
type driver struct {
	ctx  context.Context
	app  *ui.App
	msgs chan tea.Msg
}

func newDriver(ctx context.Context, app *ui.App, w, h int) *driver {
	d := &driver{ctx: ctx, app: app, msgs: make(chan tea.Msg, 64)}
	d.exec(app.Init())
	app.Update(tea.WindowSizeMsg{Width: w, Height: h})
	return d
}

func (d *driver) exec(c tea.Cmd) {
	if c == nil {
		return
	}
	go func() {
		m := c()
		if batch, ok := m.(tea.BatchMsg); ok {
			for _, c := range batch {
				d.exec(c)
			}
			return
		}
		select {
		case d.msgs <- m:
		case <-d.ctx.Done():
		}
	}()
}

// settle handles messages for a while.
func (d *driver) settle(dur time.Duration) {
	end := time.After(dur)
	for {
		select {
		case m := <-d.msgs:
			if m == nil {
				continue
			}
			_, c := d.app.Update(m)
			d.exec(c)
		case <-end:
			return
		}
	}
}

func (d *driver) press(k string) {
	msg := tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(k)}
	switch k {
	case "enter":
		msg = tea.KeyMsg{Type: tea.KeyEnter}
	case "tab":
		msg = tea.KeyMsg{Type: tea.KeyTab}
	case "space":
		msg = tea.KeyMsg{Type: tea.KeySpace, Runes: []rune{' '}}
	}
	_, c := d.app.Update(msg)
	d.exec(c)
	d.settle(300 * time.Millisecond)
}

// screenshotDir is where `make screenshots` wants the screens (created), or
// skips the test when POISONWATCH_SCREENSHOTS is not set.
func screenshotDir(t *testing.T) string {
	dir := os.Getenv("POISONWATCH_SCREENSHOTS")
	if dir == "" {
		t.Skip("set POISONWATCH_SCREENSHOTS=DIR to write the screens (make screenshots does)")
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	return dir
}
