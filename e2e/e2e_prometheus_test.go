//go:build linux

package e2e

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/poisonwatch/poisonwatch/cli"
	"github.com/poisonwatch/poisonwatch/internal/waitfor"
)

// The Prometheus end to end: the exporter on the demo, scraped by a real
// Prometheus that evaluates docs/prometheus/poisonwatch-alerts.yml and sends
// what fires to a real Alertmanager, which posts it to a webhook in this
// test. promtool checks the rules, runs their unit tests and lints a scrape;
// every PromQL expression of the Grafana dashboard must return data.
//
// Everything listens on the loopback, lives in temporary directories and is
// killed when the test ends (or when the test binary dies: Pdeathsig). The
// intervals are a second and the rules' `for:` two seconds, so the demo's
// alerts fire within seconds; promLag bounds how long after the scrape.
func TestPrometheusEndToEnd(t *testing.T) {
	t.Parallel()
	bin := promBinaries(t)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	dir := t.TempDir()

	t.Run("promtool_check_rules", func(t *testing.T) {
		bin.run(t, nil, "promtool", "check", "rules", "docs/prometheus/poisonwatch-alerts.yml")
	})
	t.Run("promtool_test_rules", func(t *testing.T) {
		bin.run(t, nil, "promtool", "test", "rules", "docs/prometheus/poisonwatch-alerts.test.yml")
	})

	exporterURL := startDemoExporter(t, ctx)
	t.Run("promtool_check_metrics", func(t *testing.T) {
		resp, err := http.Get(exporterURL)
		if err != nil {
			t.Fatal(err)
		}
		body, err := io.ReadAll(resp.Body)
		resp.Body.Close()
		if err != nil {
			t.Fatal(err)
		}
		if out := bin.run(t, body, "promtool", "check", "metrics"); out != "" {
			t.Errorf("promtool check metrics on a scrape:\n%s", out)
		}
	})

	hook := newWebhook()
	srv := httptest.NewServer(hook)
	defer srv.Close()
	am := freeAddr(t)
	bin.start(t, ctx, dir, "alertmanager", "--config.file="+writeTemp(t, dir, "alertmanager.yml", alertmanagerConfig(srv.URL)),
		"--storage.path="+filepath.Join(dir, "am-data"), "--web.listen-address="+am,
		"--cluster.listen-address=", "--log.level=warn")
	prom := freeAddr(t)
	rules := writeTemp(t, dir, "poisonwatch-alerts.yml", shortFor(t, "docs/prometheus/poisonwatch-alerts.yml"))
	exporterAddr := strings.TrimSuffix(strings.TrimPrefix(exporterURL, "http://"), "/metrics")
	bin.start(t, ctx, dir, "prometheus", "--config.file="+writeTemp(t, dir, "prometheus.yml", prometheusConfig(time.Second, []string{exporterAddr}, am, rules)),
		"--storage.tsdb.path="+filepath.Join(dir, "tsdb"), "--web.listen-address="+prom, "--log.level=warn")
	api := promAPI{base: "http://" + prom, t: t}
	api.waitReady(ctx, "http://"+am)
	ready := time.Now()
	// Prometheus applies its targets a few seconds after it is ready: the
	// clock of the alerts starts at its first scrape.
	scraped := api.firstScrape(ctx)
	t.Logf("first scrape %s after Prometheus was ready", scraped.Sub(ready).Round(10*time.Millisecond))

	t.Run("alerts_fire", func(t *testing.T) {
		active := api.waitAlerts(ctx, promExpect, 60*time.Second)
		t.Logf("the demo's alerts all fired %s after Prometheus was ready", time.Since(ready).Round(100*time.Millisecond))
		// A dashboard alert has no `for`: it is active from the first
		// evaluation after the first scrape that carried its series. The
		// trend rules wait their (shortened) `for` after two scrapes give
		// a rate.
		for _, e := range promExpect {
			t.Logf("%s: active %s after Prometheus was ready", e.key(), active[e.key()].Sub(ready).Round(10*time.Millisecond))
			if e.labels["rule"] == "" {
				continue // not a dashboard alert
			}
			// The demo's alerts may flap (a loop's head changes), and each
			// return is a new activation: what must hold is that the alert
			// fired within promLag of its series' first scrape.
			sel := fmt.Sprintf(`qmgr=%q,queue=%q,rule=%q,severity=%q`, e.labels["qmgr"], e.labels["queue"], e.labels["rule"], e.labels["severity"])
			first := api.firstSample("poisonwatch_alert{" + sel + "}")
			fired := fmt.Sprintf(`max_over_time(ALERTS{alertname=%q,alertstate="firing",%s}[%ds])`, e.labels["alertname"], sel, int(promLag/time.Second))
			if !api.presentAt(fired, first.Add(promLag)) {
				t.Errorf("%s: not firing within %s of its series' first scrape (%s)", e.key(), promLag, first.Format(time.TimeOnly))
			}
		}
	})
	t.Run("alertmanager_delivers", func(t *testing.T) {
		got := hook.wait(ctx, t, promExpect, 30*time.Second)
		t.Logf("the webhook had them %s after Prometheus was ready", time.Since(ready).Round(100*time.Millisecond))
		for _, e := range promExpect {
			a := got[e.key()]
			for k, v := range e.labels {
				if a.Labels[k] != v {
					t.Errorf("%s: label %s = %q, want %q", e.key(), k, a.Labels[k], v)
				}
			}
			if e.labels["job"] != "" && a.Labels["instance"] != exporterAddr {
				t.Errorf("%s: instance %q, want the exporter's %s", e.key(), a.Labels["instance"], exporterAddr)
			}
			for k, re := range e.annotations {
				if !regexp.MustCompile(re).MatchString(a.Annotations[k]) {
					t.Errorf("%s: annotation %s = %q, want %s", e.key(), k, a.Annotations[k], re)
				}
			}
		}
	})
	t.Run("grafana_dashboard", func(t *testing.T) {
		checkGrafanaDashboard(t, api, "docs/grafana/poisonwatch.json")
	})
}

