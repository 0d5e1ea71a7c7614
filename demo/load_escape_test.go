package demo

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A symbolic link inside a scenario directory that leads out of it is
// refused, and the target's content is never echoed.
func TestLoadRefusesSymlinkOutOfScenarioDir(t *testing.T) {
	base := t.TempDir()
	secret := filepath.Join(base, "secret")
	if err := os.WriteFile(secret, []byte("root:x:0:0:SECRET\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(base, "scen")
	if err := os.Mkdir(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(secret, filepath.Join(dir, ScenarioFile)); err != nil {
		t.Fatal(err)
	}
	_, err := Load(dir)
	if err == nil || strings.Contains(err.Error(), "SECRET") || !strings.Contains(err.Error(), "escapes") {
		t.Fatalf("scenario.toml linked out: err = %v", err)
	}
	// An MQSC file the scenario names, linked out.
	dir2 := filepath.Join(base, "scen2")
	if err := os.Mkdir(dir2, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(secret, filepath.Join(dir2, "qm.mqsc")); err != nil {
		t.Fatal(err)
	}
	toml := "[[qmgr]]\nname = \"QM1\"\nmqsc = [\"qm.mqsc\"]\n"
	if err := os.WriteFile(filepath.Join(dir2, ScenarioFile), []byte(toml), 0o600); err != nil {
		t.Fatal(err)
	}
	_, err = Load(dir2)
	if err == nil || strings.Contains(err.Error(), "SECRET") || !strings.Contains(err.Error(), "escapes") {
		t.Fatalf("MQSC file linked out: err = %v", err)
	}
}
