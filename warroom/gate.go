package warroom

import (
	"maps"
	"net"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/charmbracelet/ssh"
	gossh "golang.org/x/crypto/ssh"
)

// Defaults of the connection gate.
const (
	DefaultHandshakeTimeout = 15 * time.Second
	DefaultMaxUnauthPerAddr = 8
	DefaultMaxUnauth        = 64
)

// A client speaks first (its SSH version line) as soon as it connects; a
// connection silent for speakWithin is no client. Until it speaks it
// waits apart, silentShare times as many per address and in all as the
// caps allow, costing a descriptor and a parked goroutine.
const (
	speakWithin = 5 * time.Second
	silentShare = 8
)

// gate bounds connections that have not yet authenticated: each must
// finish the handshake and open its session within the handshake timeout,
// and only so many may wait at once, per source address and in all, so
// idle or slow connections cannot hold every descriptor while an operator
// waits.
//
// Caps that refused newcomers would let a flood from one address (a
// scanner behind the bastion or NAT the operators share) keep everyone
// there out. So a connection is counted only once it speaks (until then it
// waits apart, where a flood of silent sockets stays), and a newcomer over
// a cap is let in by closing the waiting connection that has done least:
// the oldest silent one, or among those that spoke, the oldest of those
// that said only their version, then of those that sent their key
// exchange. One that offered an authorized key is never closed for a
// newcomer (the newcomer is refused when all have), and one that proved
// its key no longer counts. A flood has to go as far as an operator's
// client goes, as fast as it goes, to crowd it out.
type gate struct {
	timeout        time.Duration
	perAddr, total int
	log            func(format string, a ...any)

	mu     sync.Mutex
	byAddr map[string][]*gatedConn // waiting, oldest first
}

// How far a waiting connection has got.
const (
	silent      = iota // nothing read from it yet
	talking            // it said its version, and no more
	negotiating        // it sent its key exchange, no authorized key yet
	offered            // it offered an authorized key, not yet proved
)

// kexBytes is more than the longest version line (255 bytes with its
// CRLF): a connection that sent more is negotiating.
const kexBytes = 300

type gateKey struct{}

// admit lets a new connection wait for its first words apart, then counts
// it, making room if a cap is reached. It returns nil (the connection is
// closed) for a connection that says nothing, or when every connection
// that would make room has offered an authorized key.
func (g *gate) admit(ctx ssh.Context, c net.Conn) net.Conn {
	host := c.RemoteAddr().String()
	if h, _, err := net.SplitHostPort(host); err == nil {
		host = h
	}
	now := time.Now()
	gc := &gatedConn{Conn: c, g: g, host: host, born: now, until: now.Add(g.timeout)}
	if victim := g.enter(gc, silent, g.perAddr*silentShare, g.total*silentShare); victim != nil {
		victim.Conn.Close() // silent: no client, nothing worth a log line in a flood
	}
	if !gc.hear(min(speakWithin, g.timeout)) {
		g.leave(gc)
		return nil
	}
	victim, fromIt, n := g.speaks(gc)
	switch {
	case victim == gc:
		g.log("refused connection from %s: %d unauthenticated connections from it, %d in all, each offering an authorized key\n", c.RemoteAddr(), fromIt, n)
		return nil
	case victim != nil:
		g.log("closed connection from %s (it offered no authorized key) to let a new one in: %d unauthenticated connections from its address, %d in all\n",
			victim.RemoteAddr(), fromIt, n)
		victim.Conn.Close()
	}
	_ = c.SetDeadline(gc.until)
	ctx.SetValue(gateKey{}, gc)
	return gc
}

// enter adds gc at stage, first taking out (and returning, to close) the
// connection that makes room when those at stage from its address or in
// all number perAddr or total.
func (g *gate) enter(gc *gatedConn, stage int32, perAddr, total int) *gatedConn {
	g.mu.Lock()
	defer g.mu.Unlock()
	victim := g.roomFor(gc, stage, perAddr, total)
	if victim != nil {
		g.leaveLocked(victim)
	}
	gc.stage.Store(stage)
	g.byAddr[gc.host] = append(g.byAddr[gc.host], gc)
	return victim
}

// speaks counts gc among the connections that spoke. victim is the
// connection taken out to make room, gc itself when none may be (gc is
// out then); fromIt and n are the counts from gc's address and in all.
func (g *gate) speaks(gc *gatedConn) (victim *gatedConn, fromIt, n int) {
	g.mu.Lock()
	defer g.mu.Unlock()
	fromIt, n = g.count(gc.host, talking), g.count("", talking)
	full := fromIt >= g.perAddr || n >= g.total
	victim = g.roomFor(gc, talking, g.perAddr, g.total)
	if full && victim == nil {
		victim = gc
	}
	if victim != nil {
		g.leaveLocked(victim)
	}
	if victim != gc {
		gc.stage.Store(talking)
	}
	return victim, fromIt, n
}

