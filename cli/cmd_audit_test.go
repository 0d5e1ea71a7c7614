package cli

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// TestR10f_AuditCheckCommand: `audit check` lists batches that ended
// pending and exits 3; a settled log exits 0; a FIFO is refused at once.
func TestR10f_AuditCheckCommand(t *testing.T) {
	dir := t.TempDir()
	pending := filepath.Join(dir, "pending.jsonl")
	settled := filepath.Join(dir, "settled.jsonl")
	line := `{"time":"2026-03-09T14:30:15Z","user":"alice","qmgr":"QM1","action":"requeue","msg_id":"0a0b","from":"QM1.DEADQ","to":"ORDERS.IN","outcome":"%s"}` + "\n"
	if err := os.WriteFile(pending, []byte(strings.ReplaceAll(line, "%s", "pending")), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(settled, []byte(strings.ReplaceAll(line, "%s", "pending")+strings.ReplaceAll(line, "%s", "requeued")), 0o600); err != nil {
		t.Fatal(err)
	}
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skipf("this system cannot make a FIFO (%v): the FIFO case of audit check is not exercised", err)
	}
	cases := []struct {
		path, want string
		code       int
	}{
		{pending, "1 batches ended pending", 3},
		{settled, "every batch has its outcome", 0},
		{fifo, "not a regular file", 1},
	}
	for _, tc := range cases {
		var out, errb bytes.Buffer
		code := Run(context.Background(), []string{"audit", "check", tc.path}, &out, &errb)
		if code != tc.code || !strings.Contains(out.String()+errb.String(), tc.want) {
			t.Errorf("%s: exit %d, output %q %q; want %d and %q", filepath.Base(tc.path), code, out.String(), errb.String(), tc.code, tc.want)
		}
	}
	var out bytes.Buffer
	if code := Run(context.Background(), []string{"audit", "check", pending}, &out, &out); !strings.Contains(out.String(), "requeue batch of 1 messages from QM1.DEADQ to ORDERS.IN on QM1 by alice") {
		t.Errorf("exit %d: %q", code, out.String())
	}
}
