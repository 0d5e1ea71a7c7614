package ui

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/poisonwatch/poisonwatch/actions"
	"github.com/poisonwatch/poisonwatch/actions/dlqrules"
	"github.com/poisonwatch/poisonwatch/mqwatch"
	"github.com/poisonwatch/poisonwatch/mqwatch/embedded"
)

// incidentQMgr is QM1 as the incident has it, for the engine to plan on:
// the DEADQ and a transmission queue to QM2, and no INVOICE.IN here.
const incidentQMgr = `
DEFINE QLOCAL(QM1.DEADQ) MAXDEPTH(50000)
ALTER QMGR DEADQ(QM1.DEADQ)
DEFINE QLOCAL(QM2) USAGE(XMITQ)
DEFINE QLOCAL(PARKING.Q)
`

// enginePredictor is the dashboard's RulesOps as main wires it: the
// preview's own Predict, an engine and a connection, on an embedded queue
// manager instead of a real one.
type enginePredictor struct {
	src   dlqrules.Source
	calls int
}

func newEnginePredictor(t testing.TB) *enginePredictor {
	t.Helper()
	qm := embedded.New(embedded.Options{Name: "QM1"})
	if _, err := qm.RunMQSC(strings.NewReader(incidentQMgr)); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	conn, err := qm.Connect(ctx, mqwatch.ConnectOptions{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = conn.Close() })
	dir := t.TempDir()
	eng, err := actions.NewEngine(actions.EngineOptions{Connector: qm, QMgr: "QM1",
		AuditPath: filepath.Join(dir, "audit.jsonl"), ArchiveDir: filepath.Join(dir, "archive")})
	if err != nil {
		t.Fatal(err)
	}
	return &enginePredictor{src: dlqrules.Source{Conn: conn, Engine: eng}}
}

func (p *enginePredictor) PredictRules(ctx context.Context, _, queue string, t *dlqrules.Table, msgs []dlqrules.Subject) ([]dlqrules.Verdict, error) {
	p.calls++
	return dlqrules.Predict(ctx, p.src, t, queue, msgs)
}
