package actions

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/poisonwatch/poisonwatch/mqwatch"
	"github.com/poisonwatch/poisonwatch/mqwatch/mqfmt"
	"github.com/poisonwatch/poisonwatch/mqwatch/pcf"
)

func TestR10h_ParkPlanChecksNameLikeAndMaxDepth(t *testing.T) {
	qm := mqwatch.QMgrInfo{Name: "QM1", DeadQ: "QM1.DEADQ"}
	qs := []mqwatch.QueueInfo{{Name: "QM1.DEADQ", Type: mqwatch.QLocal}, {Name: "ORDERS.ALIAS", Type: mqwatch.QAlias}, {Name: "ORDERS.BO", Type: mqwatch.QLocal}}
	for _, tc := range []struct {
		in   ParkInput
		mqsc string
		err  string
	}{
		{ParkInput{Name: "orders.park", MaxDepth: 20000}, "DEFINE QLOCAL(ORDERS.PARK) LIKE(QM1.DEADQ) MAXDEPTH(20000)", ""},
		{ParkInput{Name: "ORDERS.PARK", Like: "orders.bo", MaxDepth: 5}, "DEFINE QLOCAL(ORDERS.PARK) LIKE(ORDERS.BO) MAXDEPTH(5)", ""},
		{ParkInput{Name: "ORDERS.BO", MaxDepth: 5}, "", "already exists"},
		{ParkInput{Name: "A B", MaxDepth: 5}, "", "cannot be in a queue name"},
		{ParkInput{Name: "SYSTEM.PARK", MaxDepth: 5}, "", "SYSTEM.*"},
		{ParkInput{Name: strings.Repeat("Q", 49), MaxDepth: 5}, "", "1 to 48"},
		{ParkInput{Name: "P", Like: "NOPE", MaxDepth: 5}, "", "no queue NOPE"},
		{ParkInput{Name: "P", Like: "ORDERS.ALIAS", MaxDepth: 5}, "", "not a local queue"},
		{ParkInput{Name: "P", MaxDepth: 0}, "", "MAXDEPTH must be 1 to 999999999"},
		{ParkInput{Name: "P", MaxDepth: 1000000000}, "", "MAXDEPTH must be"},
	} {
		in := tc.in
		in.QMgr, in.Queues = qm, qs
		p, err := ParkPlan(in)
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("%+v: err %v, want %q", tc.in, err, tc.err)
			}
			continue
		}
		if err != nil || len(p.Steps) != 1 || p.Steps[0].MQSC != tc.mqsc || p.Steps[0].Change.Command != pcf.CmdCopyQ ||
			!strings.Contains(p.Steps[0].Authority, "+crt on queues (profile @class), +dsp on ") {
			t.Errorf("%+v: %+v %v", tc.in, p, err)
		}
	}
	if _, err := ParkPlan(ParkInput{QMgr: mqwatch.QMgrInfo{Name: "QM1"}, Queues: qs, Name: "P", MaxDepth: 5}); err == nil || !strings.Contains(err.Error(), "no DEADQ") {
		t.Errorf("no DEADQ: %v", err)
	}
}

// TestR10h_ParkDefinesLikeTheDeadQThenTheMoveLandsThere: the parking queue
// is defined through the command server with the DEADQ's attributes and the
// MAXDEPTH given, audited; the move then puts the messages on it. Without
// +crt the define is refused with 2035 and audited as failed.
func TestR10h_ParkDefinesLikeTheDeadQThenTheMoveLandsThere(t *testing.T) {
	f := newQM(t, "ALTER QLOCAL(QM1.DEADQ) MAXMSGL(8192) BOTHRESH(7) MAXDEPTH(100)\n")
	srv, err := f.qm.StartCommandServer()
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Stop()
	for range 3 {
		f.putText("ORDERS.BO")
	}
	audit := filepath.Join(t.TempDir(), "audit.jsonl")
	eng, err := NewEngine(EngineOptions{Connector: f.qm, AuditPath: audit, ArchiveDir: t.TempDir(), User: "alice"})
	if err != nil {
		t.Fatal(err)
	}
	p, err := ParkPlan(ParkInput{QMgr: mustQMgr(t, f), Queues: mustQueues(t, f), Name: "ORDERS.PARK", MaxDepth: 25000})
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
	res, err := eng.Run(f.ctx, OpRequest{Op: OpMove, Queue: "ORDERS.BO", All: true, Target: "ORDERS.PARK"}, nil)
	if err != nil || res.Done != 3 {
		t.Fatalf("move: %+v %v", res, err)
	}
	if f.depth("ORDERS.PARK") != 3 || f.depth("ORDERS.BO") != 0 {
		t.Fatalf("after the move: ORDERS.PARK %d ORDERS.BO %d", f.depth("ORDERS.PARK"), f.depth("ORDERS.BO"))
	}
	data, _ := os.ReadFile(audit)
	var recs []AuditRecord
	_ = ReadAudit(bytes.NewReader(data), func(r AuditRecord) error { recs = append(recs, r); return nil })
	if len(recs) == 0 || recs[0].Action != OpFix || recs[0].User != "alice" || recs[0].MQSC != "DEFINE QLOCAL(ORDERS.PARK) LIKE(QM1.DEADQ) MAXDEPTH(25000)" ||
		recs[0].Outcome != "applied" || recs[0].After != "LIKE(QM1.DEADQ) MAXDEPTH(25000)" {
		t.Errorf("audit %+v", recs)
	}

	// bob may put commands and display the DEADQ, but has no crt.
	f.mqsc("SET AUTHREC PROFILE(QM1) OBJTYPE(QMGR) PRINCIPAL('bob') AUTHADD(CONNECT,INQ,DSP)\n" +
		"SET AUTHREC PROFILE(SYSTEM.ADMIN.COMMAND.QUEUE) OBJTYPE(QUEUE) PRINCIPAL('bob') AUTHADD(PUT)\n" +
		"SET AUTHREC PROFILE(SYSTEM.DEFAULT.MODEL.QUEUE) OBJTYPE(QUEUE) PRINCIPAL('bob') AUTHADD(GET,INQ,DSP)\n" +
		"SET AUTHREC PROFILE(QM1.DEADQ) OBJTYPE(QUEUE) PRINCIPAL('bob') AUTHADD(DSP)\n")
	bob, _ := NewEngine(EngineOptions{Connector: f.qm, Connect: mqwatch.ConnectOptions{User: "bob"}, AuditPath: audit, ArchiveDir: t.TempDir(), User: "bob"})
	p2, _ := ParkPlan(ParkInput{QMgr: mustQMgr(t, f), Queues: mustQueues(t, f), Name: "BOB.PARK", MaxDepth: 10})
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
		!strings.HasPrefix(DescribeReason(err), "MQRCCF_OBJECT_ALREADY_EXISTS") {
		t.Errorf("second define: %v (%s)", err, DescribeReason(err))
	}
}
