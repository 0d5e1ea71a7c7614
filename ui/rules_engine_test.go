package ui

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/poisonwatch/poisonwatch/actions/dlqrules"
	"github.com/poisonwatch/poisonwatch/actions/ops"
	"github.com/poisonwatch/poisonwatch/backend/embedded/embeddedtest"
	"github.com/poisonwatch/poisonwatch/codec/mqfmt"
	"github.com/poisonwatch/poisonwatch/mqwatch"
)

// incidentQMgr is QM1 as the incident has it, for the engine to plan on:
// the DEADQ and a transmission queue to QM2, and no INVOICE.IN here.
const incidentQMgr = `
DEFINE QLOCAL(QM1.DEADQ) MAXDEPTH(500000)
ALTER QMGR DEADQ(QM1.DEADQ)
DEFINE QLOCAL(QM2) USAGE(XMITQ)
DEFINE QLOCAL(PARKING.Q)
`

// enginePredictor is the dashboard's RulesOps as main wires it: the
// preview's own Predict, an engine and a connection, on an embedded queue
// manager instead of a real one, whose DEADQ holds the messages the
// dashboard lists (the engine's plan checks each one is still there).
type enginePredictor struct {
	src   dlqrules.Source
	calls int
}

// newEnginePredictor puts the DEADQ messages of snap (the incident's when
// nil) on the embedded queue manager's DEADQ.
func newEnginePredictor(t testing.TB, snap ...*mqwatch.Snapshot) *enginePredictor {
	t.Helper()
	qm := embeddedtest.New(t, embeddedtest.Options{Name: "QM1", MQSC: incidentQMgr})
	if len(snap) == 0 {
		snap = []*mqwatch.Snapshot{incident(1, 300)}
	}
	conn := qm.Conn(mqwatch.ConnectOptions{})
	putDeadLetters(t, conn, snap[0].Inventories["QM1.DEADQ"])
	dir := t.TempDir()
	eng, err := ops.NewEngine(ops.EngineOptions{Connector: qm, QMgr: "QM1",
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

func (p *enginePredictor) PredictQueue(ctx context.Context, _, queue string, t *dlqrules.Table, inv *mqwatch.Inventory) (*dlqrules.Verdicts, error) {
	p.calls++
	return dlqrules.PredictInventory(ctx, p.src, t, queue, inv)
}

// putDeadLetters puts a message for each summary of inv on QM1.DEADQ, with
// the summary's identity (MsgId, CorrelId, put time) and MQDLH.
func putDeadLetters(t testing.TB, c mqwatch.Conn, inv *mqwatch.Inventory) {
	t.Helper()
	bo, _ := mqfmt.EncodingNative.ByteOrder()
	for i := 0; inv != nil && i < inv.Len(); i++ {
		s := inv.At(i)
		md := mqfmt.NewMQMD()
		md.Format, md.CodedCharSetId, md.Encoding = mqfmt.FmtDeadLetter, 1208, mqfmt.EncodingNative
		md.MsgId, md.CorrelId = s.MsgId, s.CorrelId
		md.PutDate, md.PutTime = mqfmt.FormatPutTime(s.PutTime)
		md.Persistence = mqfmt.PerPersistent
		d := mqfmt.NewDLH()
		d.Reason, d.DestQName, d.DestQMgrName, d.Format = mqfmt.Reason(s.DLHReason), s.DLHDestQ, s.DLHDestQMgr, mqfmt.FmtString
		d.Encoding, d.CodedCharSetId, d.PutApplName, d.PutApplType = mqfmt.EncodingNative, 1208, "amqrmppa", mqfmt.ATUnix
		embeddedtest.Put(t, c, "QM1.DEADQ", md, append(d.AppendEncode(nil, bo), "{}"...))
	}
}
