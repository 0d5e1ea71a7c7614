//go:build linux

package e2e

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/poisonwatch/poisonwatch/internal/waitfor"
)

// fleetScrape is the scrape interval of the fleet's end to end: a killed
// exporter must read down within two of them.
const fleetScrape = 2 * time.Second

// TestPrometheusFleetEndToEnd: three exporter processes, each watching a
// simulated fleet of three queue managers, scraped by Debian's
// Prometheus, which evaluates the documented rules and sends what fires to
// a real Alertmanager holding a silence. `poisonwatch --prometheus
// --alertmanager` in tmux shows all nine queue managers, the silence on
// the alert it holds; enter opens live only the queue manager --qmgrs
// names and says how to get a connection for another; `serve
// --prometheus` shows the same fleet over SSH; an exporter killed with
// SIGKILL reads down within two scrape intervals.
func TestPrometheusFleetEndToEnd(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	st := startFleetStack(t, ctx)
	dir, bin, prom, am, targets, exporters := st.dir, st.bin, st.prom, st.am, st.targets, st.exporters
	qmgrs := writeTemp(t, dir, "qmgrs.toml", "[[qmgr]]\nname = \"QM02\"\n")
	tui := newTmux(t, dir, "-fleet", 140, 45, "XDG_STATE_HOME="+dir+" "+bin+" --prometheus http://"+prom+" --alertmanager http://"+am+
		" --interval 500ms --scenario fleet:3x20 --qmgrs "+qmgrs+" --audit "+filepath.Join(dir, "audit.jsonl"))
	screen := tui.waitFor("fleet 9:", "Fleet from http://"+prom)
	for _, addr := range targets {
		for _, qm := range []string{"QM01", "QM02", "QM03"} {
			if !regexp.MustCompile(qm + ` +` + regexp.QuoteMeta(addr) + ` `).MatchString(screen) {
				t.Errorf("no row for %s on %s:\n%s", qm, addr, screen)
			}
		}
	}

	t.Run("silence", func(t *testing.T) {
		tui.keys("/")
		tui.keys(strings.Split("QM01 "+targets[0], "")...)
		tui.keys("Enter")
		tui.waitFor("1 of 9 queue managers", "R1c", "silenced by e2e-oncall", "known loop, fix on its way")
		tui.keys("Escape")
	})
	t.Run("enter_opens_only_a_named_connection", func(t *testing.T) {
		tui.keys("/")
		tui.keys(strings.Split("QM01 "+targets[1], "")...)
		tui.keys("Enter", "Enter")
		tui.waitFor("QM01: no connection in this session; name it in --qmgrs")
		tui.keys("Escape", "/")
		tui.keys(strings.Split("QM02 "+targets[1], "")...)
		tui.keys("Enter", "Enter")
		tui.waitFor("Fleet › Dashboard", "▸QM02")
		tui.keys("Escape", "Escape")
		tui.waitFor("fleet 9:")
	})
	t.Run("serve", func(t *testing.T) {
		room := startServeWith(t, "", []string{"--prometheus", "http://" + prom})
		s := room.session("alice", "alice", 140, 45)
		s.waitFor("fleet 9:", "Fleet from http://"+prom, targets[2])
	})
	t.Run("killed_exporter_reads_down", func(t *testing.T) {
		if err := exporters[2].Process.Kill(); err != nil {
			t.Fatal(err)
		}
		killed := time.Now()
		down := regexp.MustCompile(`QM0[123] +` + regexp.QuoteMeta(targets[2]) + ` +✖ down`)
		const allDown = "(the killed exporter's three rows read down)"
		screen := waitfor.Texts(t, time.Minute, func() string {
			screen := tui.screen()
			if len(down.FindAllString(screen, -1)) == 3 {
				return screen + allDown
			}
			return screen
		}, allDown)
		screen = strings.TrimSuffix(screen, allDown)
		took := time.Since(killed)
		t.Logf("the three rows of the killed exporter read down %s after the kill (scrape interval %s)", took.Round(10*time.Millisecond), fleetScrape)
		if took > 2*fleetScrape {
			t.Errorf("down %s after the kill, more than two scrape intervals (%s):\n%s", took, 2*fleetScrape, screen)
		}
		if !strings.Contains(screen, "✖ 3 down") {
			t.Errorf("the header does not count the three down:\n%s", screen)
		}
	})
}

