package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
)

// TestWriteScreenshotsWarRoom serves the built-in demo over SSH and writes
// two sessions side by side for `make screenshots`: alice (operator,
// driving) on the DEADQ pointing at a group, bob (viewer, masked) following
// her. It runs only when POISONWATCH_SCREENSHOTS names the output directory.
func TestWriteScreenshotsWarRoom(t *testing.T) {
	t.Parallel()
	dir := screenshotDir(t)
	w := startServe(t, "")
	const width, height = 100, 30
	alice := w.session("alice", "alice", width, height)
	bob := w.session("bob", "bob", width, height)
	bob.waitFor("bob (you) viewer", "alice operator driving", "SYSTEM.DEAD.LETTER.QUEUE")
	alice.keys("d")
	alice.waitFor("grouped by reason+destination")
	bob.keys("F")
	bob.waitFor("FOLLOWING alice", "grouped by reason+destination")
	alice.keys("j", "p")
	bob.waitFor("alice points at row")
	alice.waitFor("bob viewer → alice")
	side := sideBySide(alice.screenWithEscapes(), bob.screenWithEscapes(), width)
	if err := os.WriteFile(filepath.Join(dir, "war-room-ssh.ansi"), []byte(side), 0o644); err != nil {
		t.Fatal(err)
	}
}

// sideBySide joins two captured panes, left padded to width, with a rule.
func sideBySide(left, right string, width int) string {
	l, r := strings.Split(strings.TrimRight(left, "\n"), "\n"), strings.Split(strings.TrimRight(right, "\n"), "\n")
	var b strings.Builder
	for i := range max(len(l), len(r)) {
		var a, c string
		if i < len(l) {
			a = l[i]
		}
		if i < len(r) {
			c = r[i]
		}
		pad := max(width-ansi.StringWidth(a), 0)
		b.WriteString(a + "\x1b[0m" + strings.Repeat(" ", pad) + " \x1b[90m│\x1b[0m " + c + "\x1b[0m\n")
	}
	return b.String()
}

// screenshotDir is where `make screenshots` wants the screens (created), or
// skips the test when POISONWATCH_SCREENSHOTS is not set.
func screenshotDir(t *testing.T) string {
	dir := os.Getenv("POISONWATCH_SCREENSHOTS")
	if dir == "" {
		t.Skip("set POISONWATCH_SCREENSHOTS=DIR to write the screens (make screenshots does)")
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	return dir
}
