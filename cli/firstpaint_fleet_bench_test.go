package cli

import (
	"context"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/lipgloss"
	"github.com/muesli/termenv"

	"github.com/poisonwatch/poisonwatch/themes"
)

// fleetRow is a fleet view row that shows a queue manager's answer: its
// name, then a state that is not "connecting…".
var fleetRow = regexp.MustCompile(`(?m)QM\d\d\s+[●◌✖]`)

// anyFleetRow is a fleet view row in any state, "connecting…" included.
var anyFleetRow = regexp.MustCompile(`(?m)QM\d\d\s+(connecting…|[●◌✖])`)

// BenchmarkFleetFirstPaint measures what `poisonwatch --scenario fleet`
// makes the operator wait for: from start to the first frame with fleet
// rows, "connecting…" ones included (ms/first-frame), to the first frame
// with at least one row that has answered (ms/first-row), and to the one in
// which all 50 have (ms/all-rows), with the program loop run by hand as in
// BenchmarkFirstPaint, at the default 2 s interval, in a window tall
// enough for all 50 rows:
//
//	go test -run '^$' -bench '^BenchmarkFleetFirstPaint$' -benchtime 3x .
func BenchmarkFleetFirstPaint(b *testing.B) {
	th, err := themes.Load("dark")
	if err != nil {
		b.Fatal(err)
	}
	r := lipgloss.NewRenderer(nil)
	r.SetColorProfile(termenv.Ascii)
	var frame, first, all time.Duration
	for b.Loop() {
		start := time.Now()
		ctx, cancel := context.WithCancel(context.Background())
		be, err := startBackend(ctx, tuiOpts{backend: "embedded", scenario: "fleet"})
		if err != nil {
			b.Fatal(err)
		}
		app, wait := newDashboard(ctx, tuiOpts{interval: 2 * time.Second}, be, th, r)
		d := newDriver(ctx, app, 200, 80)
		gotFrame, gotFirst := false, false
		for {
			v := app.View()
			if !gotFrame && anyFleetRow.MatchString(v) {
				frame += time.Since(start)
				gotFrame = true
			}
			n := len(fleetRow.FindAllString(v, -1))
			if n >= 1 && !gotFirst {
				first += time.Since(start)
				gotFirst = true
			}
			if n >= 50 && !strings.Contains(v, "connecting…") {
				all += time.Since(start)
				break
			}
			if m := <-d.msgs; m != nil {
				_, c := app.Update(m)
				d.exec(c)
			}
		}
		b.StopTimer()
		cancel()
		wait()
		be.stop()
		b.StartTimer()
	}
	b.ReportMetric(float64(frame.Milliseconds())/float64(b.N), "ms/first-frame")
	b.ReportMetric(float64(first.Milliseconds())/float64(b.N), "ms/first-row")
	b.ReportMetric(float64(all.Milliseconds())/float64(b.N), "ms/all-rows")
}
