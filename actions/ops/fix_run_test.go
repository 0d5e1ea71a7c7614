package ops_test

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/poisonwatch/poisonwatch/actions"
	"github.com/poisonwatch/poisonwatch/actions/ops"
	"github.com/poisonwatch/poisonwatch/codec/mqfmt"
	"github.com/poisonwatch/poisonwatch/mqwatch"
	"github.com/poisonwatch/poisonwatch/mqwatch/pcf"
)

// Applying a fix (R10h) and defining a parking queue through the command
// server, with the engine's audit.

// newFixFixture is the operations fixture with LOOP.IN, an input queue
// without a backout queue, and the changes of extra.
func newFixFixture(t *testing.T, extra string) *opFixture {
	t.Helper()
	return newOpFixture(t, "DEFINE QLOCAL(LOOP.IN)\n"+extra)
}

func (f *opFixture) putText(queue string) {
	md, data := original(1)
	f.putSetAll(f.conn(), queue, md, data)
}

func mustQMgr(t *testing.T, f *opFixture) mqwatch.QMgrInfo {
	t.Helper()
	qm, err := f.conn().QMgr(f.ctx)
	if err != nil {
		t.Fatal(err)
	}
	return qm
}

func mustQueues(t *testing.T, f *opFixture) []mqwatch.QueueInfo {
	t.Helper()
	qs, err := f.conn().Queues(f.ctx, "*")
	if err != nil {
		t.Fatal(err)
	}
	return qs
}

// TestR10h_ApplyFixThroughTheCommandServer: the R1c fix and its BOQ's room
// are applied in order through PCF, audited with before and after; a step
// refused for authority stops the fix before the step that depends on it.
func TestR10h_ApplyFixThroughTheCommandServer(t *testing.T) {
	f := newFixFixture(t, "ALTER QLOCAL(ORDERS.BO) MAXDEPTH(40)\nALTER QLOCAL(LOOP.IN) BOTHRESH(0)\n")
	srv, err := f.qm.StartCommandServer()
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Stop()
	audit := filepath.Join(t.TempDir(), "audit.jsonl")
	eng, err := ops.NewEngine(ops.EngineOptions{Connector: f.qm, AuditPath: audit, ArchiveDir: t.TempDir(), User: "alice"})
	if err != nil {
		t.Fatal(err)
	}
	p := actions.PlanFix(actions.FixInput{QMgr: mustQMgr(t, f), Queues: mustQueues(t, f), ID: "R1c:LOOP.IN", Prereq: 1, After: []string{"R8b ORDERS.BO: full"},
		Commands: []string{"ALTER QLOCAL(ORDERS.BO) MAXDEPTH(5000)", "ALTER QLOCAL(LOOP.IN) BOTHRESH(3) BOQNAME(ORDERS.BO)"}})
	res, err := eng.ApplyFix(f.ctx, p, "", false)
	if err != nil || !res.Applied() {
		t.Fatalf("%+v %v", res, err)
	}
	byName := map[string]mqwatch.QueueInfo{}
	for _, q := range mustQueues(t, f) {
		byName[q.Name] = q
	}
	if byName["ORDERS.BO"].MaxDepth != 5000 || byName["LOOP.IN"].BackoutThresh != 3 || byName["LOOP.IN"].BackoutQName != "ORDERS.BO" {
		t.Errorf("after the fix: ORDERS.BO %+v LOOP.IN %+v", byName["ORDERS.BO"], byName["LOOP.IN"])
	}
	data, _ := os.ReadFile(audit)
	var recs []ops.AuditRecord
	_ = ops.ReadAudit(bytes.NewReader(data), perStep(&recs))
	if len(recs) != 2 || recs[0].User != "alice" || recs[0].Action != ops.OpFix || recs[0].Before != "MAXDEPTH(40)" || recs[0].After != "MAXDEPTH(5000)" ||
		recs[1].Before != "BOTHRESH(0) BOQNAME((blank))" || recs[1].Outcome != "applied" {
		t.Errorf("audit %+v", recs)
	}
	// The result says the same as the audit, for the dashboard's A view.
	if res.User != "alice" || res.Op != ops.OpFix || res.Steps[0].Before != "MAXDEPTH(40)" || res.Steps[0].After != "MAXDEPTH(5000)" ||
		res.Steps[1].After != "BOTHRESH(3) BOQNAME(ORDERS.BO)" {
		t.Errorf("result %+v", res)
	}

	// A user without chg on ORDERS.BO: the first step fails with 2035 and
	// the BOQNAME change is not sent.
	f.qm.MQSC("SET AUTHREC PROFILE(QM1) OBJTYPE(QMGR) PRINCIPAL('bob') AUTHADD(CONNECT,INQ,DSP)\n" +
		"SET AUTHREC PROFILE(SYSTEM.ADMIN.COMMAND.QUEUE) OBJTYPE(QUEUE) PRINCIPAL('bob') AUTHADD(PUT)\n" +
		"SET AUTHREC PROFILE(SYSTEM.DEFAULT.MODEL.QUEUE) OBJTYPE(QUEUE) PRINCIPAL('bob') AUTHADD(GET,INQ,DSP)\n" +
		"SET AUTHREC PROFILE(LOOP.IN) OBJTYPE(QUEUE) PRINCIPAL('bob') AUTHADD(CHG)\nALTER QLOCAL(LOOP.IN) BOTHRESH(0)\n")
	bob, _ := ops.NewEngine(ops.EngineOptions{Connector: f.qm, Connect: mqwatch.ConnectOptions{User: "bob"}, AuditPath: audit, ArchiveDir: t.TempDir(), User: "bob"})
	res, err = bob.ApplyFix(f.ctx, p, "", false)
	if mqwatch.ReasonOf(err) != mqfmt.RCNotAuthorized || len(res.Steps) != 1 || !strings.Contains(res.Stopped, "the 1 after it were not sent") ||
		!strings.HasPrefix(res.Steps[0].Error, "MQRC_NOT_AUTHORIZED (2035)") {
		t.Fatalf("%+v %v", res, err)
	}
	for _, q := range mustQueues(t, f) {
		if q.Name == "LOOP.IN" && q.BackoutThresh != 0 {
			t.Errorf("the step after the refused one ran: BOTHRESH %d", q.BackoutThresh)
		}
	}
}

