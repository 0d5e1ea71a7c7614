package cli

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestFileFlagsRefuseFIFOsAndOversizedFiles: every file a command reads
// whole, given a FIFO with nobody writing or a file one byte over its
// limit, is refused the same way: at once, with the same exit code, saying
// "not a regular file" or "larger than the N-byte limit", before anything
// is run. (The files read as streams are in TestFIFOInputsRefusedAtOnce.)
func TestFileFlagsRefuseFIFOsAndOversizedFiles(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("XDG_STATE_HOME", dir)
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	mqsc := filepath.Join(dir, "qm.mqsc")
	if err := os.WriteFile(mqsc, []byte("DEFINE QLOCAL(Q)\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	msgid := strings.Repeat("00", 24)
	for _, tc := range []struct {
		name  string
		limit int64
		args  func(file string) []string
	}{
		{"action_mqsc", maxMQSCFile, func(f string) []string {
			return []string{"export", "--queue", "Q", "--all", "--file", filepath.Join(dir, "x.dmp"), "--mqsc", f}
		}},
		{"dashboard_mqsc", maxMQSCFile, func(f string) []string { return []string{"--mqsc", f} }},
		{"sim_mqsc", maxMQSCFile, func(f string) []string { return []string{"sim", "--mqsc", f, "--duration", "1s"} }},
		{"doctor_mqsc", maxMQSCFile, func(f string) []string { return []string{"doctor", "--mqsc", f} }},
		{"exporter_qmgrs", maxQMgrsFile, func(f string) []string {
			return []string{"exporter", "--listen", "127.0.0.1:0", "--scenario", "fleet:2x20", "--qmgrs", f}
		}},
		{"decode_file", maxDecodeInput, func(f string) []string { return []string{"decode", f} }},
		{"edit_body_file", maxBodyFile, func(f string) []string {
			return []string{"edit", "--queue", "Q", "--msgid", msgid, "--body-file", f, "--mqsc", mqsc}
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			big := filepath.Join(t.TempDir(), "big")
			if err := os.WriteFile(big, nil, 0o600); err != nil {
				t.Fatal(err)
			}
			if err := os.Truncate(big, tc.limit+1); err != nil { // sparse: nothing written
				t.Fatal(err)
			}
			fifoCode, fifoErr := runRefused(t, tc.args(fifo))
			bigCode, bigErr := runRefused(t, tc.args(big))
			if !strings.Contains(fifoErr, "not a regular file") {
				t.Errorf("FIFO: stderr %q, want not a regular file", fifoErr)
			}
			if want := "larger than the " + strconv.FormatInt(tc.limit, 10) + "-byte limit"; !strings.Contains(bigErr, want) {
				t.Errorf("%d bytes: stderr %q, want %q", tc.limit+1, bigErr, want)
			}
			if fifoCode == 0 || fifoCode != bigCode {
				t.Errorf("exit %d for the FIFO, %d for the oversized file: want the same refusal", fifoCode, bigCode)
			}
		})
	}
}

// runRefused runs a command line that must end at once.
func runRefused(t *testing.T, args []string) (int, string) {
	t.Helper()
	type result struct {
		code   int
		stderr string
	}
	done := make(chan result, 1)
	go func() { _, errOut, code := runCLI(args...); done <- result{code, errOut} }()
	select {
	case r := <-done:
		return r.code, r.stderr
	case <-time.After(20 * time.Second):
		t.Fatalf("%v: still running after 20 s", args)
	}
	return 0, ""
}
