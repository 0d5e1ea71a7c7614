package e2e

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"
	"github.com/poisonwatch/poisonwatch/cli"
	"github.com/poisonwatch/poisonwatch/internal/sshkey"
	"github.com/poisonwatch/poisonwatch/internal/waitfor"
)

// TestEndToEndWarRoomAttacksOverSSH: with the real OpenSSH client against
// serve --viewer-bodies, a viewer cannot read a host file; an operator
// reads only the files directory; a key that expired in 2000 and a key
// whose from= excludes 127.0.0.1 are refused and the refusals logged; a
// viewer's 3000-column window gets frames no wider than the clamp and the
// server serves on; a key with command= stops serve from starting.
func TestEndToEndWarRoomAttacksOverSSH(t *testing.T) {
	t.Parallel()
	w := startServeWith(t, "testdata/warroom", []string{"--viewer-bodies"},
		[3]string{"old", `expiry-time="20000101" `, "old role=operator"},
		[3]string{"far", `from="10.0.0.0/8" `, "far role=operator"})
	room := filepath.Join(w.dir, "room") // beside --audit
	w.waitOutput("operators' files in " + room)
	if err := os.WriteFile(filepath.Join(room, "ok.rules"), []byte("ACTION(RETRY)\n"), 0o600); err != nil {
		t.Fatal(err)
	}

	bob := w.session("bob", "bob", 100, 30)
	bob.waitFor("QM1.DEAD.LETTER.QUEUE", "bob (you) viewer")
	bob.keys(":", "rules /etc/passwd", "Enter")
	bob.waitFor("a viewer reads and writes no files on the host")

	alice := w.session("alice", "alice", 120, 35)
	alice.waitFor("QM1.DEAD.LETTER.QUEUE", "alice (you) operator")
	alice.keys(":", "rules /etc/passwd", "Enter")
	alice.waitFor("outside the server's files directory")
	alice.keys("Escape", ":", "rules ok.rules", "Enter")
	alice.waitFor("ok.rules loaded")

	for _, who := range []string{"old", "far"} {
		out, err := exec.Command("ssh", w.sshArgs(who, who)...).CombinedOutput()
		if err == nil || !strings.Contains(string(out), "Permission denied (publickey)") {
			t.Fatalf("%s: ssh err %v, output %q; want Permission denied", who, err, out)
		}
	}
	w.waitOutput("expired 2000-01-01", "from=10.0.0.0/8 does not allow 127.0.0.1:")

	if out, err := bob.tmux("resize-window", "-t", bob.name, "-x", "3000", "-y", "200").CombinedOutput(); err != nil {
		t.Fatalf("tmux resize-window: %v %s", err, out)
	}
	widest := func() int {
		n := 0
		for _, l := range strings.Split(bob.screen(), "\n") {
			n = max(n, ansi.StringWidth(strings.TrimRight(l, " ")))
		}
		return n
	}
	// The dashboard redraws for the new size (wider than the 100 columns
	// it had), then once more for help: neither is wider than the clamp.
	waitfor.Texts(t, 30*time.Second, func() string { return fmt.Sprint(widest() > 100) }, "true")
	bob.keys("?")
	bob.waitFor("Keys on this screen")
	if n := widest(); n > 1000 {
		t.Fatalf("the viewer's widest line after a 3000-column resize is %d cells; the clamp is 1000", n)
	}
	alice.keys("Escape", "d")
	alice.waitFor("grouped by reason+destination")

	keys := filepath.Join(w.dir, "cmd_keys")
	line := `command="/bin/sh" ` + sshkey.Client(t, filepath.Join(w.dir, "eve"), "eve") + "\n"
	if err := os.WriteFile(keys, []byte(line), 0o600); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(w.bin, "serve", "--listen", freeAddr(t), "--authorized-keys", keys, "--host-key", filepath.Join(w.dir, "host_key"))
	cmd.Env = append(os.Environ(), "XDG_STATE_HOME="+w.dir)
	out, err := cmd.CombinedOutput()
	if cmd.ProcessState.ExitCode() != cli.ExitUsage || !strings.Contains(string(out), `line 1: option "command"`) {
		t.Fatalf("serve with a command= key: %v, %q", err, out)
	}
}