// roomFor is the connection to close so that gc may count at stage (nil:
// there is room, or nothing may be closed): from gc's address when it has
// perAddr at that stage or beyond, else from anywhere when there are total.
func (g *gate) roomFor(gc *gatedConn, stage int32, perAddr, total int) *gatedConn {
	switch {
	case g.count(gc.host, stage) >= perAddr:
		return leastDone(g.byAddr[gc.host], stage, gc)
	case g.count("", stage) >= total:
		return leastDone(slices.Concat(slices.Collect(maps.Values(g.byAddr))...), stage, gc)
	}
	return nil
}

// count is how many connections wait from host ("": from anywhere) at
// stage: silent ones, or (talking) those that spoke.
func (g *gate) count(host string, stage int32) int {
	n := 0
	for h, cs := range g.byAddr {
		if host != "" && h != host {
			continue
		}
		for _, c := range cs {
			if (c.stage.Load() == silent) == (stage == silent) {
				n++
			}
		}
	}
	return n
}

// leastDone is the connection among cs to close for gc: at stage silent,
// the oldest silent one; else, among those that spoke, the oldest of those
// that got least far (said only their version, then sent their key
// exchange), never one that offered an authorized key (nil when all did).
func leastDone(cs []*gatedConn, stage int32, gc *gatedConn) *gatedConn {
	var best *gatedConn
	var bestAt int32
	for _, c := range cs {
		at := c.progress()
		if c == gc || at == offered || (at == silent) != (stage == silent) {
			continue
		}
		if best == nil || at < bestAt || at == bestAt && c.born.Before(best.born) {
			best, bestAt = c, at
		}
	}
	return best
}

// progress is how far c has got.
func (c *gatedConn) progress() int32 {
	s := c.stage.Load()
	if s == talking && c.read.Load() >= kexBytes {
		return negotiating
	}
	return s
}

// gateOf is the gated connection of a connection's context, nil for none.
func gateOf(ctx interface{ Value(any) any }) *gatedConn {
	gc, _ := ctx.Value(gateKey{}).(*gatedConn)
	return gc
}

// keyOffered notes that the connection offered an authorized key: it is
// no longer closed to make room for a newcomer.
func (g *gate) keyOffered(ctx ssh.Context) {
	if gc := gateOf(ctx); gc != nil {
		gc.stage.Store(offered)
	}
}

// serverConfig is the SSH configuration of one connection: a key proved
// takes the connection out of the gate's counts (its handshake deadline
// holds until its session opens).
func (g *gate) serverConfig(ctx ssh.Context) *gossh.ServerConfig {
	return &gossh.ServerConfig{AuthLogCallback: func(_ gossh.ConnMetadata, method string, err error) {
		if gc := gateOf(ctx); gc != nil && method == "publickey" && err == nil {
			g.leave(gc)
		}
	}}
}

// through lifts the handshake deadline of the session's connection: it
// authenticated and opened a session.
func (g *gate) through(ctx ssh.Context) {
	if gc := gateOf(ctx); gc != nil {
		gc.pass()
	}
}

func (g *gate) leave(c *gatedConn) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.leaveLocked(c)
}

func (g *gate) leaveLocked(c *gatedConn) {
	if c.left {
		return
	}
	c.left = true
	cs := slices.DeleteFunc(g.byAddr[c.host], func(x *gatedConn) bool { return x == c })
	if len(cs) == 0 {
		delete(g.byAddr, c.host)
	} else {
		g.byAddr[c.host] = cs
	}
}

// gatedConn holds its handshake deadline until pass, whatever deadlines
// the SSH server sets on it meanwhile.
type gatedConn struct {
	net.Conn
	g     *gate
	host  string
	born  time.Time    // when it connected
	stage atomic.Int32 // silent, talking or offered; progress tells negotiating
	read  atomic.Int64 // bytes read from it
	left  bool         // guarded by g.mu: out of the gate's counts
	heard []byte       // its first words, read by hear, given to the first Read

	mu     sync.Mutex
	until  time.Time // zero once passed
	passed bool
}

// hear waits up to d for the connection's first words and keeps them.
func (c *gatedConn) hear(d time.Duration) bool {
	_ = c.Conn.SetReadDeadline(time.Now().Add(d))
	buf := make([]byte, 512)
	n, _ := c.Conn.Read(buf)
	c.heard = buf[:n]
	c.read.Add(int64(n))
	return n > 0
}

func (c *gatedConn) Read(p []byte) (int, error) {
	if len(c.heard) > 0 {
		n := copy(p, c.heard)
		c.heard = c.heard[n:]
		return n, nil
	}
	n, err := c.Conn.Read(p)
	c.read.Add(int64(n))
	return n, err
}

func (c *gatedConn) pass() {
	c.mu.Lock()
	if c.passed {
		c.mu.Unlock()
		return
	}
	c.passed, c.until = true, time.Time{}
	_ = c.Conn.SetDeadline(time.Time{})
	c.mu.Unlock()
	c.g.leave(c)
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
	c.g.leave(c)
	return c.Conn.Close()
}