// promAlert is an alert the demo must fire, with the labels and the
// annotations (regular expressions) it must carry.
type promAlert struct {
	labels      map[string]string
	annotations map[string]string
}

func (a promAlert) key() string {
	return a.labels["alertname"] + "/" + a.labels["qmgr"] + "/" + a.labels["queue"] + "/" + a.labels["severity"]
}

// promExpect: the demo's loop (R1c on ORDERS.IN, critical once its head was
// rolled back 10 times), its full backout queue (R8b on ORDERS.BO), the
// poison PAYMENTS.IN cannot move (R8c), and QM2's growing DEADQ (R8d from
// the dashboard, the burst rule from the trends).
var promExpect = []promAlert{
	{map[string]string{"alertname": "PoisonwatchPoisonLoop", "qmgr": "QM1", "queue": "ORDERS.IN", "rule": "R1c", "severity": "critical", "job": "poisonwatch"},
		map[string]string{"summary": `^ORDERS\.IN on QM1: BOTHRESH 0 \(R1c\)$`, "runbook": `^docs/poison-rules\.md \(R1c\)$`,
			"description": `^BOTHRESH 0: poison handling is off`}},
	{map[string]string{"alertname": "PoisonwatchBackoutQueue", "qmgr": "QM1", "queue": "ORDERS.BO", "rule": "R8b", "severity": "critical", "job": "poisonwatch"},
		map[string]string{"summary": `^ORDERS\.BO on QM1: a backout queue cannot take poison \(R8b\)$`}},
	{map[string]string{"alertname": "PoisonwatchStuckPoison", "qmgr": "QM1", "queue": "PAYMENTS.IN", "rule": "R8c", "severity": "critical", "job": "poisonwatch"},
		map[string]string{"summary": `^PAYMENTS\.IN on QM1: stuck poison \(R8c\)$`}},
	{map[string]string{"alertname": "PoisonwatchDeadLettersGrowing", "qmgr": "QM2", "queue": "QM2.DEAD.LETTER.QUEUE", "rule": "R8d", "severity": "warning", "job": "poisonwatch"},
		map[string]string{"summary": `^QM2\.DEAD\.LETTER\.QUEUE on QM2: growing \(R8d\)$`}},
	{map[string]string{"alertname": "PoisonwatchDeadLetterBurst", "qmgr": "QM2", "queue": "QM2.DEAD.LETTER.QUEUE", "severity": "warning"},
		map[string]string{"summary": `^QM2: [0-9.]+k? dead letters a second for 10 minutes$`}},
}

// promLag bounds the time from the first scrape that carries a dashboard
// alert's series to Prometheus firing the alert: an evaluation interval (a
// second) and slack for a loaded 2-core machine.
const promLag = 4 * time.Second

// promTools are the binaries of Debian's prometheus and
// prometheus-alertmanager packages (.ci/run installs them).
type promTools map[string]string

func promBinaries(t *testing.T) promTools {
	t.Helper()
	bin := promTools{}
	for name, candidates := range map[string][]string{"prometheus": {"prometheus"}, "promtool": {"promtool"},
		"alertmanager": {"prometheus-alertmanager", "alertmanager"}} {
		for _, c := range candidates {
			if p, err := exec.LookPath(c); err == nil {
				bin[name] = p
				break
			}
		}
		if bin[name] == "" {
			why := fmt.Sprintf("%s is not installed (Debian: apt-get install prometheus prometheus-alertmanager; .ci/run does)", candidates[0])
			if os.Getenv("POISONWATCH_PROMETHEUS") == "required" {
				t.Fatal(why)
			}
			t.Skip(why)
		}
	}
	return bin
}

