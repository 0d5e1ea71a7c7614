package cli

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/poisonwatch/poisonwatch/themes"
)

// TestFIFOInputsRefusedAtOnce: every file input given a FIFO with nobody
// writing is refused with "not a regular file" instead of hanging (the
// program catches SIGINT and SIGTERM, so only SIGKILL would end it).
func TestFIFOInputsRefusedAtOnce(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	scen := filepath.Join(dir, "scenario")
	if err := os.Mkdir(scen, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(filepath.Join(scen, "scenario.toml"), 0o600); err != nil {
		t.Fatal(err)
	}
	mqsc := filepath.Join(dir, "qm.mqsc")
	if err := os.WriteFile(mqsc, []byte("DEFINE QLOCAL(Q)\nDEFINE QLOCAL(T)\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	audit := []string{"--audit", filepath.Join(dir, "audit.jsonl"), "--mqsc", mqsc}
	for name, args := range map[string][]string{
		"rules":           {"rules", "check", fifo},
		"audit check":     {"audit", "check", fifo},
		"report":          {"report", fifo},
		"mqsc":            {"export", "--queue", "Q", "--all", "--file", filepath.Join(dir, "x.dmp"), "--mqsc", fifo},
		"load":            {"move", "--queue", "Q", "--to", "T", "--all", "--load", fifo},
		"import":          append([]string{"import", "--file", fifo, "--to", "Q", "--all"}, audit...),
		"scenario":        {"sim", "--scenario", scen, "--duration", "1s"},
		"authorized keys": {"serve", "--listen", "127.0.0.1:0", "--host-key", filepath.Join(dir, "host"), "--authorized-keys", fifo},
		"audit":           {"move", "--queue", "Q", "--to", "T", "--all", "--audit", fifo, "--mqsc", mqsc},
	} {
		t.Run(strings.ReplaceAll(name, " ", "_"), func(t *testing.T) {
			done := make(chan string, 1)
			go func() { out, errOut, _ := runCLI(args...); done <- out + errOut }()
			select {
			case errOut := <-done:
				if !strings.Contains(errOut, "not a regular file") {
					t.Fatalf("%v: stderr %q, want not a regular file", args, errOut)
				}
			case <-time.After(10 * time.Second):
				t.Fatalf("%v: still waiting on the FIFO after 10 s", args)
			}
		})
	}
}

func TestFIFOThemeRefusedAtOnce(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), "theme.toml")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { _, err := themes.Load(fifo); done <- err }()
	select {
	case err := <-done:
		if err == nil || !strings.Contains(err.Error(), "not a regular file") {
			t.Fatalf("theme FIFO: %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("theme: still waiting on the FIFO after 10 s")
	}
}
