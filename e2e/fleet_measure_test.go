//go:build linux

package e2e

import (
	"context"
	"fmt"
	"io"
	"log"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/muesli/termenv"

	"github.com/poisonwatch/poisonwatch/model"
	"github.com/poisonwatch/poisonwatch/promfleet"
	"github.com/poisonwatch/poisonwatch/ui"
)

// TestMeasurePrometheusFleet measures the fleet view on a thousand queue
// managers' series (docs/fleet.md has the figures): the series are
// backfilled into a real Prometheus with promtool tsdb
// create-blocks-from openmetrics, then, three times, with the load
// average beside each run: the queries one refresh makes, ten refreshes'
// wall times, the time from an answer to the first frame with rows (in
// this process), and the binary in tmux: start to rows, resident memory
// after ten refreshes. A measurement, not a check of every build:
//
//	POISONWATCH_MEASURE_FLEET=1000 go test -run TestMeasurePrometheusFleet -v -timeout 30m ./e2e/
func TestMeasurePrometheusFleet(t *testing.T) {
	n, _ := strconv.Atoi(os.Getenv("POISONWATCH_MEASURE_FLEET"))
	if n <= 0 {
		t.Skip("a measurement: POISONWATCH_MEASURE_FLEET=1000 (docs/fleet.md)")
	}
	tools := promBinaries(t)
	dir, bin := buildForTmux(t)
	ctx, cancel := context.WithTimeout(context.Background(), 25*time.Minute)
	defer cancel()
	now := time.Now()
	// Samples a minute apart from six minutes ago to a quarter of an hour
	// ahead: a query at any time of the measurement sees each series
	// fresh, with enough past for deriv over five minutes.
	m := measuredFleet{qmgrs: n, exporters: 4, from: now.Add(-6 * time.Minute).Truncate(time.Minute), to: now.Add(15 * time.Minute), step: time.Minute}
	series, err := m.write(filepath.Join(dir, "fleet.om"))
	if err != nil {
		t.Fatal(err)
	}
	began := time.Now()
	if out, err := exec.CommandContext(ctx, tools["promtool"], "tsdb", "create-blocks-from", "openmetrics",
		filepath.Join(dir, "fleet.om"), filepath.Join(dir, "tsdb")).CombinedOutput(); err != nil {
		t.Fatalf("promtool: %v\n%s", err, out)
	}
	os.Remove(filepath.Join(dir, "fleet.om"))
	t.Logf("%d queue managers on %d exporters: %d series backfilled in %s", n, m.exporters, series, time.Since(began).Round(time.Second))
	prom := freeAddr(t)
	tools.start(t, ctx, dir, "prometheus", "--config.file="+writeTemp(t, dir, "prometheus.yml", "global: {scrape_interval: 15s}\n"),
		"--storage.tsdb.path="+filepath.Join(dir, "tsdb"), "--storage.tsdb.retention.time=30d", "--web.listen-address="+prom, "--log.level=warn")
	base := "http://" + prom
	until(ctx, t, 5*time.Minute, "Prometheus serving the backfilled fleet", func() (bool, string) {
		v, err := scalar(base, "count(poisonwatch_qmgr_connected)")
		return err == nil && int(v) == n, fmt.Sprintf("%v queue managers, %v", v, err)
	})
	for run := 1; run <= 3; run++ {
		t.Logf("run %d, load %s: %s", run, loadAverage(), measureFleetRun(t, ctx, dir, bin, base, n))
	}
}

// measureFleetRun measures one run and says what it found in a line.
func measureFleetRun(t *testing.T, ctx context.Context, dir, bin, base string, n int) string {
	var requests atomic.Int64
	c, err := promfleet.New(promfleet.Config{URL: base, Transport: counting{http.DefaultTransport, &requests}})
	if err != nil {
		t.Fatal(err)
	}
	var took []time.Duration
	var fl *model.RemoteFleet
	before := heapNow()
	for range 10 {
		if fl, err = c.Fetch(ctx); err != nil {
			t.Fatal(err)
		}
		took = append(took, fl.Took)
	}
	if len(fl.Rows) != n {
		t.Fatalf("%d rows, want %d", len(fl.Rows), n)
	}
	slices.Sort(took)
	start := time.Now()
	app := ui.New(ui.Options{Fleet: fixedFeed{fl}, Renderer: asciiRenderer(), Ctx: ctx})
	app.Init()
	app.Update(tea.WindowSizeMsg{Width: 200, Height: 60})
	frame := app.View()
	firstFrame := time.Since(start)
	if !strings.Contains(frame, "fleet "+human(n)+":") {
		t.Fatalf("the first frame has no rows:\n%s", frame)
	}
	heap := int64(heapNow()) - int64(before) // the last answer and the App on it
	runtime.KeepAlive(app)
	startToRows, rss, hwm := measureBinary(t, ctx, dir, bin, base, n)
	if took[len(took)-1] > 2*time.Second {
		t.Errorf("a refresh took %s, more than the default interval (2s)", took[len(took)-1])
	}
	return fmt.Sprintf("%d queries per refresh; refresh %s–%s (median %s); answer to first frame with rows %s; App and fleet %.1f MiB of heap; binary: start to rows %s, VmRSS %d MiB, VmHWM %d MiB after 10 refreshes",
		requests.Load()/10, took[0].Round(time.Millisecond), took[len(took)-1].Round(time.Millisecond), took[len(took)/2].Round(time.Millisecond),
		firstFrame.Round(time.Millisecond), float64(heap)/(1<<20), startToRows.Round(10*time.Millisecond), rss>>10, hwm>>10)
}

