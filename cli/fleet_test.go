package cli

import (
	"context"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/lipgloss"
	"github.com/muesli/termenv"

	"github.com/poisonwatch/poisonwatch/backend/embedded"
	"github.com/poisonwatch/poisonwatch/themes"
)

// TestHungQMgrReadsUnresponsiveInTheFleetView runs the dashboard on a
// generated fleet of ten queue managers, each watched with its own
// deadline, and hangs every call to one of them (a call that ignores its
// context, as one stuck in the MQ client does). The fleet view says that one
// does not answer while every other row keeps answering, and says so again
// once the queue manager answers.
func TestHungQMgrReadsUnresponsiveInTheFleetView(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	be, err := startBackend(ctx, tuiOpts{backend: "embedded", scenario: "fleet:10x20"})
	if err != nil {
		t.Fatal(err)
	}
	defer be.stop()
	<-be.warm
	hung := be.qmgrs[3].conn.(interface{ Embedded() *embedded.QMgr }).Embedded()
	th, err := themes.Load("dark")
	if err != nil {
		t.Fatal(err)
	}
	r := lipgloss.NewRenderer(nil)
	r.SetColorProfile(termenv.Ascii)
	app, wait := newDashboard(ctx, tuiOpts{interval: 250 * time.Millisecond, deadline: time.Second}, be, th, r)
	defer func() { cancel(); wait() }()
	d := newDriver(ctx, app, 200, 40)
	row := func(v, qm string) string {
		for _, l := range strings.Split(v, "\n") {
			if strings.Contains(l, " "+qm+" ") || strings.Contains(l, "■"+qm+" ") || strings.Contains(l, "▲"+qm+" ") {
				return l
			}
		}
		return ""
	}
	// Each queue manager but the last, which the fleet stops 45 s after the
	// warm-up, answers within two intervals. The STATE column is as wide as
	// its widest cell: "● 0s" while every row answers, "● 0s ago" beside a
	// "✖ no answer".
	answering := regexp.MustCompile(`● [01]s( ago)?( |$)`)
	until := func(what string, done func(v string) bool) string {
		t.Helper()
		giveUp := time.After(30 * time.Second) // a bound for a broken build, not a measure
		for {
			select {
			case m := <-d.msgs:
				if m == nil {
					continue
				}
				_, c := app.Update(m)
				d.exec(c)
				if v := app.View(); done(v) {
					return v
				}
			case <-giveUp:
				t.Fatalf("%s: not within 30 s:\n%s", what, app.View())
			}
		}
	}
	others := func(v string) bool {
		for _, qm := range []string{"QM01", "QM02", "QM03", "QM05", "QM06", "QM07", "QM08", "QM09"} {
			if !answering.MatchString(row(v, qm)) {
				return false
			}
		}
		return true
	}
	until("every queue manager answers", func(v string) bool { return others(v) && answering.MatchString(row(v, "QM04")) })
	fault := hung.Faults().Add(embedded.Fault{Hang: true})
	defer hung.Faults().Clear()
	until("QM04 reads as not answering", func(v string) bool { return strings.Contains(row(v, "QM04"), "✖ no answer") })
	// While QM04 hangs, the nine others are polled on: their rows say they
	// answered within the last second.
	v := until("the others keep answering while QM04 hangs", func(v string) bool {
		return others(v) && strings.Contains(row(v, "QM04"), "✖ no answer")
	})
	if !strings.Contains(v, "QM04") || !strings.Contains(row(v, "QM04"), "■QM04") {
		t.Fatalf("QM04 is not among the critical rows:\n%s", v)
	}
	hung.Faults().Remove(fault)
	until("QM04 answers again", func(v string) bool { return answering.MatchString(row(v, "QM04")) })
}
