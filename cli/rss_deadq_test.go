//go:build linux

package cli

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/poisonwatch/poisonwatch/backend/genqm"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"

	"github.com/poisonwatch/poisonwatch/themes"
)

// rssBudget is issue 17's bound on the whole dashboard process tracking a
// DEADQ of a million and ten BOQs of 100,000.
const rssBudget = 300 << 20

// TestDeadQTrackedRSS measures the resident memory of the whole dashboard
// (watcher, model, the Bubble Tea program with the DEADQ triage open, its
// rendering into the void) while it tracks issue 17's incident: a DEADQ of
// 1,000,000 dead letters and 10 BOQs of 100,000, on a queue manager whose
// messages are made as they are browsed (genQMgr: the embedded one would
// hold them all in the same process). The dashboard runs in a child process
// (the test binary re-run), reads everything, polls on at 250 ms with 100
// new dead letters a poll, and then reports its peak and current resident
// set and its Go heap. A measurement, run on demand:
//
//	POISONWATCH_RSS=1 go test -run TestDeadQTrackedRSS -v .
//
// It fails when the steady resident set passes 300 MiB.
func TestDeadQTrackedRSS(t *testing.T) {
	if os.Getenv("POISONWATCH_RSS_DEADQ_CHILD") != "" {
		os.Exit(trackDeadQ(os.Stdout))
	}
	if os.Getenv("POISONWATCH_RSS") == "" {
		t.Skip("a measurement: set POISONWATCH_RSS=1 to run it")
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestDeadQTrackedRSS$")
	cmd.Env = append(os.Environ(), "POISONWATCH_RSS_DEADQ_CHILD=1")
	cmd.Stderr = os.Stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("child: %v\n%s", err, out)
	}
	figures := map[string]int64{}
	sc := bufio.NewScanner(strings.NewReader(string(out)))
	for sc.Scan() {
		if k, v, ok := strings.Cut(sc.Text(), "="); ok {
			n, err := strconv.ParseInt(v, 10, 64)
			if err == nil {
				figures[k] = n
			}
		}
	}
	mib := func(k string) float64 { return float64(figures[k]) / (1 << 20) }
	t.Logf("tracking %d messages (DEADQ %d + BOQs %d) after %d polls, first read in %.1fs:",
		figures["tracked"], figures["deadq"], figures["tracked"]-figures["deadq"], figures["polls"], float64(figures["read_ms"])/1000)
	t.Logf("  resident now %.0f MiB, peak %.0f MiB (during the first read)", mib("rss"), mib("peak"))
	t.Logf("  Go heap in use %.0f MiB after a collection (%.1f B per tracked message, all of it included)",
		mib("heap"), float64(figures["heap"])/float64(figures["tracked"]))
	if figures["rss"] == 0 || figures["tracked"] < 2_000_000 {
		t.Fatalf("the child reported %v", figures)
	}
	if figures["rss"] > rssBudget {
		t.Errorf("resident set %.0f MiB, over the %d MiB budget", mib("rss"), rssBudget>>20)
	}
}

// trackDeadQ runs the dashboard on the incident and prints its figures as
// key=value lines.
func trackDeadQ(w io.Writer) int {
	const deadq, boqs, boqDepth = 1_000_000, 10, 100_000
	gen := genqm.New(deadq, boqs, boqDepth)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	be := &backend{qmgrs: []qmgrConn{{name: "QM1", conn: gen}}, stop: func() {}}
	th, err := themes.Load(themes.Default)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	app, wait := newDashboard(ctx, tuiOpts{interval: 250 * time.Millisecond}, be, th, lipgloss.NewRenderer(io.Discard))
	p := tea.NewProgram(app, tea.WithInput(nil), tea.WithOutput(io.Discard), tea.WithContext(ctx))
	done := make(chan struct{})
	go func() { _, _ = p.Run(); close(done) }()
	start := time.Now()
	total := int64(deadq + boqs*boqDepth)
	sentKey := false
	for gen.Browsed.Load() < total {
		if !sentKey && gen.Browsed.Load() > 50_000 {
			p.Send(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("d")}) // the DEADQ triage, open through the read
			sentKey = true
		}
		time.Sleep(50 * time.Millisecond)
	}
	read := time.Since(start)
	// The steady state: polls that read the 100 new dead letters each.
	gen.Grown.Store(true)
	from := gen.Polls.Load()
	for gen.Polls.Load() < from+40 {
		time.Sleep(50 * time.Millisecond)
	}
	rss, peak := procStatus("VmRSS"), procStatus("VmHWM")
	var ms runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&ms)
	polls := gen.Polls.Load()
	tracked := gen.Browsed.Load()
	p.Quit()
	<-done
	cancel()
	wait()
	fmt.Fprintf(w, "rss=%d\npeak=%d\nheap=%d\ntracked=%d\ndeadq=%d\npolls=%d\nread_ms=%d\n",
		rss, peak, ms.HeapInuse, tracked, tracked-boqs*boqDepth, polls, read.Milliseconds())
	return 0
}

// procStatus returns a /proc/self/status figure (kB) in bytes.
func procStatus(key string) int64 {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, key+":"); ok {
			n, _ := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 10, 64)
			return n << 10
		}
	}
	return 0
}