// fleetStack is what the fleet's end to end runs on: three exporters, a
// Prometheus scraping them, an Alertmanager holding a silence.
type fleetStack struct {
	dir, bin, prom, am string
	targets            []string
	exporters          []*exec.Cmd
}

func startFleetStack(t *testing.T, ctx context.Context) *fleetStack {
	t.Helper()
	tools := promBinaries(t)
	st := &fleetStack{}
	st.dir, st.bin = buildForTmux(t)
	for i := range 3 {
		cmd, addr := startExporterProcess(t, st.bin, st.dir, i)
		st.exporters, st.targets = append(st.exporters, cmd), append(st.targets, addr)
	}
	st.am, st.prom = freeAddr(t), freeAddr(t)
	tools.start(t, ctx, st.dir, "alertmanager", "--config.file="+writeTemp(t, st.dir, "am.yml", "route: {receiver: none}\nreceivers: [{name: none}]\n"),
		"--storage.path="+filepath.Join(st.dir, "am-data"), "--web.listen-address="+st.am, "--cluster.listen-address=", "--log.level=warn")
	rules := writeTemp(t, st.dir, "poisonwatch-alerts.yml", shortFor(t, "docs/prometheus/poisonwatch-alerts.yml"))
	tools.start(t, ctx, st.dir, "prometheus", "--config.file="+writeTemp(t, st.dir, "prometheus.yml", prometheusConfig(fleetScrape, st.targets, st.am, rules)),
		"--storage.tsdb.path="+filepath.Join(st.dir, "tsdb"), "--web.listen-address="+st.prom, "--log.level=warn")
	api := promAPI{base: "http://" + st.prom, t: t}
	api.waitReady(ctx, "http://"+st.am)
	silence(t, "http://"+st.am, st.targets[0])
	until(ctx, t, 60*time.Second, "Prometheus scraping the three exporters", func() (bool, string) {
		n, err := api.query(`up{job="poisonwatch"} == 1`)
		return n == 3 && err == nil, fmt.Sprintf("%d up, %v", n, err)
	})
	return st
}

// startExporterProcess runs `poisonwatch exporter` on a fleet of three as
// a process of its own (the test kills one) and returns it with its
// address once it serves.
func startExporterProcess(t *testing.T, bin, dir string, i int) (*exec.Cmd, string) {
	t.Helper()
	out := &waitfor.Buffer{}
	cmd := exec.Command(bin, "exporter", "--listen", "127.0.0.1:0", "--scenario", "fleet:3x20", "--interval", "500ms")
	cmd.Env = append(os.Environ(), fmt.Sprintf("XDG_STATE_HOME=%s/exporter%d", dir, i))
	cmd.Stdout, cmd.Stderr = out, out
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	got := waitfor.Texts(t, 60*time.Second, out.String, "/metrics\n")
	u := regexp.MustCompile(`http://(\S+)/metrics`).FindStringSubmatch(got)
	if u == nil {
		t.Fatalf("exporter %d printed no address:\n%s", i, got)
	}
	return cmd, u[1]
}

// silence holds QM01's poison loop on one exporter in the Alertmanager,
// as an on-call engineer would acknowledge it.
func silence(t *testing.T, alertmanager, instance string) {
	t.Helper()
	now := time.Now().UTC()
	body, _ := json.Marshal(map[string]any{
		"matchers": []map[string]any{
			{"name": "alertname", "value": "PoisonwatchPoisonLoop", "isRegex": false, "isEqual": true},
			{"name": "qmgr", "value": "QM01", "isRegex": false, "isEqual": true},
			{"name": "instance", "value": instance, "isRegex": false, "isEqual": true},
		},
		"startsAt": now, "endsAt": now.Add(time.Hour), "createdBy": "e2e-oncall", "comment": "known loop, fix on its way"})
	resp, err := http.Post(alertmanager+"/api/v2/silences", "application/json", bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("creating the silence: %s", resp.Status)
	}
}
