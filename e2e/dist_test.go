package e2e

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"testing"
	"time"
)

// TestMakeDistBuildsABinaryThatRuns builds `make dist` for this machine's
// platform only (DIST_TARGETS; the full list cross-builds seven in
// minutes) into a temporary directory, checks SHA256SUMS as sha256sum
// writes it, and runs the binary from there as an operator would after
// copying it to an MQ host: --version stamped, the demo simulated, the man
// page beside it.
func TestMakeDistBuildsABinaryThatRuns(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and links a stripped binary (about 10-40 s): not in -short mode")
	}
	if _, err := exec.LookPath("make"); err != nil {
		t.Skip("make is not installed")
	}
	dir := t.TempDir()
	target := runtime.GOOS + "/" + runtime.GOARCH
	start := time.Now()
	out, err := exec.Command("make", "--no-print-directory", "dist", "DIST="+dir, "DIST_TARGETS="+target, "VERSION=v9.9.9-dist-test").CombinedOutput()
	if err != nil {
		t.Fatalf("make dist: %v\n%s", err, out)
	}
	t.Logf("make dist DIST_TARGETS=%s: %s", target, time.Since(start).Round(time.Second))
	bin := filepath.Join(dir, "poisonwatch-"+runtime.GOOS+"-"+runtime.GOARCH)
	if runtime.GOOS == "windows" {
		bin += ".exe"
	}
	checkSums(t, dir, filepath.Base(bin), "poisonwatch.1")
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--version"}, "poisonwatch v9.9.9-dist-test\n"},
		{[]string{"sim", "--duration", "10s"}, "every message accounted for exactly once"},
		{[]string{"fix", "--list"}, "R1c:ORDERS.IN"},
	} {
		got, err := exec.Command(bin, tc.args...).CombinedOutput()
		if err != nil || !strings.Contains(string(got), tc.want) {
			t.Errorf("%s %v: %v, output lacks %q:\n%s", bin, tc.args, err, tc.want, got)
		}
	}
	page, err := os.ReadFile(filepath.Join(dir, "poisonwatch.1"))
	if err != nil || !bytes.HasPrefix(page, []byte(".TH POISONWATCH 1")) || !bytes.Contains(page, []byte("v9.9.9")) {
		t.Errorf("poisonwatch.1: %v\n%.200s", err, page)
	}
}

// checkSums reads SHA256SUMS: one line per file, "HEX  NAME" as sha256sum
// writes it, each sum right.
func checkSums(t *testing.T, dir string, names ...string) {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(dir, "SHA256SUMS"))
	if err != nil {
		t.Fatal(err)
	}
	line := regexp.MustCompile(`^([0-9a-f]{64})  (\S+)$`)
	sums := map[string]string{}
	for _, l := range strings.Split(strings.TrimSuffix(string(data), "\n"), "\n") {
		m := line.FindStringSubmatch(l)
		if m == nil {
			t.Fatalf("SHA256SUMS line %q is not as sha256sum writes it", l)
		}
		sums[m[2]] = m[1]
	}
	for _, n := range names {
		b, err := os.ReadFile(filepath.Join(dir, n))
		if err != nil {
			t.Fatal(err)
		}
		sum := sha256.Sum256(b)
		if got := hex.EncodeToString(sum[:]); sums[n] != got {
			t.Errorf("SHA256SUMS says %s for %s, it is %s", sums[n], n, got)
		}
	}
	if len(sums) != len(names) {
		t.Errorf("SHA256SUMS lists %d files, want %v", len(sums), names)
	}
}
