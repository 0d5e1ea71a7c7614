package e2e

import (
	"bytes"
	"context"
	"regexp"
	"strings"
	"testing"

	"github.com/poisonwatch/poisonwatch/backend/embedded/embeddedtest"
	"github.com/poisonwatch/poisonwatch/cli"
	"github.com/poisonwatch/poisonwatch/internal/doctext"
)

// The documentation's MQSC example (The embedded queue manager) must run on
// the embedded queue manager as shown.
func TestReadmeMQSCExampleRuns(t *testing.T) {
	doc, err := doctext.All(".")
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile("(?s)```mqsc\n(.*?)```").FindStringSubmatch(doc)
	if m == nil {
		t.Fatal("README has no mqsc example")
	}
	// A command of the example that fails fails the test, naming its line.
	embeddedtest.New(t, embeddedtest.Options{Name: "QM1", MQSC: m[1]})
}

// TestActionsDocExamples runs every action command the documentation shows, in order, and
// checks the output lines it documents (times and paths aside), so the
// examples keep working on a fresh checkout.
func TestActionsDocExamples(t *testing.T) {
	doc := readmeSection(t, "## Operator actions")
	tmp := t.TempDir()
	t.Setenv("XDG_STATE_HOME", tmp)
	d := regexp.MustCompile(`(?m)^D="(.*)"$`).FindStringSubmatch(doc)
	if d == nil {
		t.Fatal("the README defines no D=")
	}
	var cmd []string
	var want []string
	ran := 0
	flush := func() {
		if cmd == nil {
			return
		}
		ran++
		var out, errb bytes.Buffer
		code := cli.Run(context.Background(), cmd, &out, &errb)
		if code != cli.ExitDone && code != cli.ExitPartial {
			t.Errorf("%v: exit %d\n%s%s", cmd, code, out.String(), errb.String())
		}
		for _, w := range want {
			if !strings.Contains(out.String(), w) {
				t.Errorf("%v: output lacks %q:\n%s", cmd, w, out.String())
			}
		}
		cmd, want = nil, nil
	}
	for _, line := range strings.Split(doc, "\n") {
		line = strings.ReplaceAll(line, "/tmp/", tmp+"/")
		switch {
		case strings.HasPrefix(line, "$ bin/poisonwatch ") || strings.HasPrefix(line, "bin/poisonwatch "):
			flush()
			line = strings.ReplaceAll(strings.TrimPrefix(line, "$ "), "$D", d[1])
			for _, f := range strings.Fields(line)[1:] {
				cmd = append(cmd, strings.Trim(f, "'"))
			}
		case cmd != nil && line != "" && !strings.HasPrefix(line, "```") && !strings.HasPrefix(line, "  ...") &&
			!strings.HasPrefix(line, "audit: ") && !strings.Contains(line, " s ("):
			want = append(want, line)
		case strings.HasPrefix(line, "```"):
			flush()
		}
	}
	flush()
	if ran == 0 {
		t.Errorf("the README shows no action example starting with bin/poisonwatch")
	}
}

// TestRulesDocExamples runs the rules commands the README's rules section
// shows with their output ("$ bin/poisonwatch rules ...") and checks every
// line it documents, so the examples say what the commands print.
func TestRulesDocExamples(t *testing.T) {
	doc := readmeSection(t, "## Rules tables (runmqdlq)")
	ran := 0
	var cmd, want []string
	flush := func() {
		if cmd == nil {
			return
		}
		ran++
		code, out, errOut := runRulesDoc(t, cmd)
		if code == cli.ExitUsage { // a dry run's code says what it predicts
			t.Errorf("%v: exit %d\n%s%s", cmd, code, out, errOut)
		}
		for _, w := range want {
			if !strings.Contains(out, w) {
				t.Errorf("%v: output lacks %q:\n%s", cmd, w, out)
			}
		}
		cmd, want = nil, nil
	}
	for _, line := range strings.Split(doc, "\n") {
		switch {
		case strings.HasPrefix(line, "$ bin/poisonwatch rules "):
			flush()
			cmd = strings.Fields(strings.TrimPrefix(line, "$ bin/poisonwatch "))
		case strings.HasPrefix(line, "```"):
			flush()
		case cmd != nil && line != "":
			want = append(want, line)
		}
	}
	if ran < 2 {
		t.Errorf("the rules section shows %d commands with their output, want the preview and the dry run", ran)
	}
}

// runRulesDoc runs a documented rules command line from the repository's root.
func runRulesDoc(t *testing.T, cmd []string) (int, string, string) {
	t.Helper()
	t.Setenv("XDG_STATE_HOME", t.TempDir())
	var out, errb bytes.Buffer
	code := cli.Run(context.Background(), cmd, &out, &errb)
	return code, out.String(), errb.String()
}

// readmeSection returns the section whose heading starts with prefix (its
// "#"s aside) from the README or the docs page it moved to, up to the next
// heading of the same level.
func readmeSection(t *testing.T, prefix string) string {
	t.Helper()
	sec, err := doctext.Section(".", strings.TrimLeft(prefix, "# "))
	if err != nil {
		t.Fatal(err)
	}
	if sec == "" {
		t.Fatalf("neither the README nor docs/ has a section %q", prefix)
	}
	return sec
}
