package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// exportTwo exports two dead letters (an MQDLH, then JSON) to a file, from
// the examples' small queue manager (testdata/actions: one queue manager,
// five queues) rather than the built-in demo's three, which take longer to
// build than anything these tests check.
func exportTwo(t *testing.T, dir string) string {
	t.Helper()
	p := filepath.Join(dir, "two.dmp")
	out, errOut, code := runCLI("export", "--mqsc", exMQSC, "--load", exDeadQ, "--queue", "QM1.DEADQ", "--all", "--limit", "2",
		"--file", p, "--audit", filepath.Join(dir, "export.jsonl"))
	if code != ExitPartial && code != ExitDone {
		t.Fatalf("export: exit %d\n%s%s", code, out, errOut)
	}
	return p
}

// A dmpmqmsg file cut inside its last message, at a line's end or inside a
// line, is refused whole: nothing of it is imported, exit 3.
func TestImportRefusesAFileCutInsideAMessage(t *testing.T) {
	dir := t.TempDir()
	data, err := os.ReadFile(exportTwo(t, dir))
	if err != nil {
		t.Fatal(err)
	}
	text := string(data)
	second := strings.LastIndex(text, "\nA VER")
	firstX := second + strings.Index(text[second:], "\nX ") + 1
	endOfX := firstX + strings.Index(text[firstX:], "\n") + 1
	for name, tc := range map[string]struct{ cut, want string }{
		"after_one_data_line":     {text[:endOfX], "is shorter than its headers declare"}, // 25 bytes of the second message
		"inside_a_data_line_even": {text[:endOfX-11], "ends inside a line"},
		"inside_a_data_line_odd":  {text[:endOfX-10], "a byte has only one hex digit"},
		"inside_the_mqmd":         {text[:second+40], "the file ends inside the message"},
	} {
		t.Run(name, func(t *testing.T) {
			p := filepath.Join(dir, name+".dmp")
			if err := os.WriteFile(p, []byte(tc.cut), 0o600); err != nil {
				t.Fatal(err)
			}
			out, errOut, code := runCLI("import", "--mqsc", exMQSC, "--file", p, "--to", "PARKING.Q", "--all",
				"--audit", filepath.Join(dir, name+".jsonl"))
			if code != ExitFailed || !strings.Contains(out, "imported 0") || !strings.Contains(out+errOut, tc.want) {
				t.Fatalf("exit %d, want %d and %q:\n%s%s", code, ExitFailed, tc.want, out, errOut)
			}
		})
	}
}

// An import stopped at --limit exits 1 and says how many messages are
// left; the same import again puts the rest (the first are skipped as
// imported) and exits 0.
func TestImportAtTheLimitSaysWhatIsLeftAndResumes(t *testing.T) {
	dir := t.TempDir()
	p := exportTwo(t, dir)
	audit := filepath.Join(dir, "import.jsonl")
	// The demo's queue manager lives as long as the command: each import
	// runs on a fresh one, and the audit log says what was imported.
	args := []string{"import", "--scenario", "builtin", "--file", p, "--to", "SHOP.REPLY", "--all", "--limit", "1", "--audit", audit}
	out, errOut, code := runCLI(args...)
	if code != ExitPartial || !strings.Contains(out, "1 more messages match than the limit of 1") {
		t.Fatalf("first import: exit %d, want %d:\n%s%s", code, ExitPartial, out, errOut)
	}
	out, errOut, code = runCLI(args...)
	if code != ExitDone || !strings.Contains(out, "imported 1") {
		t.Fatalf("second import: exit %d, want %d:\n%s%s", code, ExitDone, out, errOut)
	}
}
