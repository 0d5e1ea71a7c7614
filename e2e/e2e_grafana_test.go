//go:build linux

package e2e

import (
	"encoding/json"
	"os"
	"strings"
	"testing"
	"time"
)

// grafanaDashboard is the part of a Grafana dashboard's JSON model the test
// reads: its panels (rows hold panels of their own when collapsed) and
// template variables.
type grafanaDashboard struct {
	Title      string         `json:"title"`
	UID        string         `json:"uid"`
	Panels     []grafanaPanel `json:"panels"`
	Templating struct {
		List []struct {
			Name  string `json:"name"`
			Type  string `json:"type"`
			Query any    `json:"query"`
		} `json:"list"`
	} `json:"templating"`
}

type grafanaPanel struct {
	Title   string `json:"title"`
	Type    string `json:"type"`
	Targets []struct {
		Expr string `json:"expr"`
	} `json:"targets"`
	Panels []grafanaPanel `json:"panels"`
}

// grafanaVars stands in for Grafana's variables: every queue manager, and
// a rate window of a few of the test's one-second scrapes.
var grafanaVars = strings.NewReplacer("${qmgr}", ".*", "$qmgr", ".*", "$__rate_interval", "10s", "$__interval", "2s")

// checkGrafanaDashboard parses the dashboard and asks Prometheus every
// PromQL expression in it: each must return data on the demo.
func checkGrafanaDashboard(t *testing.T, api promAPI, path string) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var d grafanaDashboard
	dec := json.NewDecoder(strings.NewReader(string(b)))
	if err := dec.Decode(&d); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	if d.Title == "" || d.UID == "" {
		t.Errorf("%s: title %q uid %q: a dashboard needs both to be imported and linked", path, d.Title, d.UID)
	}
	var exprs []string
	var walk func([]grafanaPanel)
	walk = func(ps []grafanaPanel) {
		for _, p := range ps {
			if p.Type != "row" && len(p.Targets) == 0 {
				t.Errorf("panel %q has no query", p.Title)
			}
			for _, tg := range p.Targets {
				if tg.Expr == "" {
					t.Errorf("panel %q has a target without an expression", p.Title)
				}
				exprs = append(exprs, tg.Expr)
			}
			walk(p.Panels)
		}
	}
	walk(d.Panels)
	if len(exprs) < 10 {
		t.Fatalf("%s: %d expressions; the dashboard has lost its panels", path, len(exprs))
	}
	for _, v := range d.Templating.List {
		if v.Type == "query" {
			checkLabelValues(t, api, v.Name, v.Query)
		}
	}
	for _, e := range exprs {
		q := grafanaVars.Replace(e)
		if strings.Contains(q, "$") {
			t.Errorf("%s: a variable the test does not know", e)
			continue
		}
		// A rate needs two scrapes in its window: give the window time to fill.
		var n int
		var err error
		for deadline := time.Now().Add(15 * time.Second); ; time.Sleep(500 * time.Millisecond) {
			if n, err = api.query(q); (err == nil && n > 0) || time.Now().After(deadline) {
				break
			}
		}
		if err != nil || n == 0 {
			t.Errorf("%s\n  returns no data from Prometheus on the demo (%v)", e, err)
		}
	}
}

// checkLabelValues checks a label_values(metric, label) variable: the
// label has values on the metric.
func checkLabelValues(t *testing.T, api promAPI, name string, query any) {
	t.Helper()
	var text string
	switch q := query.(type) {
	case string:
		text = q
	case map[string]any:
		text, _ = q["query"].(string)
	}
	inner, ok := strings.CutPrefix(strings.TrimSpace(text), "label_values(")
	metric, label, ok2 := strings.Cut(strings.TrimSuffix(inner, ")"), ",")
	if !ok || !ok2 {
		t.Errorf("variable %s: %q is not label_values(metric, label)", name, text)
		return
	}
	var values []string
	if err := api.get("/api/v1/label/"+strings.TrimSpace(label)+"/values", map[string][]string{"match[]": {strings.TrimSpace(metric)}}, &values); err != nil || len(values) == 0 {
		t.Errorf("variable %s: %s has no values (%v)", name, text, err)
	}
}
