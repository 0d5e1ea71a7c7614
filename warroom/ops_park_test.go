package warroom

import (
	"context"
	"errors"
	"os"
	"strings"
	"testing"

	"github.com/poisonwatch/poisonwatch/actions"
	"github.com/poisonwatch/poisonwatch/actions/ops"
	"github.com/poisonwatch/poisonwatch/mqwatch"
)

// TestR10h_ParkingQueueViewerRefusedOperatorDefinesAndMoves: the define a
// move's ctrl+n sends is refused to a viewer (nothing defined); an
// operator's defines the queue LIKE the DEADQ, audited with the SSH
// identity, and the move then puts the dead letters on it.
func TestR10h_ParkingQueueViewerRefusedOperatorDefinesAndMoves(t *testing.T) {
	e := newOpsEnv(t)
	for r, ops := range e.engines {
		e.engines[r] = fixEngineOps{ops.(engineOps)}
	}
	srv, err := e.qm.StartCommandServer()
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Stop()
	ctx := context.Background()
	c, err := e.qm.Connect(ctx, mqwatch.ConnectOptions{ApplName: "park"})
	if err != nil {
		t.Fatal(err)
	}
	qmi, _ := c.QMgr(ctx)
	qs, _ := c.Queues(ctx, "*")
	c.Close()
	plan, err := actions.ParkPlan(actions.ParkInput{QMgr: qmi, Queues: qs, Name: "PARK.Q", MaxDepth: 777})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := e.seat(bob).ApplyFix(ctx, "QM1", plan, ""); !errors.Is(err, ErrViewer) {
		t.Fatalf("viewer define: %v", err)
	}
	if depth(t, e.qm, "QM1.DEADQ") != 3 {
		t.Fatal("dead letters missing")
	}
	op := e.seat(alice)
	if res, err := op.ApplyFix(ctx, "QM1", plan, ""); err != nil || !res.Applied() {
		t.Fatalf("operator define: %+v %v", res, err)
	}
	res, err := op.Run(ctx, ops.OpRequest{Op: ops.OpMove, QMgr: "QM1", Queue: "QM1.DEADQ", All: true, Target: "PARK.Q"}, nil)
	if err != nil || res.Done != 3 {
		t.Fatalf("move: %+v %v", res, err)
	}
	if depth(t, e.qm, "PARK.Q") != 3 || depth(t, e.qm, "QM1.DEADQ") != 0 {
		t.Fatalf("PARK.Q %d, QM1.DEADQ %d", depth(t, e.qm, "PARK.Q"), depth(t, e.qm, "QM1.DEADQ"))
	}
	b, _ := os.ReadFile(e.audit)
	if log := string(b); !strings.Contains(log, `"mqsc":"DEFINE QLOCAL(PARK.Q) LIKE(QM1.DEADQ) MAXDEPTH(777) NOTRIGGER"`) || !strings.Contains(log, `"user":"alice (ssh key SHA256:alicekey)"`) {
		t.Errorf("audit:\n%s", log)
	}
}
