package ui

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/poisonwatch/poisonwatch/internal/confine"
)

// A session whose Files refuse (a war-room viewer, with or without masking)
// neither reads a rules table nor writes one, whatever screen asked; W's
// triage says why. The local dashboard reads and writes where it is told.
func TestFilesCapabilityGatesEveryFileTheSessionNames(t *testing.T) {
	dir := t.TempDir()
	table := filepath.Join(dir, "t.rules")
	if err := os.WriteFile(table, []byte("ACTION(RETRY)\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	denied := New(Options{Files: confine.Denied{Why: "no files for you"}})
	if _, err := parseRulesFile(denied.sess.files, table); err == nil || err.Error() != "no files for you" {
		t.Fatalf("read through a refusing capability: %v", err)
	}
	out := filepath.Join(dir, "new.rules")
	if err := denied.sess.writeNew(out, []byte("x")); err == nil {
		t.Fatal("wrote through a refusing capability")
	}
	if _, err := os.Lstat(out); err == nil {
		t.Fatal("a file was created")
	}
	if why := denied.sess.noFiles(); why != "no files for you" {
		t.Fatalf("noFiles = %q", why)
	}
	rulesCommand(denied, "rules "+table)
	if !strings.Contains(denied.flash, "no files for you") {
		t.Fatalf(":rules flash %q", denied.flash)
	}

	local := New(Options{})
	if _, err := parseRulesFile(local.sess.files, table); err != nil {
		t.Fatalf("local read: %v", err)
	}
	if err := local.sess.writeNew(out, []byte("x")); err != nil {
		t.Fatalf("local write: %v", err)
	}
	if err := local.sess.writeNew(out, []byte("y")); err == nil || !strings.Contains(err.Error(), "exists") {
		t.Fatalf("an existing file was overwritten: %v", err)
	}
}
