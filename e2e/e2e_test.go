package e2e

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/poisonwatch/poisonwatch/internal/waitfor"
)

// tmuxSession drives the real binary in a terminal, as an operator would.
// Each session runs on a tmux server of its own, its socket in the test's
// directory, so tests running in parallel never share one, nor end one
// another's, and nothing is left behind.
type tmuxSession struct {
	t            *testing.T
	name, socket string
}

// tmux is a tmux command on the session's server.
func (s *tmuxSession) tmux(args ...string) *exec.Cmd {
	return exec.Command("tmux", append([]string{"-S", s.socket}, args...)...)
}

// keys types each key in a read of its own: a key typed within a few
// milliseconds of the one before reaches the program in the same read,
// and an escape followed by a key reads as alt+key.
func (s *tmuxSession) keys(keys ...string) {
	s.t.Helper()
	for _, k := range keys {
		if out, err := s.tmux("send-keys", "-t", s.name, k).CombinedOutput(); err != nil {
			s.t.Fatalf("tmux send-keys %q: %v %s", k, err, out)
		}
		time.Sleep(keyGap)
	}
}

// keyGap is the time between two keys typed: over Bubble Tea's escape
// timeout, as a person types.
const keyGap = 150 * time.Millisecond

func (s *tmuxSession) screen() string {
	out, err := s.tmux("capture-pane", "-p", "-t", s.name).Output()
	if err != nil {
		s.t.Fatalf("tmux capture-pane: %v", err)
	}
	return string(out)
}

// screenWithEscapes is the pane with its colour and attribute escapes.
func (s *tmuxSession) screenWithEscapes() string {
	out, err := s.tmux("capture-pane", "-e", "-p", "-t", s.name).Output()
	if err != nil {
		s.t.Fatalf("tmux capture-pane: %v", err)
	}
	return string(out)
}

// waitFor polls the screen until every text is on it.
func (s *tmuxSession) waitFor(texts ...string) string {
	s.t.Helper()
	return waitfor.Texts(s.t, 30*time.Second, s.screen, texts...)
}

// startInTmux builds poisonwatch and starts it on the live demo in a w×h
// tmux session, with env before the command; dir holds its state.
func startInTmux(t *testing.T, w, h int, env string) (*tmuxSession, string) {
	t.Helper()
	dir, bin := buildForTmux(t)
	cmd := env + " XDG_STATE_HOME=" + dir + " " + bin + " --audit " + filepath.Join(dir, "audit.jsonl")
	return newTmux(t, dir, "", w, h, cmd), dir
}

// buildForTmux checks tmux is there, and returns a new temporary
// directory for the test's state and the poisonwatch the tests share.
func buildForTmux(t *testing.T) (dir, bin string) {
	t.Helper()
	if _, err := exec.LookPath("tmux"); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatal("tmux is not installed: .ci/run installs it")
		}
		t.Skip("tmux is not installed (apt-get install tmux); CI installs it and runs this test")
	}
	return t.TempDir(), builtBinary(t)
}

// built is poisonwatch built once for the tests of the package, which run
// it at once (each with a state directory of its own).
var built struct {
	once     sync.Once
	dir, bin string
	err      error
}

// builtBinary builds poisonwatch the first time a test asks; TestMain
// (main_test.go) removes it.
func builtBinary(t *testing.T) string {
	t.Helper()
	built.once.Do(func() {
		if built.dir, built.err = os.MkdirTemp("", "poisonwatch-e2e-"); built.err != nil {
			return
		}
		built.bin = filepath.Join(built.dir, "poisonwatch")
		if out, err := exec.Command("go", "build", "-o", built.bin, ".").CombinedOutput(); err != nil {
			built.err = fmt.Errorf("go build: %v\n%s", err, out)
		}
	})
	if built.err != nil {
		t.Fatal(built.err)
	}
	return built.bin
}

