package e2e

import (
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	gossh "golang.org/x/crypto/ssh"

	"github.com/poisonwatch/poisonwatch/internal/sshkey"
	"github.com/poisonwatch/poisonwatch/internal/waitfor"
)

func freeAddr(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	return addr
}

// warRoom is a running poisonwatch serve and what an ssh client needs.
type warRoom struct {
	t        *testing.T
	dir, bin string
	port     string
	out      *waitfor.Buffer
	cmd      *exec.Cmd
}

// startServe starts poisonwatch serve with alice (operator) and bob (viewer)
// authorized, on the scenario directory (the built-in demo when ""), and
// writes the host key into a known_hosts file, so the clients check it
// strictly.
func startServe(t *testing.T, scenario string) *warRoom {
	t.Helper()
	return startServeWith(t, scenario, nil)
}

// startServeWith is startServe with more serve flags and, for each
// further user, a key whose authorized line is prefix + key + comment.
func startServeWith(t *testing.T, scenario string, extra []string, users ...[3]string) *warRoom {
	t.Helper()
	w := newWarRoom(t, users...)
	w.cmd = exec.Command(w.bin, w.serveArgs(scenario, extra)...)
	w.cmd.Env = append(os.Environ(), "XDG_STATE_HOME="+w.dir)
	w.cmd.Stdout, w.cmd.Stderr = w.out, w.out
	if err := w.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { w.cmd.Process.Kill(); w.cmd.Wait() })
	w.waitOutput("listening on", "host key SHA256:")
	w.knownHosts()
	return w
}

// newWarRoom is a war room not yet started: its directory, with alice
// (operator), bob (viewer), mallory (never authorized) and users' keys,
// and a free address.
func newWarRoom(t *testing.T, users ...[3]string) *warRoom {
	t.Helper()
	if _, err := exec.LookPath("ssh"); err != nil {
		t.Skip("the OpenSSH client is not installed (apt-get install openssh-client); .ci/run installs it")
	}
	dir, bin := buildForTmux(t)
	keys := sshkey.Client(t, filepath.Join(dir, "alice"), "alice@laptop role=operator") + "\n" +
		sshkey.Client(t, filepath.Join(dir, "bob"), "bob@desk") + "\n"
	sshkey.Client(t, filepath.Join(dir, "mallory"), "mallory role=operator") // never authorized
	for _, u := range users {
		keys += u[1] + sshkey.Client(t, filepath.Join(dir, u[0]), u[2]) + "\n"
	}
	if err := os.WriteFile(filepath.Join(dir, "authorized_keys"), []byte(keys), 0o600); err != nil {
		t.Fatal(err)
	}
	addr := freeAddr(t)
	return &warRoom{t: t, dir: dir, bin: bin, port: addr[strings.LastIndex(addr, ":")+1:], out: &waitfor.Buffer{}}
}

// serveArgs are serve's arguments for the room on the scenario.
func (w *warRoom) serveArgs(scenario string, extra []string) []string {
	return append([]string{"serve", "--listen", "127.0.0.1:" + w.port, "--host-key", filepath.Join(w.dir, "host_key"),
		"--authorized-keys", filepath.Join(w.dir, "authorized_keys"), "--audit", filepath.Join(w.dir, "audit.jsonl"),
		"--scenario", scenario, "--interval", "500ms"}, extra...)
}

func (w *warRoom) waitOutput(texts ...string) {
	w.t.Helper()
	waitfor.Texts(w.t, 30*time.Second, w.out.String, texts...)
}

// knownHosts trusts exactly the host key the server created and printed.
func (w *warRoom) knownHosts() {
	w.t.Helper()
	data, err := os.ReadFile(filepath.Join(w.dir, "host_key"))
	if err != nil {
		w.t.Fatal(err)
	}
	signer, err := gossh.ParsePrivateKey(data)
	if err != nil {
		w.t.Fatal(err)
	}
	if fp := gossh.FingerprintSHA256(signer.PublicKey()); !strings.Contains(w.out.String(), "host key "+fp) {
		w.t.Fatalf("serve printed another fingerprint than its key's %s:\n%s", fp, w.out.String())
	}
	line := "[127.0.0.1]:" + w.port + " " + string(gossh.MarshalAuthorizedKey(signer.PublicKey()))
	if err := os.WriteFile(filepath.Join(w.dir, "known_hosts"), []byte(line), 0o600); err != nil {
		w.t.Fatal(err)
	}
}