func TestR10h_ReadOnlyAndCopyOnlyAreRefused(t *testing.T) {
	f := newFixFixture(t, "")
	srv, err := f.qm.StartCommandServer() // the dry run asks it for the user's authorities
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Stop()
	ro, _ := ops.NewEngine(ops.EngineOptions{Connector: f.qm, AuditPath: filepath.Join(t.TempDir(), "a"), ArchiveDir: t.TempDir(), ReadOnly: true})
	p := actions.PlanFix(actions.FixInput{QMgr: mustQMgr(t, f), Queues: mustQueues(t, f), Commands: []string{"ALTER QLOCAL(ORDERS.BO) MAXDEPTH(9)"}})
	if _, err := ro.ApplyFix(f.ctx, p, "", false); !errors.Is(err, ops.ErrReadOnly) {
		t.Errorf("read-only: %v", err)
	}
	if _, err := ro.ApplyFix(f.ctx, p, "", true); err != nil {
		t.Errorf("a dry run is allowed read-only: %v", err)
	}
	mixed := actions.PlanFix(actions.FixInput{QMgr: mustQMgr(t, f), Commands: []string{"ALTER QLOCAL(ORDERS.BO) MAXDEPTH(9)", "ALTER QLOCAL(ORDERS.BO) DESCR('x')"}})
	if _, err := ro.ApplyFix(f.ctx, mixed, "", true); !errors.Is(err, actions.ErrCopyOnly) {
		t.Errorf("a plan with a copy-only command: %v", err)
	}
}

// TestR8e_FixNeverLowersALimitRaisedMeanwhile: the BOQ's room step of an
// R1c fix is skipped when a colleague raised MAXDEPTH further since the
// poll; the fix proper still runs.
func TestR8e_FixNeverLowersALimitRaisedMeanwhile(t *testing.T) {
	f := newFixFixture(t, "ALTER QLOCAL(ORDERS.BO) MAXDEPTH(40)\nALTER QLOCAL(LOOP.IN) BOTHRESH(0)\n")
	srv, err := f.qm.StartCommandServer()
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Stop()
	p := actions.PlanFix(actions.FixInput{QMgr: mustQMgr(t, f), Queues: mustQueues(t, f), ID: "R1c:LOOP.IN", Prereq: 1, After: []string{"R8b ORDERS.BO: full"},
		Commands: []string{"ALTER QLOCAL(ORDERS.BO) MAXDEPTH(5000)", "ALTER QLOCAL(LOOP.IN) BOTHRESH(3) BOQNAME(ORDERS.BO)"}})
	f.qm.MQSC("ALTER QLOCAL(ORDERS.BO) MAXDEPTH(20000)\n")
	eng, _ := ops.NewEngine(ops.EngineOptions{Connector: f.qm, AuditPath: filepath.Join(t.TempDir(), "a"), ArchiveDir: t.TempDir()})
	res, err := eng.ApplyFix(f.ctx, p, "", false)
	if err != nil || !res.Steps[0].Skipped || res.Steps[1].Skipped || !res.Applied() {
		t.Fatalf("%+v %v", res, err)
	}
	for _, q := range mustQueues(t, f) {
		if q.Name == "ORDERS.BO" && q.MaxDepth != 20000 {
			t.Errorf("MAXDEPTH %d: the fix lowered a colleague's 20000", q.MaxDepth)
		}
	}
}

