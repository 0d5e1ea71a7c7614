package exporter

import (
	"encoding/json"
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"
)

const grafanaFile = "../docs/grafana/poisonwatch.json"

// TestGrafanaDashboard: the dashboard is JSON Grafana imports, and every
// expression in it names metrics and labels the exporter serves. (That each
// returns data is checked against a real Prometheus on the demo:
// TestPrometheusEndToEnd in the repository root.)
func TestGrafanaDashboard(t *testing.T) {
	b, err := os.ReadFile(grafanaFile)
	if err != nil {
		t.Fatal(err)
	}
	var d any
	if err := json.Unmarshal(b, &d); err != nil {
		t.Fatalf("%s: %v", grafanaFile, err)
	}
	var exprs []string
	var walk func(any)
	walk = func(v any) {
		switch v := v.(type) {
		case map[string]any:
			for k, x := range v {
				if s, ok := x.(string); ok && k == "expr" {
					exprs = append(exprs, s)
				}
				walk(x)
			}
		case []any:
			for _, x := range v {
				walk(x)
			}
		}
	}
	walk(d)
	if len(exprs) < 10 {
		t.Fatalf("%d expressions: the dashboard has lost its panels", len(exprs))
	}
	all := slices.Clone(targetLabels)
	for _, ls := range served {
		all = append(all, ls...)
	}
	vars := regexp.MustCompile(`\$\{?[a-z_]+\}?`)
	for _, e := range exprs {
		checkExpr(t, vars.ReplaceAllStringFunc(e, func(v string) string {
			if strings.Contains(v, "interval") {
				return "1m"
			}
			return ".*"
		}), all)
	}
}
