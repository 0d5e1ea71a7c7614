package warroom

import (
	"runtime"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	"github.com/poisonwatch/poisonwatch/internal/waitfor"
)

// sizeModel records the last size its program gave it.
type sizeModel struct{ w, h *int }

func (m sizeModel) Init() tea.Cmd { return nil }
func (m sizeModel) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	if s, ok := msg.(tea.WindowSizeMsg); ok {
		*m.w, *m.h = s.Width, s.Height
	}
	return m, nil
}
func (m sizeModel) View() string { return "" }

func TestClampSizeBoundsEveryResize(t *testing.T) {
	var w, h int
	m := clampSize{sizeModel{&w, &h}}
	for _, tc := range []struct{ in, want [2]int }{
		{[2]int{100000, 100000}, [2]int{maxWidth, maxHeight}},
		{[2]int{200, 60}, [2]int{200, 60}},
		{[2]int{-5, 0}, [2]int{1, 1}},
	} {
		m.Update(tea.WindowSizeMsg{Width: tc.in[0], Height: tc.in[1]})
		if [2]int{w, h} != tc.want {
			t.Errorf("resize to %v gave the dashboard %dx%d, want %v", tc.in, w, h, tc.want)
		}
	}
}

// A viewer claiming a huge window gets frames no wider than the clamp, and
// the session (and the server) live on.
func TestServerClampsAViewersHugeWindow(t *testing.T) {
	ts := startTestServer(t, nil)
	bob := ts.open("bob")
	bob.waitFor("in the room (1)")
	bob.reset()
	if err := bob.sess.WindowChange(3000, 5000); err != nil {
		t.Fatal(err)
	}
	// The whole frame: as many lines as the clamp's height, down to the
	// footer on the last.
	var out string
	waitfor.Texts(t, 15*time.Second, func() string {
		bob.mu.Lock()
		out = ansi.Strip(bob.out.String())
		bob.mu.Unlock()
		lines := strings.Split(out, "\n")
		if len(lines) >= maxHeight && strings.Contains(strings.Join(lines[maxHeight-1:], "\n"), "q quit") {
			return "whole"
		}
		return ""
	}, "whole")
	widest := 0
	for _, l := range strings.Split(out, "\n") {
		widest = max(widest, ansi.StringWidth(l))
	}
	if widest > maxWidth {
		t.Fatalf("a line %d cells wide after a 5000-column resize; the clamp is %d", widest, maxWidth)
	}
	if len(out) > 4<<20 {
		t.Fatalf("a %d-byte frame", len(out))
	}
	bob.reset()
	bob.in.Write([]byte("?"))
	bob.waitFor("Keys on this screen")
}

// A session without a terminal is refused before it takes a seat or one of
// MaxSessions, while its connection stays open, and starts no idle timer.
func TestServerNoPTYSessionTakesNoSeat(t *testing.T) {
	clk := newSessionClock(t)
	ts := startTestServer(t, func(c *Config) { c.MaxSessions = 1; c.IdleTimeout = 200 * time.Millisecond; c.clock = clk })
	c, err := ts.dial("alice")
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	for i := 0; i < 3; i++ {
		s, err := c.NewSession()
		if err != nil {
			t.Fatal(err)
		}
		out, _ := s.CombinedOutput("")
		if !strings.Contains(string(out), "needs a terminal") {
			t.Fatalf("no-PTY session said %q", out)
		}
	}
	if n := len(ts.srv.Room().Members()); n != 0 {
		t.Fatalf("%d seats held by refused sessions", n)
	}
	clk.mu.Lock()
	started := clk.started
	clk.mu.Unlock()
	if started != 0 {
		t.Fatalf("%d idle timers started for refused sessions", started)
	}
	alice := ts.open("alice")
	alice.waitFor("in the room (1)")
	clk.until(t, "alice's idle timer starts", func(c *sessionClock) bool { return c.started == 1 })
}

// Sessions that connect and leave give everything back: after N of them the
// goroutines and the live heap are where one session's left them.
func TestServerSessionsLeaveNothingBehind(t *testing.T) {
	if testing.Short() {
		t.Skip("opens 40 sessions")
	}
	ts := startTestServer(t, nil)
	cycle := func() {
		tm := ts.open("bob")
		tm.waitFor("in the room (1)")
		tm.client.Close()
		<-tm.ended
	}
	settle := func() {
		deadline := time.Now().Add(10 * time.Second)
		for len(ts.srv.Room().Members()) != 0 || ts.srv.Feeds()[0].Sessions() != 0 {
			if time.Now().After(deadline) {
				t.Fatalf("%d seats and %d subscriptions after every session left", len(ts.srv.Room().Members()), ts.srv.Feeds()[0].Sessions())
			}
			time.Sleep(10 * time.Millisecond)
		}
	}
	measure := func() (int, uint64) {
		var ms runtime.MemStats
		for range 3 {
			runtime.GC()
		}
		runtime.ReadMemStats(&ms)
		return runtime.NumGoroutine(), ms.HeapAlloc
	}
	cycle()
	settle()
	g0, h0 := measure()
	const n = 40
	for range n {
		cycle()
	}
	settle()
	g, h := measure()
	for deadline := time.Now().Add(10 * time.Second); g > g0+4; g, h = measure() {
		if time.Now().After(deadline) {
			t.Fatalf("%d goroutines after %d sessions left, %d before", g, n, g0)
		}
		time.Sleep(100 * time.Millisecond)
	}
	if h > h0+4<<20 {
		t.Fatalf("live heap %d KB after %d sessions left, %d KB before: %d KB per session", h>>10, n, h0>>10, (h-h0)/n>>10)
	}
	t.Logf("goroutines %d -> %d, heap %d KB -> %d KB after %d sessions", g0, g, h0>>10, h>>10, n)
}
