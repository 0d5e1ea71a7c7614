package cli

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/lipgloss"
	"github.com/muesli/termenv"

	"github.com/poisonwatch/poisonwatch/themes"
	"github.com/poisonwatch/poisonwatch/ui"
)

// BenchmarkFirstPaint measures what `make run` makes the operator wait for:
// from start to the first frame that shows queue rows, on the built-in demo,
// with the program loop run by hand (Init's commands, Update, View). One op
// is one start; ms/first-paint reports the same figure.
func BenchmarkFirstPaint(b *testing.B) {
	th, err := themes.Load("dark")
	if err != nil {
		b.Fatal(err)
	}
	r := lipgloss.NewRenderer(nil)
	r.SetColorProfile(termenv.Ascii)
	var total time.Duration
	for b.Loop() {
		start := time.Now()
		ctx, cancel := context.WithCancel(context.Background())
		be, err := startBackend(ctx, tuiOpts{backend: "embedded"})
		if err != nil {
			b.Fatal(err)
		}
		app, wait := newDashboard(ctx, tuiOpts{interval: 2 * time.Second}, be, th, r)
		paintUntil(ctx, app, func(v string) bool { return strings.Contains(v, "ORDERS.IN") })
		total += time.Since(start)
		b.StopTimer()
		cancel()
		wait()
		be.stop()
		b.StartTimer()
	}
	b.ReportMetric(float64(total.Milliseconds())/float64(b.N), "ms/first-paint")
}

// paintUntil runs the program loop until a frame satisfies done.
func paintUntil(ctx context.Context, app *ui.App, done func(string) bool) {
	d := newDriver(ctx, app, 120, 35)
	for !done(app.View()) {
		if m := <-d.msgs; m != nil {
			_, c := app.Update(m)
			d.exec(c)
		}
	}
}
