package warroom

import (
	"context"
	"errors"
	"os"
	"strings"
	"testing"

	"github.com/poisonwatch/poisonwatch/incident/journal"

	"github.com/poisonwatch/poisonwatch/actions"
	"github.com/poisonwatch/poisonwatch/actions/ops"
	"github.com/poisonwatch/poisonwatch/mqwatch"
)

// fixEngineOps adds the fix operations to the test's engine adapter, as
// serve's engines have them.
type fixEngineOps struct{ engineOps }

func (o fixEngineOps) ApplyFix(ctx context.Context, _ string, p actions.FixPlan, user string) (ops.FixResult, error) {
	return o.e.ApplyFix(ctx, p, user, false)
}

func (o fixEngineOps) SetInhibit(ctx context.Context, qm string, q mqwatch.QueueInfo, attr string, disable bool, user string) (ops.FixResult, error) {
	return o.e.SetInhibit(ctx, q, qm, attr, disable, user)
}

// TestR10h_ViewersCannotFixAndOperatorsAreAudited: a viewer's fix and GET
// inhibit are refused by the operations layer; an operator's are applied
// through the command server, audited with the SSH identity, announced.
func TestR10h_ViewersCannotFixAndOperatorsAreAudited(t *testing.T) {
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
	plan := actions.PlanFix(actions.FixInput{QMgr: mqwatch.QMgrInfo{Name: "QM1"}, ID: "R8b:ORDERS.BO", Commands: []string{"ALTER QLOCAL(ORDERS.BO) MAXDEPTH(9000)"}})
	orders := mqwatch.QueueInfo{Name: "ORDERS.IN", Type: mqwatch.QLocal}
	viewer := e.seat(bob)
	if _, err := viewer.ApplyFix(ctx, "QM1", plan, ""); !errors.Is(err, ErrViewer) {
		t.Errorf("viewer fix: %v", err)
	}
	if _, err := viewer.SetInhibit(ctx, "QM1", orders, "GET", true, ""); !errors.Is(err, ErrViewer) {
		t.Errorf("viewer inhibit: %v", err)
	}
	op := e.seat(alice)
	if res, err := op.ApplyFix(ctx, "QM1", plan, ""); err != nil || !res.Applied() {
		t.Fatalf("operator fix: %+v %v", res, err)
	}
	if _, err := op.SetInhibit(ctx, "QM1", orders, "GET", true, ""); err != nil {
		t.Fatalf("operator inhibit: %v", err)
	}
	// The room's journal has both, with who, before and after: every
	// session's audit view reads it.
	es := e.journal.Entries()
	var fx, in *journal.Entry
	for i := range es {
		switch es[i].Kind {
		case journal.Fix:
			fx = &es[i]
		case journal.Inhibit:
			in = &es[i]
		}
	}
	if fx == nil || in == nil || in.User != "alice (ssh key SHA256:alicekey)" || in.Steps[0].After != "GET(DISABLED)" || fx.Steps[0].Before != "MAXDEPTH(5000)" {
		t.Errorf("journal %+v, want the fix and the inhibit with their steps", es)
	}
	// And the room was told of both, in the journal's words.
	st := <-viewer.Seat.Updates()
	var told []string
	for _, ev := range st.Events {
		told = append(told, ev.Text)
	}
	all := strings.Join(told, "\n")
	if !strings.Contains(all, "alice: fix") || !strings.Contains(all, "alice: ALTER QLOCAL(ORDERS.IN) GET(DISABLED) — applied") {
		t.Errorf("the room was told:\n%s", all)
	}
	b, _ := os.ReadFile(e.audit)
	log := string(b)
	for _, want := range []string{`"action":"fix"`, `"action":"inhibit"`, `"user":"alice (ssh key SHA256:alicekey)"`, `"after":"GET(DISABLED)"`, `"before":"MAXDEPTH(5000)"`} {
		if !strings.Contains(log, want) {
			t.Errorf("audit lacks %s:\n%s", want, log)
		}
	}
}
