package cli

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	dto "github.com/prometheus/client_model/go"
	"github.com/prometheus/common/expfmt"
	pmodel "github.com/prometheus/common/model"

	"github.com/poisonwatch/poisonwatch/internal/waitfor"
)

// The exporter on the built-in demo: every queue manager connected, the
// demo's incidents as alerts and figures, a clean stop on interrupt.
func TestExporterOnTheDemo(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var out, errOut waitfor.Buffer
	code := make(chan int, 1)
	go func() {
		code <- Run(ctx, []string{"exporter", "--listen", "127.0.0.1:0", "--interval", "250ms", "--max-destinations", "3"}, &out, &errOut)
	}()
	got := waitfor.Texts(t, 20*time.Second, out.String, "/metrics\n", "watching QM1, QM2, QM3 every 250ms")
	url := regexp.MustCompile(`http://\S+/metrics`).FindString(got)
	var fams map[string]*dto.MetricFamily
	deadline := time.Now().Add(30 * time.Second)
	for {
		fams = scrapeMetrics(t, url)
		// ORDERS.BO fills during the demo's warm-up: then its alert shows.
		// The loops reach BOTHRESH later on a busy machine: wait for all three.
		al := alertsOf(fams, "QM1")
		// QM2's DEADQ is read on QM2's own poll: wait for it too.
		if al["R8b/ORDERS.BO/critical"] && al["R1c/ORDERS.IN/critical"] && al["R8c/PAYMENTS.IN/critical"] &&
			len(metricValues(fams, "poisonwatch_qmgr_connected", "qmgr")) == 3 &&
			metricValues(fams, "poisonwatch_deadq_messages_by_reason", "qmgr", "reason_name")["QM2/MQRC_UNKNOWN_OBJECT_NAME"] > 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the demo's incidents never showed: alerts %v", alertsOf(fams, "QM1"))
		}
		time.Sleep(100 * time.Millisecond)
	}
	for qm, v := range metricValues(fams, "poisonwatch_qmgr_connected", "qmgr") {
		if v != 1 {
			t.Errorf("%s connected = %v", qm, v)
		}
	}
	depth := metricValues(fams, "poisonwatch_queue_depth_messages", "qmgr", "queue")
	maxDepth := metricValues(fams, "poisonwatch_queue_max_depth_messages", "qmgr", "queue")
	if d := depth["QM1/ORDERS.BO"]; d == 0 || d != maxDepth["QM1/ORDERS.BO"] {
		t.Errorf("ORDERS.BO is full in the demo: depth %v, MAXDEPTH %v", d, maxDepth["QM1/ORDERS.BO"])
	}
	for _, k := range []string{"R1c/ORDERS.IN/critical", "R8c/PAYMENTS.IN/critical"} {
		if !alertsOf(fams, "QM1")[k] {
			t.Errorf("QM1 lacks the demo's alert %s: %v", k, alertsOf(fams, "QM1"))
		}
	}
	reasons := metricValues(fams, "poisonwatch_deadq_messages_by_reason", "qmgr", "reason_name")
	if reasons["QM2/MQRC_UNKNOWN_OBJECT_NAME"] == 0 {
		t.Errorf("QM2's DEADQ holds 2085s in the demo: %v", reasons)
	}
	dests := metricValues(fams, "poisonwatch_deadq_messages_by_destination", "qmgr", "destination")
	n := 0
	for k := range dests {
		if strings.HasPrefix(k, "QM2/") {
			n++
		}
	}
	if n > 4 {
		t.Errorf("--max-destinations 3 gives QM2 at most 3 destinations and (other): %v", dests)
	}
	cancel()
	select {
	case c := <-code:
		if c != 0 || !strings.Contains(out.String(), "poisonwatch exporter: stopped") {
			t.Errorf("exit %d\n%s%s", c, out.String(), errOut.String())
		}
	case <-time.After(15 * time.Second):
		t.Fatal("the exporter did not stop within 15s of the interrupt")
	}
}

func TestExporterUsage(t *testing.T) {
	busy, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer busy.Close()
	tests := []struct {
		name string
		args []string
		code int
		want string
	}{
		{"interval_too_short", []string{"--interval", "10ms"}, 2, "--interval 10ms: the poll interval must be at least 250ms"},
		{"no_destinations", []string{"--max-destinations", "0"}, 2, "--max-destinations 0: want 1 to 1000"},
		{"too_many_reasons", []string{"--max-reasons", "5000"}, 2, "--max-reasons 5000: want 1 to 1000"},
		{"no_queues", []string{"--max-queues", "0"}, 2, "--max-queues 0: want 1 to 20000 queues per queue manager"},
		{"too_many_queues", []string{"--max-queues", "20001"}, 2, "--max-queues 20001: want 1 to 20000 queues per queue manager"},
		{"port_taken", []string{"--listen", busy.Addr().String()}, 1, "address already in use"},
		{"unknown_flag", []string{"--theme", "dark"}, 2, "flag provided but not defined: -theme"},
		{"deadline_too_short", []string{"--deadline", "100ms"}, 2, "--deadline 100ms: at least 1s"},
		{"qmgr_not_in_the_fleet", []string{"--scenario", "fleet:2x20", "--qmgrs", qmgrsFile(t, "QM09")}, 1, "QM09 not among the embedded queue managers (QM01 ... QM02)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, errOut, code := runCLI(append([]string{"exporter"}, tt.args...)...)
			if code != tt.code || !strings.Contains(errOut, tt.want) {
				t.Errorf("exit %d, want %d; stderr %q should say %q", code, tt.code, errOut, tt.want)
			}
		})
	}
}

func scrapeMetrics(t *testing.T, url string) map[string]*dto.MetricFamily {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	p := expfmt.NewTextParser(pmodel.UTF8Validation)
	fams, err := p.TextToMetricFamilies(resp.Body)
	if err != nil {
		t.Fatalf("parse %s: %v", url, err)
	}
	return fams
}

// metricValues keys a family's samples by the values of the labels named.
func metricValues(fams map[string]*dto.MetricFamily, name string, labels ...string) map[string]float64 {
	out := map[string]float64{}
	for _, m := range fams[name].GetMetric() {
		var key []string
		for _, l := range labels {
			for _, lp := range m.GetLabel() {
				if lp.GetName() == l {
					key = append(key, lp.GetValue())
				}
			}
		}
		out[strings.Join(key, "/")] = m.GetGauge().GetValue() + m.GetCounter().GetValue()
	}
	return out
}

// alertsOf lists a queue manager's alerts as rule/queue/severity.
func alertsOf(fams map[string]*dto.MetricFamily, qmgr string) map[string]bool {
	out := map[string]bool{}
	for k, v := range metricValues(fams, "poisonwatch_alert", "qmgr", "rule", "queue", "severity") {
		if rest, ok := strings.CutPrefix(k, qmgr+"/"); ok && v > 0 {
			out[rest] = true
		}
	}
	return out
}

// qmgrsFile writes a --qmgrs file naming the queue managers.
func qmgrsFile(t *testing.T, names ...string) string {
	t.Helper()
	var b strings.Builder
	for _, n := range names {
		fmt.Fprintf(&b, "[[qmgr]]\nname = %q\n", n)
	}
	p := filepath.Join(t.TempDir(), "qmgrs.toml")
	if err := os.WriteFile(p, []byte(b.String()), 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}