// sshArgs connect as user with key, checking the host key, never asking.
func (w *warRoom) sshArgs(user, key string, extra ...string) []string {
	return append([]string{"-F", "/dev/null", "-i", filepath.Join(w.dir, key), "-p", w.port,
		"-o", "UserKnownHostsFile=" + filepath.Join(w.dir, "known_hosts"), "-o", "StrictHostKeyChecking=yes",
		"-o", "IdentitiesOnly=yes", "-o", "BatchMode=yes"}, append(extra, user+"@127.0.0.1")...)
}

// session opens a tmux session running ssh as user; the pane stays after
// ssh ends so the goodbye can be read.
func (w *warRoom) session(user, key string, width, height int) *tmuxSession {
	cmd := "TERM=xterm-256color ssh -t " + strings.Join(w.sshArgs(user, key), " ") + "; sleep 60"
	return newTmux(w.t, w.dir, "-"+user, width, height, cmd)
}

// TestEndToEndWarRoomOverSSH: an operator and a viewer connect with the real
// OpenSSH client; both see the dashboard and each other; the viewer's R is
// refused; the operator requeues one dead letter and the viewer sees the
// flash and the new depths; an unknown key is refused; stopping the server
// says goodbye.
func TestEndToEndWarRoomOverSSH(t *testing.T) {
	t.Parallel()
	w := startServe(t, "testdata/warroom")
	alice := w.session("alice", "alice", 120, 35)
	alice.waitFor("QM1.DEAD.LETTER.QUEUE", "5/5.0k")
	bob := w.session("bob", "bob", 100, 30)
	bob.waitFor("QM1.DEAD.LETTER.QUEUE", "5/5.0k", "[masked]", "bob (you) viewer", "▶ alice operator driving")
	alice.waitFor("alice (you) operator driving", "bob viewer")

	bob.keys("d")
	bob.waitFor("grouped by reason+destination")
	bob.keys("R")
	bob.waitFor("you joined as a viewer")
	bob.keys("Escape")
	bob.waitFor("Queues by severity 1/2")

	alice.keys("d")
	alice.waitFor("×5 2053 Q_FULL → PARKED.IN (QM1)")
	alice.keys("Enter", "Enter")
	alice.waitFor("MQRC_Q_FULL (2053)", "'PARKED.IN'")
	alice.keys("R")
	alice.waitFor("Requeue 1 message from QM1.DEAD.LETTER.QUEUE", "Cancel", "Run")
	alice.keys("Tab", "Enter")
	// Nothing consumes PARKED.IN in this scenario: the message cannot come
	// back, and alice ends the check for it (R10f) rather than wait 30 s.
	alice.waitFor("1 / 1 moved · checking whether they come back (R10f)")
	alice.keys("Escape")
	alice.waitFor("done: 1 · skipped 0 · failed 0")

	// The room is told in the journal's words: the run, then what its
	// check found (stopped by alice).
	bob.waitFor("alice's requeue 1 message from QM1.DEAD.LETTER.QUEUE", "came back in the", "4/5.0k", "1/5.0k")
	audit, err := os.ReadFile(filepath.Join(w.dir, "audit.jsonl"))
	if err != nil || !strings.Contains(string(audit), `"user":"alice (ssh key SHA256:`) {
		t.Fatalf("audit log without alice's SSH identity (%v):\n%s", err, audit)
	}

	for name, extra := range map[string][]string{
		"unknown key": nil,
		"password":    {"-o", "PreferredAuthentications=password,keyboard-interactive"},
	} {
		key := "mallory"
		if extra != nil {
			key = "alice" // a known key, but not offered: only passwords are tried
		}
		out, err := exec.Command("ssh", w.sshArgs("mallory", key, extra...)...).CombinedOutput()
		if err == nil || !strings.Contains(string(out), "Permission denied (publickey)") {
			t.Fatalf("%s: ssh err %v, output %q; want Permission denied (publickey)", name, err, out)
		}
	}

	if err := w.cmd.Process.Signal(os.Interrupt); err != nil {
		t.Fatal(err)
	}
	bob.waitFor("poisonwatch serve: server stopping")
	alice.waitFor("poisonwatch serve: server stopping")
	w.waitOutput("poisonwatch serve: stopped")
}
