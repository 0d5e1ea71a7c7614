package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// rules generate --out writes a new file only: an existing file, a link to
// one and a dangling link are refused and left as they were.
func TestRulesGenerateOutNeverOverwrites(t *testing.T) {
	dir := t.TempDir()
	existing := filepath.Join(dir, "existing.rules")
	target := filepath.Join(dir, "target")
	for _, p := range []string{existing, target} {
		if err := os.WriteFile(p, []byte("precious\n"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	link := filepath.Join(dir, "link.rules")
	dangling := filepath.Join(dir, "dangling.rules")
	nowhere := filepath.Join(dir, "nowhere")
	if err := os.Symlink(target, link); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(nowhere, dangling); err != nil {
		t.Fatal(err)
	}
	for _, out := range []string{existing, link, dangling} {
		code, _, errOut := runRulesCLI(t, "generate", "--scenario", "builtin", "--out", out)
		if code != ExitFailed || !strings.Contains(errOut, "nothing is overwritten") {
			t.Errorf("--out %s: exit %d, stderr %q", filepath.Base(out), code, errOut)
		}
	}
	for _, p := range []string{existing, target} {
		if b, _ := os.ReadFile(p); string(b) != "precious\n" {
			t.Errorf("%s was overwritten: %q", filepath.Base(p), b)
		}
	}
	if _, err := os.Lstat(nowhere); err == nil {
		t.Error("the dangling link's target was created")
	}
	fresh := filepath.Join(dir, "new.rules")
	if code, _, errOut := runRulesCLI(t, "generate", "--scenario", "builtin", "--out", fresh); code != ExitDone {
		t.Fatalf("a new file: exit %d: %s", code, errOut)
	}
	if fi, err := os.Stat(fresh); err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("new file: %v %v", fi, err)
	}
}

// rules check of a file of 200,000 bad lines lists the first errors and
// counts the rest, instead of printing megabytes.
func TestRulesCheckCapsTheErrorsListed(t *testing.T) {
	p := filepath.Join(t.TempDir(), "bad.rules")
	if err := os.WriteFile(p, []byte(strings.Repeat("BOGUS(1)\n", 200_000)), 0o600); err != nil {
		t.Fatal(err)
	}
	code, _, errOut := runRulesCLI(t, "check", p)
	if code != ExitUsage || len(errOut) > 64<<10 || !strings.Contains(errOut, "more errors not listed") {
		t.Fatalf("exit %d, %d bytes of stderr:\n%.2000s", code, len(errOut), errOut)
	}
}

// rules, decode and every --backend refuse values out of range as usage
// errors, before anything runs.
func TestRulesDecodeAndBackendFlagRanges(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"rules", "run", "x.rules", "--batch", "0"}, "--batch 0"},
		{[]string{"rules", "run", "x.rules", "--batch", "99999"}, "--batch 99999"},
		{[]string{"rules", "run", "x.rules", "--rate", "NaN"}, "--rate NaN"},
		{[]string{"rules", "run", "x.rules", "--workers", "0"}, "--workers 0"},
		{[]string{"rules", "preview", "x.rules", "--backend", "bogus"}, `--backend "bogus"`},
		{[]string{"move", "--queue", "Q", "--to", "T", "--all", "--backend", "bogus"}, `--backend "bogus"`},
		{[]string{"--backend", "bogus"}, `--backend "bogus"`},
		{[]string{"exporter", "--backend", "bogus"}, `--backend "bogus"`},
		{[]string{"decode", "--ccsid", "-5", "x"}, "--ccsid -5"},
	} {
		_, errOut, code := runCLI(tc.args...)
		if code != ExitUsage || !strings.Contains(errOut, tc.want) {
			t.Errorf("%v: exit %d, stderr %q; want %d mentioning %q", tc.args, code, errOut, ExitUsage, tc.want)
		}
	}
}
