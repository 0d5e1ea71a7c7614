package e2e

import (
	"encoding/base64"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// osc52 is a clipboard write as the ssh client receives it: ESC ]52;c;
// base64, ended by BEL or ST.
var osc52 = regexp.MustCompile("\x1b\\]52;c;([A-Za-z0-9+/=]*)(?:\x07|\x1b\\\\)")

// copySession runs ssh as alice in tmux under term, keeping everything the
// client prints in a file (tee) as well as on the pane.
func (w *warRoom) copySession(name, term string) (*tmuxSession, string) {
	raw := filepath.Join(w.dir, name+".raw")
	cmd := "TERM=" + term + " ssh -tt " + strings.Join(w.sshArgs("alice", "alice"), " ") + " | tee " + raw + "; sleep 60"
	return newTmux(w.t, w.dir, "-"+name, 120, 35, cmd), raw
}

// TestEndToEndCopyGoesToTheSSHClient: y on a message under serve puts the
// OSC 52 sequence with the whole MsgId in the ssh client's output, and
// nothing in the server's; a session whose terminal is dumb is told it
// cannot copy and gets no sequence.
func TestEndToEndCopyGoesToTheSSHClient(t *testing.T) {
	t.Parallel()
	w := startServe(t, "testdata/warroom")
	s, raw := w.copySession("copy", "xterm-256color")
	s.waitFor("QM1.DEAD.LETTER.QUEUE", "5/5.0k")
	s.keys("d")
	s.waitFor("×5 2053 Q_FULL → PARKED.IN (QM1)")
	s.keys("Enter", "Enter")
	s.waitFor("MQRC_Q_FULL (2053)")
	s.keys("y")
	s.waitFor("copied MsgId")
	out, err := os.ReadFile(raw)
	if err != nil {
		t.Fatal(err)
	}
	m := osc52.FindSubmatch(out)
	if m == nil {
		t.Fatalf("no OSC 52 sequence in the ssh client's output (%d bytes)", len(out))
	}
	id, err := base64.StdEncoding.DecodeString(string(m[1]))
	if err != nil || !regexp.MustCompile(`^[0-9A-F]{48}$`).Match(id) {
		t.Fatalf("OSC 52 carries %q (%v), want the 48 hex digits of a MsgId", id, err)
	}
	if strings.Contains(w.out.String(), "]52;") {
		t.Fatalf("the server's own output has an OSC 52 sequence:\n%q", w.out.String())
	}

	d, raw := w.copySession("dumb", "dumb")
	d.waitFor("QM1.DEAD.LETTER.QUEUE")
	d.keys("d")
	d.waitFor("Q_FULL → PARKED.IN (QM1)")
	d.keys("Enter", "Enter")
	d.waitFor("MQRC_Q_FULL (2053)")
	d.keys("y")
	d.waitFor("cannot copy: the terminal (TERM=dumb) takes no OSC 52")
	if out, _ := os.ReadFile(raw); osc52.Match(out) || strings.Contains(w.out.String(), "]52;") {
		t.Fatalf("an OSC 52 sequence was sent for a dumb terminal")
	}
}

// TestEndToEndCopyInTheLocalDashboard: on the local dashboard y still writes
// OSC 52 to the terminal it draws on, with NO_COLOR too (a clipboard write is
// not colour).
func TestEndToEndCopyInTheLocalDashboard(t *testing.T) {
	t.Parallel()
	dir, bin := buildForTmux(t)
	// script(1) (bsdutils, essential in Debian) runs the dashboard on a
	// terminal of its own and keeps all it writes: the pane still shows it.
	raw := filepath.Join(dir, "terminal.raw")
	cmd := "NO_COLOR=1 XDG_STATE_HOME=" + dir + " script -q -f -c '" + bin + " --audit " + filepath.Join(dir, "audit.jsonl") + "' " + raw
	s := newTmux(t, dir, "", 120, 35, cmd)
	s.waitFor("Alerts (", "SYSTEM.DEAD.LETTER.QUEUE")
	s.keys("d")
	s.waitFor("grouped by reason+destination")
	s.keys("Enter", "Enter")
	s.waitFor("MsgId ")
	s.keys("y")
	s.waitFor("copied MsgId")
	out, err := os.ReadFile(raw)
	if err != nil {
		t.Fatal(err)
	}
	if m := osc52.FindSubmatch(out); m == nil {
		t.Fatalf("no OSC 52 sequence on the dashboard's terminal (%d bytes)", len(out))
	}
	s.keys("q")
}
