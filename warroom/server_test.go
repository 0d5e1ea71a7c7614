package warroom

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"crypto/rand"
	"net"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	gossh "golang.org/x/crypto/ssh"

	"github.com/poisonwatch/poisonwatch/internal/confine"
	"github.com/poisonwatch/poisonwatch/internal/waitfor"
	"github.com/poisonwatch/poisonwatch/ui"
)

// testServer is a Server on a free port with alice (operator) and bob
// (viewer) authorized, over the feed test's queue manager.
type testServer struct {
	t       *testing.T
	srv     *Server
	addr    string
	hostPub gossh.PublicKey
	signers map[string]gossh.Signer
	// viewerBodies: viewers' bodies unmasked, as serve --viewer-bodies.
	viewerBodies atomic.Bool
}

func newSigner(t *testing.T) gossh.Signer {
	t.Helper()
	_, priv, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	s, err := gossh.NewSignerFromKey(priv)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func startTestServer(t *testing.T, edit func(*Config)) *testServer {
	t.Helper()
	ts := &testServer{t: t, signers: map[string]gossh.Signer{}}
	var authorized strings.Builder
	for name, role := range map[string]string{"alice": "role=operator", "bob": "", "mallory": "-"} {
		ts.signers[name] = newSigner(t)
		if role != "-" {
			authorized.WriteString(strings.TrimSpace(string(gossh.MarshalAuthorizedKey(ts.signers[name].PublicKey()))) + " " + name + " " + role + "\n")
		}
	}
	ks, err := ParseAuthorizedKeys([]byte(authorized.String()))
	if err != nil {
		t.Fatal(err)
	}
	keys := Keys{}
	for _, k := range ks {
		keys[gossh.FingerprintSHA256(k.Key)] = k
	}
	pemKey, _, err := HostKey(t.TempDir() + "/host")
	if err != nil {
		t.Fatal(err)
	}
	hs, err := gossh.ParsePrivateKey(pemKey)
	if err != nil {
		t.Fatal(err)
	}
	ts.hostPub = hs.PublicKey()
	env := newFeedEnv(t, 5)
	ops := newOpsEnv(t)
	files, err := confine.Open(t.TempDir() + "/room")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { files.Close() })
	cfg := Config{HostKeyPEM: pemKey, Keys: keys, Sources: []ui.Source{named{env.w, "QM1"}}, Files: files, Interval: time.Hour,
		Engines: func(r Role) ui.Operations { return ops.engines[r] },
		App: func(s Session) (tea.Model, error) {
			return ui.New(ui.Options{Sources: s.Sources, Shared: s.Shared, Ops: s.Ops, Room: s.Room, Renderer: s.Renderer, Files: s.Files,
				ReadOnly: s.Who.Role == Viewer, WarRoom: s.Who.Role == Viewer && !ts.viewerBodies.Load(), Interval: time.Hour, Ctx: s.Ctx}), nil
		}}
	if edit != nil {
		edit(&cfg)
	}
	ts.srv, err = New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ts.addr = l.Addr().String()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { ts.srv.Serve(ctx, l); close(done) }()
	t.Cleanup(func() {
		stop, c := context.WithTimeout(context.Background(), 5*time.Second)
		ts.srv.Stop(stop)
		c()
		cancel()
		<-done
	})
	return ts
}

func (ts *testServer) dial(user string, auth ...gossh.AuthMethod) (*gossh.Client, error) {
	if auth == nil {
		auth = []gossh.AuthMethod{gossh.PublicKeys(ts.signers[user])}
	}
	return gossh.Dial("tcp", ts.addr, &gossh.ClientConfig{User: user, Auth: auth,
		HostKeyCallback: gossh.FixedHostKey(ts.hostPub), Timeout: 10 * time.Second})
}

// term is one interactive session: what the server wrote, and its stdin.
type term struct {
	t      *testing.T
	client *gossh.Client
	in     interface{ Write([]byte) (int, error) }
	sess   *gossh.Session
	mu     sync.Mutex
	out    bytes.Buffer
	ended  chan struct{}
}

func (tm *term) Write(p []byte) (int, error) {
	tm.mu.Lock()
	defer tm.mu.Unlock()
	return tm.out.Write(p)
}