// TestR10h_ParkDefinesLikeTheDeadQThenTheMoveLandsThere: the parking queue
// is defined through the command server with the DEADQ's attributes and the
// MAXDEPTH given, audited; the move then puts the messages on it. Without
// +crt the define is refused with 2035 and audited as failed.
func TestR10h_ParkDefinesLikeTheDeadQThenTheMoveLandsThere(t *testing.T) {
	f := newFixFixture(t, "ALTER QLOCAL(QM1.DEADQ) MAXMSGL(8192) BOTHRESH(7) MAXDEPTH(100)\n")
	srv, err := f.qm.StartCommandServer()
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Stop()
	for range 3 {
		f.putText("ORDERS.BO")
	}
	audit := filepath.Join(t.TempDir(), "audit.jsonl")
	eng, err := ops.NewEngine(ops.EngineOptions{Connector: f.qm, AuditPath: audit, ArchiveDir: t.TempDir(), User: "alice"})
	if err != nil {
		t.Fatal(err)
	}
	p, err := actions.ParkPlan(actions.ParkInput{QMgr: mustQMgr(t, f), Queues: mustQueues(t, f), Name: "ORDERS.PARK", MaxDepth: 25000})
	if err != nil {
		t.Fatal(err)
	}
	if res, err := eng.ApplyFix(f.ctx, p, "", false); err != nil || !res.Applied() {
		t.Fatalf("%+v %v", res, err)
	}
	var park, dlq mqwatch.QueueInfo
	for _, q := range mustQueues(t, f) {
		switch q.Name {
		case "ORDERS.PARK":
			park = q
		case "QM1.DEADQ":
			dlq = q
		}
	}
	if park.MaxDepth != 25000 || park.MaxMsgLen != dlq.MaxMsgLen || park.MaxMsgLen != 8192 || park.BackoutThresh != 7 || park.Type != mqwatch.QLocal {
		t.Fatalf("ORDERS.PARK %+v, DEADQ %+v", park, dlq)
	}
	res, err := eng.Run(f.ctx, ops.OpRequest{Op: ops.OpMove, Queue: "ORDERS.BO", All: true, Target: "ORDERS.PARK"}, nil)
	if err != nil || res.Done != 3 {
		t.Fatalf("move: %+v %v", res, err)
	}
	if f.depth("ORDERS.PARK") != 3 || f.depth("ORDERS.BO") != 0 {
		t.Fatalf("after the move: ORDERS.PARK %d ORDERS.BO %d", f.depth("ORDERS.PARK"), f.depth("ORDERS.BO"))
	}
	data, _ := os.ReadFile(audit)
	var recs []ops.AuditRecord
	_ = ops.ReadAudit(bytes.NewReader(data), perStep(&recs))
	if len(recs) == 0 || recs[0].Action != ops.OpFix || recs[0].User != "alice" || recs[0].MQSC != "DEFINE QLOCAL(ORDERS.PARK) LIKE(QM1.DEADQ) MAXDEPTH(25000) NOTRIGGER" ||
		recs[0].Outcome != "applied" || recs[0].After != "LIKE(QM1.DEADQ) MAXDEPTH(25000) TRIGGER(NO)" {
		t.Errorf("audit %+v", recs)
	}

	// bob may put commands and display the DEADQ, but has no crt.
	f.qm.MQSC("SET AUTHREC PROFILE(QM1) OBJTYPE(QMGR) PRINCIPAL('bob') AUTHADD(CONNECT,INQ,DSP)\n" +
		"SET AUTHREC PROFILE(SYSTEM.ADMIN.COMMAND.QUEUE) OBJTYPE(QUEUE) PRINCIPAL('bob') AUTHADD(PUT)\n" +
		"SET AUTHREC PROFILE(SYSTEM.DEFAULT.MODEL.QUEUE) OBJTYPE(QUEUE) PRINCIPAL('bob') AUTHADD(GET,INQ,DSP)\n" +
		"SET AUTHREC PROFILE(QM1.DEADQ) OBJTYPE(QUEUE) PRINCIPAL('bob') AUTHADD(DSP)\n")
	bob, _ := ops.NewEngine(ops.EngineOptions{Connector: f.qm, Connect: mqwatch.ConnectOptions{User: "bob"}, AuditPath: audit, ArchiveDir: t.TempDir(), User: "bob"})
	p2, _ := actions.ParkPlan(actions.ParkInput{QMgr: mustQMgr(t, f), Queues: mustQueues(t, f), Name: "BOB.PARK", MaxDepth: 10})
	r2, err := bob.ApplyFix(f.ctx, p2, "", false)
	if mqwatch.ReasonOf(err) != mqfmt.RCNotAuthorized || len(r2.Steps) != 1 || !strings.HasPrefix(r2.Steps[0].Error, "MQRC_NOT_AUTHORIZED (2035)") {
		t.Fatalf("%+v %v", r2, err)
	}
	for _, q := range mustQueues(t, f) {
		if q.Name == "BOB.PARK" {
			t.Fatal("BOB.PARK was defined without +crt")
		}
	}
	// Defining it again: the command server says it exists.
	if _, err := eng.ApplyFix(f.ctx, p, "", false); int32(mqwatch.ReasonOf(err)) != pcf.ReasonObjectAlreadyExists ||
		!strings.HasPrefix(ops.DescribeReason(err), "MQRCCF_OBJECT_ALREADY_EXISTS") {
		t.Errorf("second define: %v (%s)", err, ops.DescribeReason(err))
	}
}
