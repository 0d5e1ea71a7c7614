package conformance

import (
	"context"
	"testing"
	"time"

	"github.com/poisonwatch/poisonwatch/mqwatch"
	"github.com/poisonwatch/poisonwatch/mqwatch/pcf"
)

// TestEmbeddedThroughPCF holds the IBM MQ backend's PCF path to the suite:
// every inquiry (DISPLAY QUEUE, QSTATUS, handle status and DISPLAY CONN)
// goes as a PCF command to the embedded queue manager's command server and
// its answer is read as the IBM MQ backend reads a real one.
func TestEmbeddedThroughPCF(t *testing.T) {
	b := newEmbeddedBackend()
	srv, err := b.qm.StartCommandServer()
	if err != nil {
		t.Fatal(err)
	}
	defer func() {
		if err := srv.Stop(); err != nil {
			t.Errorf("command server: %v", err)
		}
	}()
	Run(t, &pcfBackend{embeddedBackend: b, via: &pcf.Connector{Connector: b.qm, Wait: 10 * time.Second}})
}

// pcfBackend is the embedded backend whose connections inquire through PCF.
type pcfBackend struct {
	*embeddedBackend
	via *pcf.Connector
}

func (b *pcfBackend) Connect(ctx context.Context, o mqwatch.ConnectOptions) (mqwatch.Conn, error) {
	return b.via.Connect(ctx, o)
}

// BreakConnection breaks the wrapped connection.
func (b *pcfBackend) BreakConnection(c mqwatch.Conn) error {
	if pc, ok := c.(*pcf.Conn); ok {
		c = pc.Conn
	}
	return b.qm.Break(c)
}
