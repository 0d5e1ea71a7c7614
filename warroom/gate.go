package warroom

import (
	"net"
	"sync"
	"time"

	"github.com/charmbracelet/ssh"
)

// Defaults of the connection gate.
const (
	DefaultHandshakeTimeout = 15 * time.Second
	DefaultMaxUnauthPerAddr = 8
	DefaultMaxUnauth        = 64
)

// gate bounds connections that have not yet opened a session: each must
// finish the handshake and authentication within the handshake timeout,
// and only so many may be at that stage at once, per source address and in
// all, so idle or slow connections cannot hold every descriptor while an
// operator waits.
type gate struct {
	timeout        time.Duration
	perAddr, total int
	log            func(format string, a ...any)

	mu     sync.Mutex
	byAddr map[string]int
	n      int
}

type gateKey struct{}

// admit wraps a new connection, or returns nil (the connection is closed)
// when too many are already waiting.
func (g *gate) admit(ctx ssh.Context, c net.Conn) net.Conn {
	host := c.RemoteAddr().String()
	if h, _, err := net.SplitHostPort(host); err == nil {
		host = h
	}
	g.mu.Lock()
	if g.n >= g.total || g.byAddr[host] >= g.perAddr {
		n, a := g.n, g.byAddr[host]
		g.mu.Unlock()
		g.log("refused connection from %s: %d unauthenticated connections from it, %d in all\n", c.RemoteAddr(), a, n)
		return nil
	}
	g.n++
	g.byAddr[host]++
	g.mu.Unlock()
	gc := &gatedConn{Conn: c, g: g, host: host, until: time.Now().Add(g.timeout)}
	_ = c.SetDeadline(gc.until)
	ctx.SetValue(gateKey{}, gc)
	return gc
}

// through lifts the handshake deadline of the session's connection: it
// authenticated and opened a session.
func (g *gate) through(ctx ssh.Context) {
	if gc, ok := ctx.Value(gateKey{}).(*gatedConn); ok {
		gc.pass()
	}
}

func (g *gate) leave(host string) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.n--
	if g.byAddr[host]--; g.byAddr[host] <= 0 {
		delete(g.byAddr, host)
	}
}

// gatedConn holds its handshake deadline until pass, whatever deadlines
// the SSH server sets on it meanwhile.
type gatedConn struct {
	net.Conn
	g    *gate
	host string

	mu     sync.Mutex
	until  time.Time // zero once passed
	passed bool
	left   bool
}

func (c *gatedConn) pass() {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.passed {
		return
	}
	c.passed, c.until = true, time.Time{}
	_ = c.Conn.SetDeadline(time.Time{})
	c.leaveLocked()
}

func (c *gatedConn) leaveLocked() {
	if !c.left {
		c.left = true
		c.g.leave(c.host)
	}
}

func (c *gatedConn) cap(t time.Time) time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	if !c.until.IsZero() && (t.IsZero() || t.After(c.until)) {
		return c.until
	}
	return t
}

func (c *gatedConn) SetDeadline(t time.Time) error      { return c.Conn.SetDeadline(c.cap(t)) }
func (c *gatedConn) SetReadDeadline(t time.Time) error  { return c.Conn.SetReadDeadline(c.cap(t)) }
func (c *gatedConn) SetWriteDeadline(t time.Time) error { return c.Conn.SetWriteDeadline(c.cap(t)) }

func (c *gatedConn) Close() error {
	c.mu.Lock()
	c.leaveLocked()
	c.mu.Unlock()
	return c.Conn.Close()
}
