package warroom

import (
	"io"
	"sync/atomic"
	"time"
)

// Input bounds of a session: far above typing and key repeat (a few dozen
// keys a second) and a pasted path or filter, far below a flood, in which
// every byte is a key the dashboard handles and redraws for.
const (
	inputRate  = 512  // bytes per second, sustained
	inputBurst = 4096 // bytes at once
)

// inputReader is a session's keyboard: it notes when the user last typed
// (the idle timeout) and holds reads to inputRate, so one session flooding
// keys waits on its own connection (SSH flow control pushes back to the
// client) instead of taking a core from everyone else.
type inputReader struct {
	r     io.Reader
	last  *atomic.Int64
	rate  float64 // bytes per second
	burst float64
	now   func() time.Time
	sleep func(time.Duration)

	tokens float64
	at     time.Time
}

func newInputReader(r io.Reader, last *atomic.Int64, clk clock) *inputReader {
	return &inputReader{r: r, last: last, rate: inputRate, burst: inputBurst, now: clk.Now, sleep: clk.Sleep, tokens: inputBurst}
}

func (t *inputReader) Read(p []byte) (int, error) {
	t.refill()
	for t.tokens < 1 {
		t.sleep(time.Duration((1 - t.tokens) / t.rate * float64(time.Second)))
		t.refill()
	}
	if n := int(t.tokens); len(p) > n {
		p = p[:n]
	}
	n, err := t.r.Read(p)
	if n > 0 {
		t.tokens -= float64(n)
		t.last.Store(t.now().UnixNano())
	}
	return n, err
}

func (t *inputReader) refill() {
	now := t.now()
	if !t.at.IsZero() {
		t.tokens = min(t.burst, t.tokens+now.Sub(t.at).Seconds()*t.rate)
	}
	t.at = now
}
