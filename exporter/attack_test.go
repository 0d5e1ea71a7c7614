//go:build unix

package exporter

import (
	"bufio"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// manyQueues defines n input queues with long names: a /metrics of a few
// hundred KB.
func manyQueues(n int) string {
	var b strings.Builder
	b.WriteString(envScript)
	for i := range n {
		fmt.Fprintf(&b, "DEFINE QLOCAL(APP.%04d.A.RATHER.LONG.QUEUE.NAME.FOR.SIZE)\n", i)
	}
	return b.String()
}

// smallBuffers gives every accepted connection a small send buffer, so a
// response of a few hundred KB fills it as a 24 MB one fills the default.
// With answering set, it says once per connection when the server starts
// writing an answer on it: the request holds an in-flight slot.
type smallBuffers struct {
	net.Listener
	answering chan<- struct{}
}

func (l smallBuffers) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if tc, ok := c.(*net.TCPConn); ok {
		tc.SetWriteBuffer(8 << 10)
	}
	if err != nil || l.answering == nil {
		return c, err
	}
	return &answeringConn{Conn: c, answering: l.answering}, nil
}

type answeringConn struct {
	net.Conn
	answering chan<- struct{}
	once      sync.Once
}

func (c *answeringConn) Write(p []byte) (int, error) {
	c.once.Do(func() { c.answering <- struct{}{} })
	return c.Conn.Write(p)
}

// dialSmall connects with a 4 KB receive buffer, set before the handshake
// so the window the server sees is small too.
func dialSmall(t *testing.T, addr string) net.Conn {
	t.Helper()
	d := net.Dialer{Control: func(_, _ string, rc syscall.RawConn) error {
		return rc.Control(func(fd uintptr) { syscall.SetsockoptInt(int(fd), syscall.SOL_SOCKET, syscall.SO_RCVBUF, 4<<10) })
	}}
	c, err := d.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// Issue 25 item 10: 8 scrapers that send GET /metrics and never read held
// every in-flight slot for as long as they kept the connection, and
// Prometheus got 503. Now each is cut once it leaves a write unread for
// StallTimeout, and a real scrape gets its answer.
func TestScrapersThatNeverReadAreCutOff(t *testing.T) {
	e := newEnvScript(t, manyQueues(400), Config{StallTimeout: 300 * time.Millisecond, WriteTimeout: 5 * time.Second}, fillTrouble)
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	answering := make(chan struct{}, 16)
	go e.exp.Serve(e.ctx, smallBuffers{l, answering})
	url := "http://" + l.Addr().String() + "/metrics"

	for range 8 {
		c := dialSmall(t, l.Addr().String())
		defer c.Close()
		fmt.Fprintf(c, "GET /metrics HTTP/1.1\r\nHost: %s\r\nAccept-Encoding: identity\r\n\r\n", l.Addr())
	}
	for range 8 { // every attacker holds its slot
		select {
		case <-answering:
		case <-time.After(10 * time.Second): // a bound for a broken build
			t.Fatal("the 8 scrapers that never read are not all being answered")
		}
	}

	// A real scrape: within a few stalls it must get the whole answer.
	start := time.Now()
	var last string
	for time.Since(start) < 3*time.Second {
		resp, err := http.Get(url)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		last = resp.Status
		if resp.StatusCode == http.StatusOK {
			if !strings.Contains(string(body), `queue="APP.0399.A.RATHER.LONG.QUEUE.NAME.FOR.SIZE"`) {
				t.Fatalf("the scrape's answer is cut short (%d bytes)", len(body))
			}
			t.Logf("a real scrape answered %s after 8 scrapers stopped reading a %d KB response",
				time.Since(start).Round(10*time.Millisecond), len(body)>>10)
			break
		}
		time.Sleep(50 * time.Millisecond)
	}
	if last != "200 OK" {
		t.Fatalf("a real scrape still gets %s 3s after 8 scrapers stopped reading", last)
	}
}

// A scraper that reads slowly but keeps reading is not cut off.
func TestSlowScraperThatKeepsReadingIsServed(t *testing.T) {
	e := newEnvScript(t, manyQueues(400), Config{StallTimeout: 300 * time.Millisecond, WriteTimeout: 10 * time.Second}, fillTrouble)
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go e.exp.Serve(e.ctx, smallBuffers{Listener: l})
	c := dialSmall(t, l.Addr().String())
	defer c.Close()
	fmt.Fprintf(c, "GET /metrics HTTP/1.1\r\nHost: %s\r\nAccept-Encoding: identity\r\nConnection: close\r\n\r\n", l.Addr())
	r := bufio.NewReaderSize(c, 4<<10)
	resp, err := http.ReadResponse(r, nil)
	if err != nil {
		t.Fatal(err)
	}
	var body strings.Builder
	buf := make([]byte, 32<<10)
	for {
		n, err := resp.Body.Read(buf)
		body.Write(buf[:n])
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("after %d bytes: %v", body.Len(), err)
		}
		time.Sleep(20 * time.Millisecond) // slow, never stalled for 300ms
	}
	if !strings.Contains(body.String(), `queue="APP.0399.A.RATHER.LONG.QUEUE.NAME.FOR.SIZE"`) {
		t.Errorf("the slow scraper's answer is cut short (%d bytes)", body.Len())
	}
}
