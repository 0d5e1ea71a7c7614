package exporter

import (
	"bytes"
	"fmt"
	"os"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"

	pmodel "github.com/prometheus/common/model"
	"go.yaml.in/yaml/v3"

	"github.com/poisonwatch/poisonwatch/model"
)

const rulesFile = "../docs/prometheus/poisonwatch-alerts.yml"

// ruleFile is Prometheus's rule file format, alerting rules only.
type ruleFile struct {
	Groups []struct {
		Name  string `yaml:"name"`
		Rules []struct {
			Alert       string            `yaml:"alert"`
			Expr        string            `yaml:"expr"`
			For         string            `yaml:"for"`
			Labels      map[string]string `yaml:"labels"`
			Annotations map[string]string `yaml:"annotations"`
		} `yaml:"rules"`
	} `yaml:"groups"`
}

func loadRules(t *testing.T) ruleFile {
	t.Helper()
	b, err := os.ReadFile(rulesFile)
	if err != nil {
		t.Fatal(err)
	}
	dec := yaml.NewDecoder(bytes.NewReader(b))
	dec.KnownFields(true) // a misspelt key is an error, as promtool makes it
	var f ruleFile
	if err := dec.Decode(&f); err != nil {
		t.Fatalf("%s: %v", rulesFile, err)
	}
	if len(f.Groups) == 0 {
		t.Fatalf("%s has no groups", rulesFile)
	}
	return f
}

var (
	quoted    = regexp.MustCompile(`"(?:[^"\\]|\\.)*"`)
	ident     = regexp.MustCompile(`[a-zA-Z_:][a-zA-Z0-9_:]*`)
	selector  = regexp.MustCompile(`([a-zA-Z_:][a-zA-Z0-9_:]*)\s*\{([^}]*)\}`)
	matcher   = regexp.MustCompile(`([a-zA-Z_][a-zA-Z0-9_]*)\s*(=~|!~|!=|=)\s*"([^"]*)"`)
	grouping  = regexp.MustCompile(`\b(?:by|without|on|ignoring|group_left|group_right)\s*\(([^)]*)\)`)
	labelRef  = regexp.MustCompile(`\$labels\.([a-zA-Z_][a-zA-Z0-9_]*)`)
	severties = []string{"critical", "warning", "info"}
	// Labels Prometheus adds to every target's series.
	targetLabels = []string{"job", "instance"}
)

// TestRulesFile: the example rules are valid YAML in Prometheus's format,
// and every metric, label and rule number they name is one the exporter
// serves or the dashboard cites.
func TestRulesFile(t *testing.T) {
	f := loadRules(t)
	all := slices.Clone(targetLabels)
	for _, ls := range served {
		all = append(all, ls...)
	}
	names := map[string]bool{}
	for _, g := range f.Groups {
		for _, r := range g.Rules {
			t.Run(r.Alert, func(t *testing.T) {
				if !regexp.MustCompile(`^Poisonwatch[A-Z][A-Za-z]+$`).MatchString(r.Alert) || names[r.Alert] {
					t.Errorf("alert name %q: want a unique Poisonwatch... name", r.Alert)
				}
				names[r.Alert] = true
				if r.For != "" {
					if _, err := pmodel.ParseDuration(r.For); err != nil {
						t.Errorf("for: %v", err)
					}
				}
				checkExpr(t, r.Expr, all)
				sev, ok := r.Labels["severity"]
				switch {
				case ok && !slices.Contains(severties, sev):
					t.Errorf("severity %q: want one of %v", sev, severties)
				case !ok && !strings.Contains(r.Expr, "poisonwatch_alert{"):
					t.Errorf("no severity label, and the expression does not carry the dashboard's")
				}
				for _, text := range r.Annotations {
					for _, m := range labelRef.FindAllStringSubmatch(text, -1) {
						if !slices.Contains(all, m[1]) {
							t.Errorf("annotation uses $labels.%s, which no series has", m[1])
						}
					}
				}
				if r.Annotations["summary"] == "" {
					t.Error("no summary")
				}
			})
		}
	}
}

// checkExpr checks the parts of a PromQL expression that can name what
// the exporter does not serve: metric names, label matchers and grouping
// labels. The rest is Prometheus's syntax, checked only for balance.
func checkExpr(t *testing.T, expr string, labels []string) {
	t.Helper()
	bare := quoted.ReplaceAllString(expr, `""`)
	if strings.Count(bare, "(") != strings.Count(bare, ")") || strings.Count(bare, "{") != strings.Count(bare, "}") ||
		strings.Count(expr, `"`)%2 != 0 {
		t.Errorf("unbalanced expression: %s", expr)
	}
	uses := 0
	for _, id := range ident.FindAllString(bare, -1) {
		if strings.HasPrefix(id, "poisonwatch_") {
			uses++
			if _, ok := served[id]; !ok {
				t.Errorf("%s is not a metric the exporter serves", id)
			}
		}
	}
	if uses == 0 && !strings.HasPrefix(expr, "up{") {
		t.Errorf("uses no poisonwatch metric: %s", expr)
	}
	for _, s := range selector.FindAllStringSubmatch(expr, -1) {
		have := served[s[1]]
		if s[1] == "up" {
			have = targetLabels
		}
		for _, m := range matcher.FindAllStringSubmatch(s[2], -1) {
			if !slices.Contains(have, m[1]) {
				t.Errorf("%s has no label %q", s[1], m[1])
			}
			if m[1] == "rule" && m[3] != "" {
				for _, r := range strings.Split(m[3], "|") {
					if model.RuleText(r) == "" {
						t.Errorf("rule %q is not one the dashboard's alerts cite", r)
					}
				}
			}
		}
	}
	for _, g := range grouping.FindAllStringSubmatch(bare, -1) {
		for _, l := range strings.Split(g[1], ",") {
			if l = strings.TrimSpace(l); l != "" && !slices.Contains(labels, l) {
				t.Errorf("groups by %q, which no series has", l)
			}
		}
	}
}

// Every rule number the dashboard's alerts cite has an alert of its own in
// the dashboard group, and the catch-all leaves out exactly those, so no
// dashboard alert fires twice or never.
func TestRulesFileCoversTheDashboard(t *testing.T) {
	f := loadRules(t)
	var cited []string
	for r := 1; r <= 10; r++ {
		for c := 'a'; c <= 'z'; c++ {
			if id := fmt.Sprintf("R%d%c", r, c); model.RuleText(id) != "" {
				cited = append(cited, id)
			}
		}
	}
	own := map[string]int{}
	var excluded []string
	for _, g := range f.Groups {
		if g.Name != "poisonwatch-dashboard" {
			continue
		}
		for _, r := range g.Rules {
			for _, m := range matcher.FindAllStringSubmatch(r.Expr, -1) {
				switch {
				case m[1] == "rule" && m[2] == "=":
					own[m[3]]++
				case m[1] == "rule" && m[2] == "!~":
					excluded = strings.Split(m[3], "|")
				}
			}
		}
	}
	for _, id := range cited {
		if own[id] != 1 {
			t.Errorf("rule %s: %d alerts of its own in poisonwatch-dashboard, want 1", id, own[id])
		}
	}
	sort.Strings(excluded)
	sort.Strings(cited)
	if fmt.Sprint(excluded) != fmt.Sprint(cited) {
		t.Errorf("the catch-all leaves out %v; the rules with alerts of their own are %v", excluded, cited)
	}
}
