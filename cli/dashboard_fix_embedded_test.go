package cli

import (
	"testing"

	"github.com/poisonwatch/poisonwatch/backend/embedded"
	"github.com/poisonwatch/poisonwatch/backend/embedded/embeddedtest"
	"github.com/poisonwatch/poisonwatch/mqwatch"
)

// waitingStub is a connector in front of a queue manager, as the demo's.
type waitingStub struct {
	mqwatch.Connector
	qm *embedded.QMgr
}

func (w waitingStub) Embedded() *embedded.QMgr { return w.qm }

// TestEmbeddedOfFindsTheDemosQueueManagers: the demo's connectors wait for
// their queue manager; the fix path must still find it to start its
// command server (without it every x, I and ctrl+n timed out in the demo).
func TestEmbeddedOfFindsTheDemosQueueManagers(t *testing.T) {
	qm := embeddedtest.New(t, embeddedtest.Options{Name: "QM1"}).QMgr
	if embeddedOf(qm) != qm || embeddedOf(waitingStub{qm, qm}) != qm || embeddedOf(nil) != nil {
		t.Fatal("embeddedOf missed a queue manager")
	}
}
