package warroom

import (
	"context"
	"errors"
	"os"
	"strings"
	"testing"

	"github.com/poisonwatch/poisonwatch/actions/ops"
	"github.com/poisonwatch/poisonwatch/mqwatch"
)

// editEngineOps adds edit and resend to the test's engine adapter, as
// serve's engines have it.
type editEngineOps struct{ engineOps }

func (o editEngineOps) PlanEdit(ctx context.Context, req ops.EditRequest) (ops.EditPlan, error) {
	return o.e.PlanEdit(ctx, req)
}

func (o editEngineOps) SearchBodies(ctx context.Context, _, queue string, p *ops.BodyPattern, progress func(ops.SearchProgress), found func(mqwatch.Summary)) (ops.SearchProgress, error) {
	return o.e.SearchBodies(ctx, queue, p, progress, found)
}

func (o editEngineOps) Edit(ctx context.Context, req ops.EditRequest) (ops.EditResult, error) {
	return o.e.Edit(ctx, req)
}

// TestR10i_RoomDriverEditsAndViewersCannot: in the war room the driver's
// edit and resend (from the dashboard's textarea) goes through the
// engine, audited with the SSH identity and announced; a viewer's is
// refused by the operations layer.
func TestR10i_RoomDriverEditsAndViewersCannot(t *testing.T) {
	e := newOpsEnv(t)
	for r, ops := range e.engines {
		e.engines[r] = editEngineOps{ops.(engineOps)}
	}
	ctx := context.Background()
	sums := browseDeadQ(t, e)
	req := ops.EditRequest{QMgr: "QM1", Queue: "QM1.DEADQ", Msg: sums[0], Body: []byte(`{"order":0,"fixed":true}`)}
	viewer := e.seat(bob)
	if _, err := viewer.PlanEdit(ctx, req); !errors.Is(err, ErrViewer) {
		t.Errorf("viewer plan: %v", err)
	}
	if _, err := viewer.Edit(ctx, req); !errors.Is(err, ErrViewer) {
		t.Errorf("viewer edit: %v", err)
	}
	op := e.seat(alice)
	plan, err := op.PlanEdit(ctx, req)
	if err != nil || plan.Target != "ORDERS.IN" || len(plan.Diff) == 0 {
		t.Fatalf("operator plan: target %q diff %v: %v", plan.Target, plan.Diff, err)
	}
	res, err := op.Edit(ctx, req)
	if err != nil || !res.Done {
		t.Fatalf("operator edit: %+v %v", res, err)
	}
	if d := depth(t, e.qm, "QM1.DEADQ"); d != 2 {
		t.Errorf("DEADQ depth %d after the edit, want 2", d)
	}
	b, _ := os.ReadFile(e.audit)
	if !strings.Contains(string(b), `"action":"edit"`) || !strings.Contains(string(b), `"user":"alice (ssh key SHA256:alicekey)"`) {
		t.Errorf("audit lacks alice's edit:\n%s", b)
	}
	st := <-viewer.Seat.Updates()
	for len(st.Events) == 0 || !strings.Contains(st.Events[len(st.Events)-1].Text, "edit and resend") {
		st = <-viewer.Seat.Updates()
	}
	if last := st.Events[len(st.Events)-1].Text; !strings.Contains(last, "alice: edit and resend message") || !strings.Contains(last, "to ORDERS.IN — edited") {
		t.Errorf("announced %q", last)
	}
}

// browseDeadQ lists the DEADQ's messages as the dashboard shows them.
func browseDeadQ(t *testing.T, e *opsEnv) []mqwatch.Summary {
	t.Helper()
	var out []mqwatch.Summary
	for _, m := range e.qm.Browse("QM1.DEADQ") {
		out = append(out, mqwatch.Summarize(&m))
	}
	return out
}

// TestRoomOperatorsSearchBodiesViewersCannot: ctrl+f in the war room
// searches for an operator; a viewer, whose bodies are masked, is refused.
func TestRoomOperatorsSearchBodiesViewersCannot(t *testing.T) {
	e := newOpsEnv(t)
	for r, ops := range e.engines {
		e.engines[r] = editEngineOps{ops.(engineOps)}
	}
	ctx := context.Background()
	p, _ := ops.ParseBodyPattern(`"order":1`)
	if _, err := e.seat(bob).SearchBodies(ctx, "QM1", "QM1.DEADQ", p, nil, func(mqwatch.Summary) {}); !errors.Is(err, ErrViewer) {
		t.Errorf("viewer search: %v", err)
	}
	var found int
	sp, err := e.seat(alice).SearchBodies(ctx, "QM1", "QM1.DEADQ", p, nil, func(mqwatch.Summary) { found++ })
	if err != nil || sp.Scanned != 3 || found != 1 {
		t.Errorf("operator search: %+v, %d found, %v", sp, found, err)
	}
}
