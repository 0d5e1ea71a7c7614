package warroom

import (
	"bytes"
	"strings"
	"sync"
	"testing"
	"time"

	gossh "golang.org/x/crypto/ssh"
	"golang.org/x/crypto/ssh/agent"

	"github.com/poisonwatch/poisonwatch/internal/waitfor"
)

// syncBuffer is a server log the test reads while the server writes it.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// addKey authorizes a new key for name with the line's options.
func addKey(t *testing.T, signers map[string]gossh.Signer, c *Config, name, options string) {
	t.Helper()
	signers[name] = newSigner(t)
	line := options + " " + strings.TrimSpace(string(gossh.MarshalAuthorizedKey(signers[name].PublicKey()))) + " " + name + " role=operator"
	ks, err := ParseAuthorizedKeys([]byte(strings.TrimSpace(line)))
	if err != nil {
		t.Fatal(err)
	}
	c.Keys[gossh.FingerprintSHA256(ks[0].Key)] = ks[0]
}

// A key that expired in 2000 and a key whose from= excludes the client's
// address do not log in; each refusal is logged with the key's fingerprint,
// the address and why. A key whose from= allows the address does.
func TestServerHonoursFromAndExpiryAndLogsRefusals(t *testing.T) {
	log := &syncBuffer{}
	extra := map[string]gossh.Signer{}
	ts := startTestServer(t, func(c *Config) {
		c.Log = log
		addKey(t, extra, c, "old", `expiry-time="20000101"`)
		addKey(t, extra, c, "far", `from="10.0.0.0/8"`)
		addKey(t, extra, c, "near", `from="127.0.0.*,!10.9.9.9"`)
	})
	for n, s := range extra {
		ts.signers[n] = s
	}
	for _, name := range []string{"old", "far"} {
		if c, err := ts.dial(name); err == nil {
			c.Close()
			t.Fatalf("%s logged in", name)
		}
	}
	c, err := ts.dial("near")
	if err != nil {
		t.Fatalf("near: %v", err)
	}
	c.Close()
	waitfor.Texts(t, 5*time.Second, log.String,
		"login refused: ssh-ed25519 "+gossh.FingerprintSHA256(ts.signers["old"].PublicKey())+" from 127.0.0.1:",
		"expired 2000-01-01",
		"login refused: ssh-ed25519 "+gossh.FingerprintSHA256(ts.signers["far"].PublicKey()),
		"from=10.0.0.0/8 does not allow 127.0.0.1:")
}

// A client that asks to forward its agent is refused before the dashboard
// starts.
func TestServerRefusesAgentForwarding(t *testing.T) {
	ts := startTestServer(t, nil)
	c, err := ts.dial("alice")
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	s, err := c.NewSession()
	if err != nil {
		t.Fatal(err)
	}
	var out syncBuffer
	s.Stdout, s.Stderr = &out, &out
	if err := agent.RequestAgentForwarding(s); err != nil {
		t.Fatal(err)
	}
	if err := s.RequestPty("xterm", 40, 120, gossh.TerminalModes{}); err != nil {
		t.Fatal(err)
	}
	if err := s.Shell(); err != nil {
		t.Fatal(err)
	}
	waitfor.Texts(t, 10*time.Second, out.String, "agent forwarding is refused")
	s.Wait()
	if n := len(ts.srv.Room().Members()); n != 0 {
		t.Fatalf("%d seats taken after the refusal", n)
	}
}
