package exporter

import (
	"strings"
	"testing"

	dto "github.com/prometheus/client_model/go"

	"github.com/poisonwatch/poisonwatch/backend/embedded"
)

// TestMetricNamesFollowPrometheusConventions checks what promtool check
// metrics checks, without promtool (TestPrometheusEndToEnd runs the real
// one): counters end in _total, and nothing else does; no gauge ends in a
// histogram's or a summary's suffix (_count, _sum, _bucket); every family
// has a help text.
func TestMetricNamesFollowPrometheusConventions(t *testing.T) {
	e := newEnv(t, Config{}, fillTrouble)
	e.qm.Faults().Add(embedded.Fault{Break: true})
	e.poll(t) // a failed poll: the by-reason counter is served too
	e.qm.Faults().Clear()
	e.poll(t)
	fams := e.scrape(t)
	seen := 0
	for name, f := range fams {
		if !strings.HasPrefix(name, "poisonwatch_") {
			continue
		}
		seen++
		if _, ok := served[name]; !ok {
			t.Errorf("%s is served but not listed", name)
		}
		if f.GetHelp() == "" {
			t.Errorf("%s has no help", name)
		}
		counter := f.GetType() == dto.MetricType_COUNTER
		if counter != strings.HasSuffix(name, "_total") {
			t.Errorf("%s: type %v; counters, and only they, end in _total", name, f.GetType())
		}
		for _, suffix := range []string{"_count", "_sum", "_bucket"} {
			if strings.HasSuffix(name, suffix) {
				t.Errorf("%s ends in %s, a histogram's or a summary's suffix", name, suffix)
			}
		}
	}
	if seen < 20 {
		t.Errorf("%d poisonwatch families served, want the exporter's 20 and more", seen)
	}
}
