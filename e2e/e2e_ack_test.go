package e2e

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/poisonwatch/poisonwatch/internal/waitfor"
)

// TestEndToEndAckOverSSHSurvivesRestart: alice (operator) and bob (viewer)
// are in the room with the real OpenSSH client; bob cannot acknowledge;
// alice acknowledges an alert with a note and bob sees who and why; the
// server stops, starts again on the same state directory, and a new
// session still sees the acknowledgement.
func TestEndToEndAckOverSSHSurvivesRestart(t *testing.T) {
	t.Parallel()
	w := startServe(t, "testdata/incident")
	alice := w.session("alice", "alice", 120, 35)
	alice.waitFor("Alerts (")
	bob := w.session("bob", "bob", 100, 30)
	bob.waitFor("bob (you) viewer")
	bob.keys("a")
	bob.waitFor("ORDERS.IN")
	bob.keys("K")
	bob.waitFor("viewers cannot acknowledge alerts")

	alice.keys("a")
	alice.waitFor("Alerts of every queue manager", "ORDERS.IN")
	alice.keys("K")
	alice.waitFor("Acknowledge an alert", "note:")
	alice.keys("looking at the ORDERS consumer", "Enter")
	alice.waitFor("acked by alice")
	bob.waitFor("acked by alice", "looking at the ORDERS consumer")
	alice.waitFor("✓1 acked")
	bob.waitFor("✓1 acked")

	if err := w.cmd.Process.Signal(os.Interrupt); err != nil {
		t.Fatal(err)
	}
	w.waitOutput("poisonwatch serve: stopped")
	w.cmd.Wait()
	state, err := os.ReadFile(filepath.Join(w.dir, "alerts-QM1.json"))
	if err != nil || !strings.Contains(string(state), "looking at the ORDERS consumer") {
		t.Fatalf("the state file lacks the acknowledgement (%v):\n%s", err, state)
	}

	w.out = &waitfor.Buffer{}
	w.cmd = exec.Command(w.cmd.Args[0], w.cmd.Args[1:]...)
	w.cmd.Env = append(os.Environ(), "XDG_STATE_HOME="+w.dir)
	w.cmd.Stdout, w.cmd.Stderr = w.out, w.out
	if err := w.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	w.waitOutput("listening on")
	carol := newTmux(t, w.dir, "-again", 120, 35, "TERM=xterm-256color ssh -t "+strings.Join(w.sshArgs("alice", "alice"), " ")+"; sleep 60")
	carol.waitFor("✓1 acked")
	carol.keys("a")
	carol.waitFor("acked by alice", "looking at the ORDERS consumer")
}