// measureBinary runs poisonwatch --prometheus in tmux at 200x60 and
// returns the time from its start to a frame with every row, and its
// resident memory (now and peak, KiB) once Prometheus has answered ten of
// its refreshes.
func measureBinary(t *testing.T, ctx context.Context, dir, bin, base string, n int) (time.Duration, int64, int64) {
	// The binary asks through a proxy that counts its requests: ten
	// refreshes are ten times the queries of one.
	target, _ := url.Parse(base)
	var requests atomic.Int64
	rp := httputil.NewSingleHostReverseProxy(target)
	rp.ErrorLog = log.New(io.Discard, "", 0) // the binary's last requests, cut when it is killed
	proxy := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		requests.Add(1)
		rp.ServeHTTP(w, r)
	}))
	defer proxy.Close()
	started := time.Now()
	s := newTmux(t, dir, fmt.Sprintf("-measure%d", started.UnixNano()), 200, 60, "exec env XDG_STATE_HOME="+dir+" "+bin+" --prometheus "+proxy.URL+" --interval 1s")
	defer s.tmux("kill-server").Run()
	s.waitFor("fleet " + human(n) + ":")
	toRows := time.Since(started)
	until(ctx, t, 2*time.Minute, "ten refreshes", func() (bool, string) {
		return requests.Load() >= 110, fmt.Sprintf("%d requests", requests.Load())
	})
	out, err := s.tmux("display-message", "-p", "-t", s.name, "#{pane_pid}").Output()
	if err != nil {
		t.Fatal(err)
	}
	status, err := os.ReadFile("/proc/" + strings.TrimSpace(string(out)) + "/status")
	if err != nil {
		t.Fatal(err)
	}
	return toRows, statusKiB(string(status), "VmRSS:"), statusKiB(string(status), "VmHWM:")
}

func statusKiB(status, field string) int64 {
	for _, l := range strings.Split(status, "\n") {
		if f := strings.Fields(l); len(f) >= 2 && f[0] == field {
			v, _ := strconv.ParseInt(f[1], 10, 64)
			return v
		}
	}
	return 0
}

// counting counts the requests a client makes.
type counting struct {
	rt http.RoundTripper
	n  *atomic.Int64
}

func (c counting) RoundTrip(r *http.Request) (*http.Response, error) {
	c.n.Add(1)
	return c.rt.RoundTrip(r)
}

// fixedFeed is a feed with one answer.
type fixedFeed struct{ f *model.RemoteFleet }

func (f fixedFeed) Latest() (*model.RemoteFleet, uint64) { return f.f, 1 }
func (f fixedFeed) Next(ctx context.Context, _ uint64) (*model.RemoteFleet, uint64, bool) {
	<-ctx.Done()
	return nil, 0, false
}
func (f fixedFeed) Refresh()       {}
func (f fixedFeed) Source() string { return f.f.Source }

func asciiRenderer() *lipgloss.Renderer {
	r := lipgloss.NewRenderer(io.Discard)
	r.SetColorProfile(termenv.Ascii)
	return r
}

func heapNow() uint64 {
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return ms.HeapAlloc
}

func human(n int) string {
	s := strconv.Itoa(n)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

// loadAverage is the one-minute load average, as uptime prints it first.
func loadAverage() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "?"
	}
	return strings.Join(strings.Fields(string(b))[:3], " ")
}

// scalar is the value of a query that returns one series.
func scalar(base, expr string) (float64, error) {
	var data struct {
		Result []struct {
			Value [2]any `json:"value"`
		} `json:"result"`
	}
	if err := (promAPI{base: base}).get("/api/v1/query", url.Values{"query": {expr}}, &data); err != nil {
		return 0, err
	}
	if len(data.Result) != 1 {
		return 0, fmt.Errorf("%d series", len(data.Result))
	}
	return strconv.ParseFloat(fmt.Sprint(data.Result[0].Value[1]), 64)
}
