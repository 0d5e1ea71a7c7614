package e2e

import (
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/poisonwatch/poisonwatch/internal/waitfor"
)

// serveInTmux starts serve as the only program of a tmux pane, its output
// in a file, so that ctrl+c typed there is the operator's own; it waits
// until serve listens. n numbers the start (a restart in the same state).
func (w *warRoom) serveInTmux(scenario string, n int) (*tmuxSession, func() string) {
	w.t.Helper()
	out := filepath.Join(w.dir, "serve"+itoa(n)+".out")
	args := strings.Join(w.serveArgs(scenario, nil), " ")
	pane := newTmux(w.t, w.dir, "-serve"+itoa(n), 100, 10, "exec env XDG_STATE_HOME="+w.dir+" "+w.bin+" "+args+" >"+out+" 2>&1")
	read := func() string {
		b, _ := os.ReadFile(out)
		return string(b)
	}
	waitfor.Texts(w.t, 30*time.Second, read, "listening on", "host key SHA256:", "recording to ")
	w.out.Write([]byte(read()))
	return pane, read
}

// flood keeps one address's connections coming until stop: silent ones
// as fast as the server takes them, and stalling ones (an SSH version line,
// then nothing), held; it says how many it opened.
func flood(addr string, stop <-chan struct{}) <-chan int {
	opened := make(chan int, 1)
	go func() {
		var held []net.Conn
		n := 0
		defer func() {
			for _, c := range held {
				c.Close()
			}
			opened <- n
		}()
		for {
			select {
			case <-stop:
				return
			default:
			}
			c, err := net.Dial("tcp", addr)
			if err != nil {
				continue
			}
			if n%10 == 0 {
				c.Write([]byte("SSH-2.0-stalling\r\n"))
			}
			held, n = append(held, c), n+1
			if len(held) > 200 { // the server closed the old ones: keep our descriptors few
				held[0].Close()
				held = held[1:]
			}
		}
	}()
	return opened
}

// TestEndToEndWarRoomTogetherOverSSH: two real OpenSSH clients at 80x24.
// serve says where it records; bob (viewer) logs in while his address
// floods the server with connections that never authenticate; his help
// lists no key a viewer cannot use; following alice, the banner is whole;
// alice points at a row, opens the message and stops pointing there, and
// bob is never told of a row on the message; ctrl+c where serve runs tells
// both "server stopping"; a restart says where the last recording went.
func TestEndToEndWarRoomTogetherOverSSH(t *testing.T) {
	t.Parallel()
	w := newWarRoom(t)
	pane, out := w.serveInTmux("testdata/warroom", 1)
	w.knownHosts()
	rec := filepath.Join(w.dir, "recordings", "serve.pwrec")
	if !strings.Contains(out(), "recording to "+rec+"\n") {
		t.Fatalf("serve does not say where it records (%s):\n%s", rec, out())
	}
	alice := w.session("alice", "alice", 80, 24)
	alice.waitFor("QM1.DEAD.LETTER.QUEUE", "alice (you) operator")

	stop := make(chan struct{})
	opened := flood("127.0.0.1:"+w.port, stop)
	bob := w.session("bob", "bob", 80, 24)
	bob.waitFor("QM1.DEAD.LETTER.QUEUE", "bob (you) viewer")
	close(stop)
	if n := <-opened; n <= 8 {
		t.Fatalf("the flood opened %d connections, not enough to fill the cap of 8", n)
	}

	bob.keys("?")
	help := bob.waitFor("Keys on this screen", "follow the driver")
	for _, never := range []string{"take the wheel", ":rules"} {
		if strings.Contains(help, never) {
			t.Fatalf("the viewer's help lists %q:\n%s", never, help)
		}
	}
	bob.keys("Escape", "F")
	bob.waitFor("FOLLOWING alice — esc stops")

	alice.keys("d")
	alice.waitFor("grouped by reason+destination")
	alice.keys("Enter", "j", "p")
	alice.waitFor("pointing at row 2 for followers: p stops")
	bob.waitFor("alice points at row 2")
	alice.keys("Enter")
	alice.waitFor("MQRC_Q_FULL (2053)")
	bob.waitFor("MQRC_Q_FULL (2053)")
	if scr := bob.screen(); strings.Contains(scr, "points at") {
		t.Fatalf("bob is told of a row while alice reads a message:\n%s", scr)
	}
	alice.keys("p")
	alice.waitFor("stopped pointing")

	pane.keys("C-c")
	bob.waitFor("poisonwatch serve: server stopping")
	alice.waitFor("poisonwatch serve: server stopping")
	waitfor.Texts(t, 30*time.Second, out, "poisonwatch serve: stopped")

	_, out2 := w.serveInTmux("testdata/warroom", 2)
	if want := "recording to " + rec + " (the previous recording was moved to " + rec + ".1)"; !strings.Contains(out2(), want) {
		t.Fatalf("a restart does not say where the last recording went (%s):\n%s", want, out2())
	}
	if _, err := os.Stat(rec + ".1"); err != nil {
		t.Fatalf("the previous recording is not where serve said: %v", err)
	}
}