// run runs a tool to its end, with stdin, and returns what it printed; a
// failure fails the test.
func (b promTools) run(t *testing.T, stdin []byte, tool string, args ...string) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, b[tool], args...)
	if stdin != nil {
		cmd.Stdin = strings.NewReader(string(stdin))
	}
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%s %s: %v\n%s", tool, strings.Join(args, " "), err, out)
	}
	if stdin == nil {
		return string(out)
	}
	return strings.TrimSpace(string(out))
}

// start runs a server until the test ends; its log is shown if the test
// fails.
func (b promTools) start(t *testing.T, ctx context.Context, dir, tool string, args ...string) {
	t.Helper()
	logPath := filepath.Join(dir, tool+".log")
	log, err := os.Create(logPath)
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.CommandContext(ctx, b[tool], args...)
	cmd.Dir, cmd.Stdout, cmd.Stderr = dir, log, log
	// Killed with the test binary, whatever ends it.
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
	cmd.Cancel = func() error { return cmd.Process.Signal(syscall.SIGTERM) }
	cmd.WaitDelay = 5 * time.Second
	if err := cmd.Start(); err != nil {
		t.Fatalf("start %s: %v", tool, err)
	}
	done := make(chan struct{})
	go func() { cmd.Wait(); log.Close(); close(done) }()
	t.Cleanup(func() {
		cmd.Process.Signal(syscall.SIGTERM)
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			cmd.Process.Kill()
			<-done
		}
		if t.Failed() {
			b, _ := os.ReadFile(logPath)
			t.Logf("%s log:\n%s", tool, b)
		}
	})
}

// startDemoExporter runs `poisonwatch exporter` on the demo in this process
// and returns its /metrics URL once the demo's incident shows in it.
func startDemoExporter(t *testing.T, ctx context.Context) string {
	t.Helper()
	ctx, cancel := context.WithCancel(ctx)
	var out, errOut waitfor.Buffer
	code := make(chan int, 1)
	go func() {
		code <- cli.Run(ctx, []string{"exporter", "--listen", "127.0.0.1:0", "--interval", "500ms"}, &out, &errOut)
	}()
	t.Cleanup(func() {
		cancel()
		select {
		case c := <-code:
			if c != 0 {
				t.Errorf("exporter: exit %d\n%s", c, errOut.String())
			}
		case <-time.After(15 * time.Second):
			t.Error("the exporter did not stop within 15s")
		}
	})
	got := waitfor.Texts(t, 30*time.Second, out.String, "/metrics\n")
	return regexp.MustCompile(`http://\S+/metrics`).FindString(got)
}

func writeTemp(t *testing.T, dir, name, text string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

// shortFor is the rules file with every `for:` at two seconds: the rules
// are the documented ones, only their patience is cut to the test's time.
func shortFor(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return regexp.MustCompile(`(?m)^(\s+for:\s*)\S+`).ReplaceAllString(string(b), "${1}2s")
}

// prometheusConfig scrapes targets every scrape, evaluates rules every
// second and sends alerts to alertmanager.
func prometheusConfig(scrape time.Duration, targets []string, alertmanager, rules string) string {
	return fmt.Sprintf(`global:
  scrape_interval: %s
  scrape_timeout: 1s
  evaluation_interval: 1s
rule_files: [%q]
alerting:
  alertmanagers:
    - static_configs:
        - targets: [%q]
scrape_configs:
  - job_name: poisonwatch
    static_configs:
      - targets: ["%s"]
`, scrape, rules, alertmanager, strings.Join(targets, `", "`))
}

func alertmanagerConfig(webhook string) string {
	return fmt.Sprintf(`route:
  receiver: test
  group_by: [alertname, qmgr, queue]
  group_wait: 1s
  group_interval: 1s
  repeat_interval: 1h
receivers:
  - name: test
    webhook_configs:
      - url: %q
        send_resolved: false
`, webhook+"/hook")
}

// until polls cond every 200ms until it holds; past limit the test fails
// with the last thing cond said.
func until(ctx context.Context, t *testing.T, limit time.Duration, what string, cond func() (bool, string)) {
	t.Helper()
	deadline := time.Now().Add(limit)
	for {
		ok, why := cond()
		if ok {
			return
		}
		if time.Now().After(deadline) || ctx.Err() != nil {
			t.Fatalf("%s: not within %s: %s", what, limit, why)
		}
		time.Sleep(200 * time.Millisecond)
	}
}
