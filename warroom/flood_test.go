package warroom

import (
	"strings"
	"sync/atomic"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
)

// endless is a client that never stops typing.
type endless struct{}

func (endless) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = 'j'
	}
	return len(p), nil
}

// A flood of keys reaches the dashboard at the input rate, after one
// burst: the session waits (on a clock that only moves when it sleeps).
func TestInputReaderHoldsAFloodToTheRate(t *testing.T) {
	var last atomic.Int64
	clock := time.Unix(1000, 0)
	r := newInputReader(endless{}, &last, wallClock{})
	r.now = func() time.Time { return clock }
	slept := time.Duration(0)
	r.sleep = func(d time.Duration) { clock = clock.Add(d); slept += d }
	buf := make([]byte, 64<<10)
	got := 0
	for slept < 10*time.Second {
		n, _ := r.Read(buf)
		got += n
	}
	if want := inputBurst + 10*inputRate; got > want+inputRate/10 || got < want-inputRate {
		t.Fatalf("%d bytes in 10 s of flood, want about %d (burst %d + %d/s)", got, want, inputBurst, inputRate)
	}
	if last.Load() == 0 {
		t.Fatal("typing was not noted for the idle timeout")
	}
}

// Typing and a pasted path pass at once.
func TestInputReaderLetsTypingThrough(t *testing.T) {
	var last atomic.Int64
	r := newInputReader(strings.NewReader(":rules /srv/poisonwatch/room/tables/orders-dead-letters.rules\r"), &last, wallClock{})
	r.sleep = func(time.Duration) { t.Fatal("a paste of a path waited") }
	buf := make([]byte, 256)
	if n, _ := r.Read(buf); n != 62 {
		t.Fatalf("read %d bytes", n)
	}
}

// keyCounter is a session's program that counts the keys it is given.
type keyCounter struct{ n *atomic.Int64 }

func (k keyCounter) Init() tea.Cmd { return nil }
func (k keyCounter) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	if m, ok := msg.(tea.KeyMsg); ok {
		k.n.Add(int64(len(m.Runes)))
	}
	return k, nil
}
func (k keyCounter) View() string { return "keys" }

// Over SSH, a session flooding keys is held to the input rate: its program
// is given the burst, then, once the session's clock has moved 3 s, at
// most 3 s worth of keys more, whatever the client sends.
func TestServerHoldsAFloodingSession(t *testing.T) {
	var keys atomic.Int64
	clk := newSessionClock(t)
	ts := startTestServer(t, func(c *Config) {
		c.App = func(Session) (tea.Model, error) { return keyCounter{&keys}, nil }
		c.clock = clk
	})
	bob := ts.open("bob")
	bob.waitFor("keys")
	go bob.in.Write([]byte(strings.Repeat("j", 8<<20)))
	waiting := func(c *sessionClock) bool { return len(c.sleeps) == 1 }
	clk.until(t, "the flood spends the burst and waits", waiting)
	// 3 s in steps, as the wall clock moves: each step lets a few keys in.
	for range 300 {
		clk.Advance(10 * time.Millisecond)
		clk.until(t, "the flood spends the step's keys and waits", waiting)
	}
	// The session read what it will ever read until the clock moves again:
	// the burst, 3 s worth, and the terminal's answers sent at the start.
	most := int64(inputBurst + 3*inputRate)
	deadline := time.Now().Add(15 * time.Second)
	for keys.Load() < most-64 {
		if time.Now().After(deadline) {
			t.Fatalf("only %d keys of the %d read reached the program", keys.Load(), most)
		}
		time.Sleep(5 * time.Millisecond)
	}
	if n := keys.Load(); n > most {
		t.Fatalf("the program was given %d keys in 3 s of flood; the rate allows at most %d", n, most)
	}
}
