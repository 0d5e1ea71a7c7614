package report

import (
	"bytes"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/poisonwatch/poisonwatch/incident/journal"

	"github.com/poisonwatch/poisonwatch/model"
)

// markup is what a recording may carry to run in a reader's browser or
// change what a Markdown report says.
const (
	script = "<script>alert(1)</script>"
	img    = "<img src=x onerror=alert(1)>"
	link   = "[click](javascript:alert(1)) ![x](http://evil/x.png) **bold** `code` # head ~~gone~~ a|b \\ &lt;b&gt;"
)

// hostileReport is a report whose every copied string is markup.
func hostileReport() *Report {
	return &Report{Source: "serve" + img, QMgrs: []string{"QM1" + script}, From: t0, To: t0.Add(time.Minute),
		Alerts: []AlertRow{{QMgr: script, Rule: link, Queue: img, Severity: img, Text: link + "\x1b]0;pwned\x07", Start: t0, Ack: model.Ack{By: img, Note: script, At: t0}}},
		Actions: []ActionRow{{journal.Act{Entry: journal.Entry{At: t0, Kind: journal.Fix, User: script, Text: link, Outcome: img,
			Files: []string{"audit ``` `x` " + script}, Steps: []journal.Step{{MQSC: script, Before: img, After: link, Applied: true}}}}}},
		People:    []Person{{User: img, Roles: []string{link}, Stints: []Stint{{Joined: t0}}}},
		Remaining: []Remaining{{QMgr: script, DeadQ: img, Reason: link, Explain: script, Dest: img, Count: 3, Oldest: t0}},
		Findings:  []Finding{{QMgr: script, Rule: link, Queue: img, Severity: "warn", Text: link, Fix: "ALTER QLOCAL(" + img + ")\n```\n" + script}},
	}
}

var (
	rawHTML  = regexp.MustCompile(`(?i)<\s*/?\s*(script|img|a|iframe|object|embed)\b|href\s*=\s*"?\s*javascript`)
	mdMarkup = regexp.MustCompile(`(^|[^\\])(\[|\*\*|~~|!\[)`)
)

// The Markdown report copies names and sentences escaped: no HTML a
// renderer would pass through, no link, image, emphasis or heading made
// by a name; code spans and blocks are fenced longer than any backtick run
// in them; and the HTML report stays script-free.
func TestMarkdownEscapesWhatItCopies(t *testing.T) {
	var b bytes.Buffer
	if err := hostileReport().Markdown(&b); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	fence := strings.Index(out, "\n  ````\n")
	for i, line := range strings.Split(out[:max(fence, 0)], "\n") {
		if strings.HasPrefix(line, "  audit: ") || strings.HasPrefix(line, "  `") {
			continue // a code span (an audit file, a change's MQSC): its text is literal
		}
		if rawHTML.MatchString(line) {
			t.Errorf("line %d: raw HTML: %s", i+1, line)
		}
		if m := mdMarkup.FindString(line); m != "" && !strings.HasPrefix(line, "- **") {
			t.Errorf("line %d: markup %q made by a name: %s", i+1, m, line)
		}
	}
	for _, want := range []string{
		"# Incident report: QM1&lt;script&gt;alert(1)&lt;/script&gt;",
		`\[click\](javascript:alert(1)) !\[x\](http://evil/x.png) \*\*bold\*\* \` + "`code\\`" + ` \# head \~\~gone\~\~ a\|b \\ &amp;lt;b&amp;gt;`,
		"audit: ```` audit ``` `x` <script>alert(1)</script> ````", // a code span: literal inside
		"\n  ````\n  ALTER QLOCAL(<img src=x onerror=alert(1)>)\n  ```\n  <script>alert(1)</script>\n  ````\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("the Markdown lacks %q:\n%s", want, out)
		}
	}
	if strings.ContainsRune(out, 0x1b) {
		t.Error("an ESC reached the Markdown")
	}
	b.Reset()
	if err := hostileReport().HTML(&b); err != nil {
		t.Fatal(err)
	}
	if m := rawHTML.FindString(b.String()); m != "" {
		t.Errorf("the HTML report holds %q", m)
	}
}
