package e2e

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestWriteScreenshotsEdit writes the editor round trip of edit and resend
// (R10i) for `make screenshots`. $EDITOR runs through tea.ExecProcess,
// which hands the terminal over and cannot be captured, so the shots show
// the editor the war room's driver gets instead, served over SSH as in
// the war-room shot: the in-dashboard textarea with an edited body
// (edit-textarea), then the plan with the body's diff, the headers that
// stay and the target (edit-plan). It runs only when
// POISONWATCH_SCREENSHOTS names the output directory.
func TestWriteScreenshotsEdit(t *testing.T) {
	t.Parallel()
	dir := screenshotDir(t)
	w := startServe(t, "")
	const width, height = 120, 32
	alice := w.session("alice", "alice", width, height)
	alice.waitFor("alice (you) operator driving", "SYSTEM.DEAD.LETTER.QUEUE")
	alice.keys("d")
	alice.waitFor("2053 Q_FULL → ORDERS.EXPRESS")
	alice.keys("/")
	alice.keys("Q_FULL", "Enter", "Enter", "Enter")
	alice.waitFor("MQDLH")
	alice.keys("l")
	note := regexp.MustCompile(`<note>([^<]+)</note>\s*</order>`).FindStringSubmatch(alice.waitFor("</order>"))
	if note == nil {
		t.Fatalf("the demo's order has no note to edit:\n%s", alice.screen())
	}
	alice.keys("e")
	alice.waitFor("editing as text (CCSID 1208)")
	// The cursor starts after the body: back over </note></order>, then
	// replace the note.
	alice.keys(repeat("Left", len("</note></order>"))...)
	alice.keys(repeat("BSpace", len(note[1]))...)
	alice.keys("SKU 4711-B restocked, resent by alice")
	alice.waitFor("<note>SKU 4711-B restocked, resent by alice</note>")
	writePane(t, dir, "edit-textarea", alice.screenWithEscapes())
	alice.keys("C-s")
	alice.waitFor("Put", "Cancel")
	writePane(t, dir, "edit-plan", alice.screenWithEscapes())
}

func repeat(k string, n int) []string { return strings.Split(strings.Repeat(k+"\n", n-1)+k, "\n") }

// writePane writes a captured pane for freeze.
func writePane(t *testing.T, dir, name, pane string) {
	t.Helper()
	if err := os.WriteFile(filepath.Join(dir, name+".ansi"), []byte(pane), 0o644); err != nil {
		t.Fatal(err)
	}
}
