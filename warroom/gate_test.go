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

// waiting is how many connections wait at the gate, not yet in a session:
// silent ones when silent, else those that spoke.
func (g *gate) waiting(stage int32) int {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.count("", stage)
}

// dial opens n connections to the server; talk says the SSH version line
// on each (a client that then stalls) before the next is opened.
func dial(t *testing.T, ts *testServer, n int, talk bool) []net.Conn {
	t.Helper()
	var out []net.Conn
	for range n {
		c, err := net.Dial("tcp", ts.addr)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { c.Close() })
		out = append(out, c)
		if !talk {
			waitGate(t, ts, silent, min(len(out), ts.srv.gate.perAddr*silentShare))
			continue
		}
		c.Write([]byte("SSH-2.0-stalling\r\n"))
		waitGate(t, ts, talking, min(len(out), ts.srv.gate.perAddr))
	}
	return out
}

// waitGate waits until n connections wait at the gate at stage.
func waitGate(t *testing.T, ts *testServer, stage int32, n int) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for ts.srv.gate.waiting(stage) != n {
		if time.Now().After(deadline) {
			t.Fatalf("%d connections at the gate, want %d", ts.srv.gate.waiting(stage), n)
		}
		time.Sleep(time.Millisecond)
	}
}

// Connections that never authenticate are closed after the handshake
// timeout (silent ones when they have said nothing for as long); beyond
// the cap per address the oldest of those that spoke is closed for each
// newcomer, and beyond the silent share the oldest silent one, so the count
// from one address stays at the cap; a session that got in before them
// lives past their handshake timeout.
func TestServerHandshakeTimeoutAndUnauthenticatedCap(t *testing.T) {
	ts := startTestServer(t, func(c *Config) { c.HandshakeTimeout = time.Second; c.MaxUnauthPerAddr = 3 })
	alice := ts.open("alice")
	alice.waitFor("in the room (1)")
	talkers := dial(t, ts, 4, true)
	if !closedWithin(talkers[0], 300*time.Millisecond) {
		t.Fatal("a fourth unauthenticated connection from one address left the oldest open")
	}
	quiet := dial(t, ts, 3*silentShare+1, false)
	if !closedWithin(quiet[0], 300*time.Millisecond) {
		t.Fatal("a silent connection beyond the silent share left the oldest open")
	}
	for i, c := range append(talkers[1:], quiet[1:]...) {
		if !closedWithin(c, 5*time.Second) {
			t.Fatalf("waiting connection %d still open after the handshake timeout", i+1)
		}
	}
	// alice's connection is older than the idle ones, closed for their age.
	alice.reset()
	alice.in.Write([]byte("?"))
	alice.waitFor("Keys on this screen")
}

// TestServerFloodFromOneAddressLetsKeysIn: while one address floods the
// server (a scanner behind the NAT the operators share) with connections
// that say nothing, as fast as it can, or that say their version and stall,
// an operator from that address still logs in, and the flood holds no more
// than the caps.
func TestServerFloodFromOneAddressLetsKeysIn(t *testing.T) {
	for _, talk := range []bool{false, true} {
		t.Run(map[bool]string{false: "silent", true: "stalling"}[talk], func(t *testing.T) {
			ts := startTestServer(t, func(c *Config) { c.MaxUnauthPerAddr = 4 })
			stop := make(chan struct{})
			flooded := make(chan int)
			if talk {
				dial(t, ts, 10, true) // held: the cap is full before alice comes
				close(stop)
				go func() { flooded <- 10 }()
			} else {
				go silentFlood(ts.addr, stop, flooded)
				waitGate(t, ts, silent, 4*silentShare)
			}
			alice := ts.open("alice")
			alice.waitFor("in the room (1)")
			if !talk {
				close(stop)
			}
			if n := <-flooded; n <= 4 {
				t.Fatalf("the flood opened %d connections, not enough to fill the cap of 4", n)
			}
			if w := ts.srv.gate.waiting(talking); w > 4 {
				t.Fatalf("%d connections that spoke wait at the gate, over the cap of 4", w)
			}
		})
	}
}

// silentFlood opens connections that say nothing until stop, as fast as
// it can, and says how many.
func silentFlood(addr string, stop chan struct{}, flooded chan<- int) {
	n := 0
	var held []net.Conn
	defer func() {
		for _, c := range held {
			c.Close()
		}
		flooded <- n
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
		held, n = append(held, c), n+1
		if len(held) > 200 { // the server closed the old ones: keep our descriptors few
			held[0].Close()
			held = held[1:]
		}
	}
}

// TestGateClosesTheLeastAdvancedForANewcomer: over a cap, the connection
// closed for a newcomer is the oldest of its kind: silent for a silent
// one; for one that spoke, the oldest that spoke without offering an
// authorized key, never one that offered a key.
func TestGateClosesTheLeastAdvancedForANewcomer(t *testing.T) {
	at := func(stage int32, age int) *gatedConn {
		c := &gatedConn{born: time.Unix(0, 0).Add(-time.Duration(age) * time.Second)}
		if stage == negotiating {
			stage = talking
			c.read.Store(kexBytes)
		}
		c.stage.Store(stage)
		return c
	}
	for _, tc := range []struct {
		name  string
		stage int32
		conns []*gatedConn
		want  int // index of the connection closed, -1: none (refused)
	}{
		{"oldest silent", silent, []*gatedConn{at(silent, 1), at(silent, 3), at(talking, 9)}, 1},
		{"a talker is never closed for a silent one", silent, []*gatedConn{at(talking, 9)}, -1},
		{"oldest talking", talking, []*gatedConn{at(talking, 2), at(offered, 9), at(talking, 5), at(silent, 7)}, 2},
		{"one that only said its version before one negotiating", talking, []*gatedConn{at(negotiating, 9), at(talking, 1)}, 1},
		{"oldest negotiating when none only talks", talking, []*gatedConn{at(negotiating, 3), at(negotiating, 8), at(offered, 9)}, 1},
		{"never one that offered a key", talking, []*gatedConn{at(offered, 1), at(offered, 7)}, -1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := leastDone(tc.conns, tc.stage, nil)
			want := (*gatedConn)(nil)
			if tc.want >= 0 {
				want = tc.conns[tc.want]
			}
			if got != want {
				t.Fatalf("closed %v, want index %d", got, tc.want)
			}
		})
	}
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
