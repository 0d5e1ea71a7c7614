package warroom

import (
	"io"
	"net"
	"testing"
	"time"
)

// closedWithin reports whether the server closes c within d (the SSH
// version line it sends first is read and skipped).
func closedWithin(c net.Conn, d time.Duration) bool {
	_ = c.SetReadDeadline(time.Now().Add(d))
	_, err := io.Copy(io.Discard, c)
	ne, timeout := err.(net.Error)
	return !(timeout && ne.Timeout())
}

// waiting is how many connections wait at the gate, not yet in a session.
func (g *gate) waiting() int {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.n
}

// Idle TCP connections that never authenticate are closed after the
// handshake timeout, and beyond the cap per address they are closed at
// once, so an operator gets in while they wait; a session that got in
// before them lives past their handshake timeout.
func TestServerHandshakeTimeoutAndUnauthenticatedCap(t *testing.T) {
	ts := startTestServer(t, func(c *Config) { c.HandshakeTimeout = 500 * time.Millisecond; c.MaxUnauthPerAddr = 3 })
	alice := ts.open("alice")
	alice.waitFor("in the room (1)")
	var idle []net.Conn
	for range 3 {
		c, err := net.Dial("tcp", ts.addr)
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		idle = append(idle, c)
	}
	deadline := time.Now().Add(5 * time.Second)
	for ts.srv.gate.waiting() != 3 {
		if time.Now().After(deadline) {
			t.Fatalf("%d connections at the gate, want the 3 idle ones", ts.srv.gate.waiting())
		}
		time.Sleep(time.Millisecond)
	}
	extra, err := net.Dial("tcp", ts.addr)
	if err != nil {
		t.Fatal(err)
	}
	defer extra.Close()
	if !closedWithin(extra, 300*time.Millisecond) {
		t.Fatal("a fourth unauthenticated connection from one address was kept")
	}
	for i, c := range idle {
		if !closedWithin(c, 3*time.Second) {
			t.Fatalf("idle connection %d still open after the handshake timeout", i)
		}
	}
	// alice's connection is older than the idle ones, closed for their age.
	alice.reset()
	alice.in.Write([]byte("?"))
	alice.waitFor("Keys on this screen")
}

// A session that has lasted MaxTime is ended with a message, typing or not.
func TestServerMaxTime(t *testing.T) {
	clk := newSessionClock(t)
	ts := startTestServer(t, func(c *Config) { c.MaxTime = 700 * time.Millisecond; c.clock = clk })
	alice := ts.open("alice")
	alice.waitFor("in the room (1)")
	clk.until(t, "the session's time limit is set", func(c *sessionClock) bool { return len(c.funcs) == 1 })
	alice.reset()
	alice.in.Write([]byte("?"))
	alice.waitFor("Keys on this screen")
	clk.Advance(700 * time.Millisecond)
	alice.waitFor("connected for 700ms: disconnected")
	<-alice.ended
}
