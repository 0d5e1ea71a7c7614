package cli

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// chainedLog writes lines as the audit log chains them: each with the
// first 16 bytes of the SHA-256 of the line before (of "" for the first).
func chainedLog(t *testing.T, bodies ...string) (string, []string) {
	t.Helper()
	prev := sha256.Sum256(nil)
	var lines []string
	for _, b := range bodies {
		line := fmt.Sprintf(`{"prev":"%s",%s`, hex.EncodeToString(prev[:16]), b[1:])
		prev = sha256.Sum256([]byte(line))
		lines = append(lines, line+"\n")
	}
	path := filepath.Join(t.TempDir(), "audit.jsonl")
	if err := os.WriteFile(path, []byte(strings.Join(lines, "")), 0o600); err != nil {
		t.Fatal(err)
	}
	return path, lines
}

// audit check prints what the log holds sanitised (users, queues, MsgIds
// and files may carry anything), says the chain holds, and names the line
// where it breaks when one was removed, exiting 4.
func TestAuditCheckSanitisesAndFollowsTheChain(t *testing.T) {
	esc := func(s string) string {
		return strings.NewReplacer("\x1b", `\u001b`, "\x07", `\u0007`, "\x9b", `\u009b`).Replace(s)
	}
	line := `{"time":"2026-03-09T14:30:1%dZ","user":"` + esc("alice"+hostileStrings[1]) + `","qmgr":"QM1` + esc(hostileStrings[0]) +
		`","action":"requeue","msg_id":"` + esc("0a"+hostileStrings[5]) + `","from":"` + esc("Q"+hostileStrings[2]) +
		`","to":"ORDERS.IN","file":"` + esc(hostileStrings[7]) + `","outcome":"%s"}`
	var bodies []string
	for i := range 4 {
		bodies = append(bodies, fmt.Sprintf(line, i, "pending"))
	}
	path, lines := chainedLog(t, bodies...)
	out, errOut, code := runCLI("audit", "check", path)
	assertTerminalSafe(t, out+errOut)
	if code != exitPending || !strings.Contains(out, "by alice\\x1b]0;PWNED\\x07") ||
		!strings.Contains(out, "chain: lines 1-4 follow each other") {
		t.Fatalf("exit %d:\n%s%s", code, out, errOut)
	}
	if err := os.WriteFile(path, []byte(lines[0]+lines[1]+lines[3]), 0o600); err != nil {
		t.Fatal(err)
	}
	out, errOut, code = runCLI("audit", "check", path)
	assertTerminalSafe(t, out+errOut)
	if code != exitChainBroken || !strings.Contains(out, "chain BROKEN in 1 places") ||
		!strings.Contains(out, "line 3 does not follow line 2: lines were removed or inserted between them") {
		t.Fatalf("a line removed: exit %d:\n%s%s", code, out, errOut)
	}
	unchained := filepath.Join(t.TempDir(), "old.jsonl")
	os.WriteFile(unchained, []byte(fmt.Sprintf(line, 1, "pending")+"\n"+fmt.Sprintf(line, 2, "requeued")+"\n"), 0o600)
	if out, _, code := runCLI("audit", "check", unchained); code != 0 || !strings.Contains(out, "chain: none, the log was written before lines were chained") {
		t.Fatalf("a log written before the chain: exit %d:\n%s", code, out)
	}
}