// newTmux runs cmd in a new w×h tmux session, killed when the test ends.
func newTmux(t *testing.T, dir, suffix string, w, h int, cmd string) *tmuxSession {
	t.Helper()
	// The temporary directory's parent is unique to this run (t.TempDir's own
	// base is always 001): two test runs on one machine must not share a
	// tmux session.
	s := &tmuxSession{t: t, name: "pw-e2e-" + filepath.Base(filepath.Dir(dir)) + "-" + filepath.Base(dir) + suffix,
		socket: filepath.Join(dir, "tmux"+suffix)}
	if out, err := s.tmux("new-session", "-d", "-s", s.name, "-x", itoa(w), "-y", itoa(h), cmd).CombinedOutput(); err != nil {
		t.Fatalf("tmux new-session: %v %s", err, out)
	}
	t.Cleanup(func() { s.tmux("kill-server").Run() })
	return s
}

func itoa(n int) string { return strconv.Itoa(n) }

// TestEndToEndRequeueInTmux starts poisonwatch on the live demo in tmux, opens
// the DEADQ, a group and a message, requeues the message with the dialog, and
// checks from the screen that it left the DEADQ and the audit view lists it.
func TestEndToEndRequeueInTmux(t *testing.T) {
	t.Parallel()
	s, dir := startInTmux(t, 120, 35, "")
	s.waitFor("Alerts (", "SYSTEM.DEAD.LETTER.QUEUE", "ORDERS.IN")
	s.keys("d")
	s.waitFor("grouped by reason+destination")
	s.keys("/")
	s.keys(strings.Split("ORDERS.EXPRESS", "")...)
	s.keys("Enter")
	s.waitFor("→ ORDERS.EXPRESS (QM1)")
	s.keys("Enter")
	scr := s.waitFor("REASON", "DESTINATION")
	id := regexp.MustCompile(`▸\S?\s+1 …?([0-9A-F]{8,16})`).FindStringSubmatch(scr)
	if id == nil {
		t.Fatalf("no message under the cursor:\n%s", scr)
	}
	s.keys("Enter")
	s.waitFor("MQRC_Q_FULL (2053)", "DestQName", "'ORDERS.EXPRESS'")
	s.keys("R")
	s.waitFor("Requeue 1 message from SYSTEM.DEAD.LETTER.QUEUE", "Cancel", "Run")
	s.keys("Tab", "Enter")
	s.waitFor("done: 1 · skipped 0 · failed 0")
	s.keys("Enter", "A")
	s.waitFor("Audit: 1 act this session", "requeue", "SYSTEM.DEAD.LETTER.QUEUE")
	s.keys("Enter")
	s.waitFor("requeue by ", "requeued", id[1])
	s.keys("q")
	// The live demo's ExpressMDB may dead-letter the message again (its BOQ is
	// full), so the proof that it moved is the audit record, not its absence.
	audit, err := os.ReadFile(filepath.Join(dir, "audit.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	want := []string{`"action":"requeue"`, `"from":"SYSTEM.DEAD.LETTER.QUEUE"`, `"to":"ORDERS.EXPRESS"`, `"outcome":"requeued"`, strings.ToLower(id[1]) + `"`}
	for _, w := range want {
		if !strings.Contains(string(audit), w) {
			t.Fatalf("audit log lacks %s:\n%s", w, audit)
		}
	}
}

// TestEndToEndAlertDetailWithoutColourInTmux runs the demo at 80x24 with
// NO_COLOR: no colour reaches the terminal, yet red rows, the focused button
// and the active tab still read (■, [ Cancel ], [DLH]); enter on an alert
// opens it in full with its fix.
func TestEndToEndAlertDetailWithoutColourInTmux(t *testing.T) {
	t.Parallel()
	s, _ := startInTmux(t, 80, 24, "NO_COLOR=1")
	s.waitFor("Alerts (", "■")
	if scr := s.screenWithEscapes(); regexp.MustCompile(`\x1b\[[0-9;]*[34]8;`).MatchString(scr) {
		t.Fatalf("NO_COLOR run sent colours:\n%q", scr)
	}
	s.keys("Tab", "Enter")
	s.waitFor("Why", "Fix")
	// Which alert is first depends on the polls; a long one scrolls to its rule.
	s.keys("End")
	s.waitFor("Rule R")
	s.keys("Escape", "Escape", "d", "Enter", "Enter")
	s.waitFor("[DLH]", "MsgId ")
	s.keys("R")
	s.waitFor("[ Cancel ]", "Run")
	s.keys("Escape", "q")
}