func (ts *testServer) open(user string) *term {
	ts.t.Helper()
	c, err := ts.dial(user)
	if err != nil {
		ts.t.Fatalf("%s: %v", user, err)
	}
	s, err := c.NewSession()
	if err != nil {
		ts.t.Fatal(err)
	}
	tm := &term{t: ts.t, client: c, sess: s, ended: make(chan struct{})}
	s.Stdout, s.Stderr = tm, tm
	if tm.in, err = s.StdinPipe(); err != nil {
		ts.t.Fatal(err)
	}
	if err := s.RequestPty("xterm", 40, 120, gossh.TerminalModes{}); err != nil {
		ts.t.Fatal(err)
	}
	if err := s.Shell(); err != nil {
		ts.t.Fatal(err)
	}
	go func() { s.Wait(); close(tm.ended); c.Close() }() // as OpenSSH's client leaves with its session
	ts.t.Cleanup(func() { c.Close() })
	// Answer the renderer's questions (background colour, then DA1) as a
	// terminal does; the session starts once they are answered.
	tm.in.Write([]byte("\x1b]11;rgb:0000/0000/0000\x07\x1b[?62;22c"))
	return tm
}

// waitFor waits until the session's output holds every text.
// reset forgets what the session has shown so far, so the next wait sees
// only what comes after.
func (tm *term) reset() {
	tm.mu.Lock()
	defer tm.mu.Unlock()
	tm.out.Reset()
}

func (tm *term) waitFor(texts ...string) {
	tm.t.Helper()
	waitfor.Texts(tm.t, 15*time.Second, func() string {
		tm.mu.Lock()
		defer tm.mu.Unlock()
		return tm.out.String()
	}, texts...)
}

func TestServerRefusesUnknownKeysAndPasswords(t *testing.T) {
	ts := startTestServer(t, nil)
	if _, err := ts.dial("mallory"); err == nil {
		t.Fatal("an unknown key got in")
	}
	if _, err := ts.dial("alice", gossh.Password("hunter2")); err == nil {
		t.Fatal("a password got in")
	}
	answer := gossh.KeyboardInteractive(func(string, string, []string, []bool) ([]string, error) { return []string{"x"}, nil })
	if _, err := ts.dial("alice", answer); err == nil {
		t.Fatal("keyboard-interactive got in")
	}
}

func TestServerLimitGarbageAndGoodbye(t *testing.T) {
	ts := startTestServer(t, func(c *Config) { c.MaxSessions = 2 })
	alice := ts.open("alice")
	bob := ts.open("bob")
	bob.waitFor("in the room (2)", "▶ alice operator driving")
	full := ts.open("alice")
	full.waitFor("the room is full (2 sessions)")
	<-full.ended
	// bob sends garbage (broken escapes, a huge paste) and vanishes mid-frame.
	bob.in.Write([]byte("\x1b[\x1b]0;\x07\xff\xfe" + strings.Repeat("j", 1<<16)))
	alice.reset() // she read "in the room (1)" before bob joined
	bob.client.Close()
	alice.waitFor("in the room (1)")
	deadline := time.Now().Add(15 * time.Second)
	for ts.srv.Feeds()[0].Sessions() != 1 {
		if time.Now().After(deadline) {
			t.Fatalf("the feed still serves %d sessions after bob left, want 1", ts.srv.Feeds()[0].Sessions())
		}
		time.Sleep(10 * time.Millisecond)
	}
	stop, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := ts.srv.Stop(stop); err != nil {
		t.Fatal(err)
	}
	alice.waitFor("poisonwatch serve: server stopping")
}

// A session whose user typed nothing for IdleTimeout, on the session's
// clock, is ended with a message.
func TestServerIdleTimeout(t *testing.T) {
	clk := newSessionClock(t)
	ts := startTestServer(t, func(c *Config) { c.IdleTimeout = 400 * time.Millisecond; c.clock = clk })
	alice := ts.open("alice")
	alice.waitFor("in the room (1)")
	clk.until(t, "the idle watcher starts", func(c *sessionClock) bool { return len(c.tickers) == 1 })
	clk.Advance(400 * time.Millisecond)
	alice.waitFor("idle for 400ms: disconnected")
	<-alice.ended
}
