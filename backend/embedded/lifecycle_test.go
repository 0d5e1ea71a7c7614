package embedded

import (
	"testing"

	"github.com/poisonwatch/poisonwatch/codec/mqfmt"
	"github.com/poisonwatch/poisonwatch/mqwatch"
)

// A stopped queue manager breaks its connections and refuses new ones with
// 2059; started again, it accepts them and still holds its messages.
func TestStopAndStart(t *testing.T) {
	f := newFixture(t, "DEFINE QLOCAL(Q)")
	c := f.connect("")
	q := f.open(c, "Q", inOut)
	f.put(q, "kept", 0, false)
	f.put(q, "in flight", 0, true)
	f.qm.Stop()
	if f.qm.Running() {
		t.Fatal("Running after Stop")
	}
	_, err := c.QMgr(f.ctx)
	wantRC(t, err, mqfmt.RCConnectionBroken)
	_, err = f.qm.Connect(f.ctx, mqwatch.ConnectOptions{})
	wantRC(t, err, mqfmt.RCQMgrNotAvailable)
	f.qm.Start()
	if !f.qm.Running() {
		t.Fatal("not Running after Start")
	}
	if st := f.status("Q"); st.Depth != 1 || st.Uncommitted != 0 {
		t.Fatalf("after a restart: %+v; want the committed message only", st)
	}
}
