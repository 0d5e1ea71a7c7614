package report

import (
	"flag"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/poisonwatch/poisonwatch/incident/record"
	"github.com/poisonwatch/poisonwatch/model"
)

var update = flag.Bool("update", false, "rewrite the golden reports in testdata")

func render(t *testing.T, rep *Report) (html, md string) {
	t.Helper()
	var h, m strings.Builder
	if err := rep.HTML(&h); err != nil {
		t.Fatal(err)
	}
	if err := rep.Markdown(&m); err != nil {
		t.Fatal(err)
	}
	return h.String(), m.String()
}

// The Markdown is the HTML's sections in the HTML's order, so a section
// added to one is in the other.
func TestTheFormatsKeepInStep(t *testing.T) {
	for name, rep := range map[string]*Report{
		"war room":   Build(warRoom(t), time.Time{}, time.Time{}),
		"no serve":   Build(incident(t), time.Time{}, time.Time{}),
		"empty file": {From: t0, To: t0},
	} {
		html, md := render(t, rep)
		var hs, ms []string
		for _, m := range regexp.MustCompile(`<h2>([^<]*)</h2>`).FindAllStringSubmatch(html, -1) {
			hs = append(hs, m[1])
		}
		for _, m := range regexp.MustCompile(`(?m)^## (.*)$`).FindAllStringSubmatch(md, -1) {
			ms = append(ms, m[1])
		}
		if !slices.Equal(hs, ms) || len(hs) < 5 {
			t.Errorf("%s: HTML sections %q, Markdown %q", name, hs, ms)
		}
	}
}

// The page runs nothing and fetches nothing, whatever the names in it:
// queue and queue manager names reach the charts' SVG as text.
func TestThePageIsScriptFree(t *testing.T) {
	rep := Build(warRoom(t), time.Time{}, time.Time{})
	hostile := `<script>alert(1)</script>"onload="x`
	rep.QMgrs = append(rep.QMgrs, hostile)
	rep.Series.DeadQ[Key{hostile, `<img src=x onerror=alert(1)>`}] = []Point{{T: warm, V: 1}, {T: warm.Add(time.Minute), V: 2}}
	rep.Actions[0].User = `<a href="javascript:alert(1)">me</a>`
	html, _ := render(t, rep)
	// Names are text: what matters is every tag and the style sheet.
	var markup []string
	markup = append(markup, regexp.MustCompile(`<[^>]*>`).FindAllString(html, -1)...)
	markup = append(markup, regexp.MustCompile(`(?s)<style>.*</style>`).FindString(html))
	for _, bad := range []string{`(?i)<script`, `(?i)\son\w+\s*=`, `(?i)javascript:`, `(?i)(src|href)\s*=\s*"?(https?:)?//`, `(?i)@import`,
		`(?i)<(iframe|object|embed|link|img|foreignObject|image|use)\b`, `(?i)url\(`} {
		for _, m := range markup {
			if regexp.MustCompile(bad).MatchString(m) {
				t.Errorf("the page has %s: %.120s", bad, m)
			}
		}
	}
	if !strings.Contains(html, "&lt;img src=x onerror=alert(1)&gt;</text>") {
		t.Error("the hostile name is not in the chart as text")
	}
}

// A page read away from the repository names rules by what they say, not
// by a path to docs/poison-rules.md.
func TestRulesAreNamedByTheirText(t *testing.T) {
	html, md := render(t, Build(warRoom(t), time.Time{}, time.Time{}))
	for name, out := range map[string]string{"HTML": html, "Markdown": md} {
		if strings.Contains(out, "docs/") || strings.Contains(out, "poison-rules") {
			t.Errorf("%s refers to the repository's docs", name)
		}
		for _, rule := range []string{"R8a", "R8b", "R8d"} {
			if !strings.Contains(out, model.RuleText(rule)) {
				t.Errorf("%s lacks the text of %s", name, rule)
			}
		}
	}
	if !strings.Contains(html, `<a class="rule" href="#rule-R8d">R8d</a>`) || !strings.Contains(html, `<dt id="rule-R8d">`) {
		t.Error("the alert's rule does not lead to its text")
	}
}

func TestAnActionSaysHowItEnded(t *testing.T) {
	for _, tc := range []struct {
		a    record.Action
		want string
	}{
		{record.Action{Requested: 21, Done: 21}, "all 21 messages done"},
		{record.Action{Requested: 30, Done: 28, Failed: 2}, "28 of 30 messages done, 2 failed"},
		{record.Action{Requested: 1, Done: 1}, "all 1 message done"},
		{record.Action{Requested: 1200, Done: 1000, Skipped: 3, InDoubt: 50, NotDone: 147, Stopped: "cancelled"},
			"1,000 of 1,200 messages done, 3 skipped, 50 in doubt (the unit of work's outcome is unknown), 147 not done; stopped: cancelled"},
		{record.Action{Err: "MQRC_NOT_AUTHORIZED (2035)"}, "0 messages done; error: MQRC_NOT_AUTHORIZED (2035)"},
	} {
		if got := countsOutcome(tc.a); got != tc.want {
			t.Errorf("%+v: %q, want %q", tc.a, got, tc.want)
		}
	}
	// Whoever knows more says it: the outcome given is what both formats print.
	rep := Build(warRoom(t), time.Time{}, time.Time{})
	rep.Actions[0].Outcome = "all 21 came back to the DEADQ within 2 minutes: MQRC_Q_FULL (2053) again"
	html, md := render(t, rep)
	for name, out := range map[string]string{"HTML": html, "Markdown": md} {
		if !strings.Contains(out, rep.Actions[0].Outcome) || strings.Contains(out, "all 21 messages done") {
			t.Errorf("%s does not print the outcome it was given", name)
		}
	}
}

// Outline is what `poisonwatch report` says it wrote.
func TestOutlineNamesEachSection(t *testing.T) {
	got := Build(warRoom(t), time.Time{}, time.Time{}).Outline()
	want := []string{
		"Timeline: 4 moments",
		"Alerts: started, acknowledged, cleared: 1 alert, 1 still firing at the end",
		"The queues over the incident: 4 charts, 2 gaps with no figures",
		"Operator actions: 1 act",
		"Who was in the war room: 2 people",
		"Dead letters still on the DEADQ at 21:50:02: 2,064 messages in 2 groups",
		"Configuration findings and their MQSC fixes: 2 findings",
		"What the rules cited say: 3 rules",
	}
	if !slices.Equal(got, want) {
		t.Errorf("outline\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// The war room's report in Markdown, as a reader gets it (go test
// ./incident/report -update rewrites it).
func TestWarRoomMarkdownGolden(t *testing.T) {
	_, md := render(t, Build(warRoom(t), time.Time{}, time.Time{}))
	p := filepath.Join("testdata", "warroom.md")
	if *update {
		if err := os.WriteFile(p, []byte(md), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(p)
	if err != nil {
		t.Fatalf("%v (go test ./incident/report -update writes it)", err)
	}
	if string(want) != md {
		t.Errorf("the report differs from %s (go test ./incident/report -update to accept):\n%s", p, md)
	}
}
