package conformance

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/poisonwatch/poisonwatch/backend/embedded"
	"github.com/poisonwatch/poisonwatch/mqwatch"
)

// TestEmbedded holds the embedded queue manager to the conformance suite.
func TestEmbedded(t *testing.T) {
	Run(t, newEmbeddedBackend())
}

// embeddedBackend adapts the embedded queue manager to Backend, with its
// clock and fault injection as the optional capabilities.
type embeddedBackend struct {
	qm    *embedded.QMgr
	clock *stepClock
}

func (b *embeddedBackend) Connect(ctx context.Context, o mqwatch.ConnectOptions) (mqwatch.Conn, error) {
	return b.qm.Connect(ctx, o)
}

func (b *embeddedBackend) QMgrName() string { return "QM1" }

func (b *embeddedBackend) ApplyMQSC(_ context.Context, script string) error {
	rep, err := b.qm.RunMQSC(strings.NewReader(script))
	if err != nil {
		return fmt.Errorf("%w\n%s", err, rep)
	}
	return nil
}

// BreakConnection is the fault-injection capability.
func (b *embeddedBackend) BreakConnection(c mqwatch.Conn) error { return b.qm.Break(c) }

func (b *embeddedBackend) Now() time.Time          { return b.clock.Now() }
func (b *embeddedBackend) Advance(d time.Duration) { b.clock.Advance(d) }

// stepClock follows the wall clock and can jump forward, so that waits still
// end in real time while expiry and ages can be fast-forwarded.
type stepClock struct {
	mu     sync.Mutex
	offset time.Duration
}

func newStepClock() *stepClock { return &stepClock{} }

func (c *stepClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return time.Now().Add(c.offset)
}

func (c *stepClock) Advance(d time.Duration) {
	c.mu.Lock()
	c.offset += d
	c.mu.Unlock()
}
