package alertstore

import (
	"errors"
	"os"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/poisonwatch/poisonwatch/internal/safeload"
	"github.com/poisonwatch/poisonwatch/model"
)

// A FIFO at the file's path (nobody writing to it) is refused at once with
// a clear error, as a device or directory is: opening it used to wait for
// a writer, and hung the exporter at start where SIGTERM is caught.
func TestNonRegularFileRefusedAtOnce(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("no FIFOs")
	}
	dir := t.TempDir()
	fifo := Path(dir, []string{"QM1"})
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	for name, path := range map[string]string{"fifo": fifo, "device": "/dev/zero", "directory": dir} {
		t.Run(name, func(t *testing.T) {
			done := make(chan error, 1)
			go func() { _, err := Open(path, model.NewAlertBook()); done <- err }()
			select {
			case err := <-done:
				if err == nil || !strings.Contains(err.Error(), "alert state") || (name != "directory" && !errors.Is(err, safeload.ErrNotRegular)) {
					t.Fatalf("err = %v, want an alert state error saying not a regular file", err)
				}
			case <-time.After(10 * time.Second):
				t.Fatal("still waiting on the FIFO after 10 s")
			}
		})
	}
}

// A file over the cap is refused before it is read whole; the strings of
// one under it reach the book sanitised.
func TestFileReadBoundedAndSanitised(t *testing.T) {
	path := Path(t.TempDir(), []string{"QM1"})
	big, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := big.Truncate(maxStateBytes + 1); err != nil {
		t.Fatal(err)
	}
	big.Close()
	if _, err := Open(path, model.NewAlertBook()); !errors.Is(err, safeload.ErrTooLarge) {
		t.Fatalf("a file over the cap: %v", err)
	}
	os.WriteFile(path, []byte(`{"version":1,"alerts":[{"Key":"k","QMgr":"QM1\u001b]0;PWNED\u0007","Start":"2026-12-01T20:41:00Z",
		"Ack":{"By":"alice\u001b[2J","Note":"on it\u202e","At":"2026-12-01T20:42:00Z"}}]}`), 0o600)
	b := model.NewAlertBook()
	if _, err := Open(path, b); err != nil {
		t.Fatal(err)
	}
	ep, ok := b.Episode("k")
	if !ok || ep.QMgr != `QM1\x1b]0;PWNED\x07` || ep.Ack.By != `alice\x1b[2J` || ep.Ack.Note != `on it\u202e` {
		t.Fatalf("read %+v", ep)
	}
}
