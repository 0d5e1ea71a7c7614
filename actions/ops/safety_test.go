package ops_test

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/poisonwatch/poisonwatch/actions/ops"
	"github.com/poisonwatch/poisonwatch/codec/mqfmt"
	"github.com/poisonwatch/poisonwatch/mqwatch"
)

// opsAuth lets user ops connect, browse, get and put, but not pass or set
// context.
const opsAuth = "SET AUTHREC PROFILE('**') PRINCIPAL('ops') OBJTYPE(QUEUE) AUTHADD(BROWSE,GET,INQ,PUT,DSP)\n" +
	"SET AUTHREC PRINCIPAL('ops') OBJTYPE(QMGR) AUTHADD(CONNECT,INQ,DSP)\n"

func testGuaranteesContext(t *testing.T) {
	t.Run("R7b_passing_context_without_passall_is_2035_naming_the_authority_and_moves_nothing", testGuaranteesContextPassingContextWithoutPassallIs2035NamingTheAuthorityAndMovesNothing)
	t.Run("R10f_read_only_refuses_changes_in_the_engine_but_allows_export_and_dry_runs", testGuaranteesContextReadOnlyRefusesChangesInTheEngineButAllowsExportAndDryRuns)
	t.Run("R10f_dry_run_reports_each_message_and_changes_nothing", testGuaranteesContextDryRunReportsEachMessageAndChangesNothing)
}

func readAuditFile(t *testing.T, path string) []ops.AuditRecord {
	t.Helper()
	fh, err := os.Open(path)
	if err != nil {
		t.Fatalf("audit log: %v", err)
	}
	defer fh.Close()
	var out []ops.AuditRecord
	if err := ops.ReadAudit(fh, perStep(&out)); err != nil {
		t.Fatalf("ReadAudit: %v", err)
	}
	return out
}

func testGuaranteesContextPassingContextWithoutPassallIs2035NamingTheAuthorityAndMovesNothing(t *testing.T) {
	f := newOpFixture(t, opsAuth)
	f.deadLetter(f.conn(), 1, "ORDERS.IN", "QM1", mqfmt.RCQFull)
	eng := f.engine(func(o *ops.EngineOptions) { o.Connect.User = "ops" })
	req := ops.OpRequest{Op: ops.OpRequeue, Queue: "QM1.DEADQ", All: true}
	res, err := eng.Run(f.ctx, req, nil)
	var cae *ops.ContextAuthorityError
	if !errors.As(err, &cae) || cae.Need != "setall" || cae.Queue != "ORDERS.IN" || !mqwatch.IsReason(err, mqfmt.RCNotAuthorized) {
		t.Fatalf("err %v, want a ContextAuthorityError for setall on ORDERS.IN with 2035", err)
	}
	if !errors.Is(err, ops.ErrContextAuthority) || !strings.Contains(err.Error(), "--context default") {
		t.Errorf("error does not offer --context default: %v", err)
	}
	if res.Done != 0 || res.NotDone != 1 {
		t.Errorf("done %d not done %d", res.Done, res.NotDone)
	}
	wantDepths(t, f, map[string]int{"QM1.DEADQ": 1, "ORDERS.IN": 0})
	req.Context = ops.ContextDefault
	res = f.run(eng, req)
	m := f.browse("ORDERS.IN")[0]
	if res.Done != 1 || mqfmt.Trim(m.MD.UserIdentifier) != "ops" || m.MD.PutDate != "20260309" {
		t.Errorf("default context: done %d user %q date %q", res.Done, m.MD.UserIdentifier, m.MD.PutDate)
	}
}

func testGuaranteesContextReadOnlyRefusesChangesInTheEngineButAllowsExportAndDryRuns(t *testing.T) {
	f := newOpFixture(t, "")
	f.deadLetter(f.conn(), 1, "ORDERS.IN", "QM1", mqfmt.RCQFull)
	eng := f.engine(func(o *ops.EngineOptions) { o.ReadOnly = true })
	for _, op := range []ops.Op{ops.OpRequeue, ops.OpMove, ops.OpReplay, ops.OpDiscard, ops.OpImport} {
		_, err := eng.Run(f.ctx, ops.OpRequest{Op: op, Queue: "QM1.DEADQ", All: true, Target: "PARKING.Q", File: "x"}, nil)
		if !errors.Is(err, ops.ErrReadOnly) {
			t.Errorf("%s: err %v, want ErrReadOnly", op, err)
		}
	}
	dry := f.run(eng, ops.OpRequest{Op: ops.OpDiscard, Queue: "QM1.DEADQ", All: true, DryRun: true})
	if dry.Done != 0 || dry.Items[0].Text(dry.Plan.Request.Op) != "would discard" {
		t.Errorf("dry run: done %d outcome %q", dry.Done, dry.Items[0].Text(dry.Plan.Request.Op))
	}
	out := filepath.Join(f.dir, "export.dmp")
	if res := f.run(eng, ops.OpRequest{Op: ops.OpExport, Queue: "QM1.DEADQ", All: true, File: out}); res.Done != 1 {
		t.Errorf("export done %d", res.Done)
	}
	wantDepths(t, f, map[string]int{"QM1.DEADQ": 1, "PARKING.Q": 0})
}

func testGuaranteesContextDryRunReportsEachMessageAndChangesNothing(t *testing.T) {
	f := newOpFixture(t, "")
	c := f.conn()
	f.deadLetter(c, 1, "ORDERS.IN", "QM1", mqfmt.RCQFull)
	f.deadLetter(c, 2, "", "QM1", mqfmt.RCQFull)
	before := f.browse("QM1.DEADQ")
	f.qm.ResetStats()
	res := f.run(f.engine(), ops.OpRequest{Op: ops.OpRequeue, Queue: "QM1.DEADQ", All: true, DryRun: true})
	if res.Items[0].Text(res.Plan.Request.Op) != "would requeue" || res.Items[0].Target != "ORDERS.IN" ||
		res.Items[1].Text(res.Plan.Request.Op) != "skipped: the MQDLH DestQName is blank: give a target" || res.Done != 0 || res.Skipped != 1 {
		t.Fatalf("items %+v", res.Items)
	}
	st := f.qm.Stats().Verbs
	for _, v := range []string{"MQGET", "MQPUT", "MQCMIT", "MQBACK"} {
		if st[v].Calls != 0 {
			t.Errorf("dry run made %d %s calls", st[v].Calls, v)
		}
	}
	after := f.browse("QM1.DEADQ")
	if len(after) != 2 || after[0].MD != before[0].MD {
		t.Error("the queue changed")
	}
	recs := readAuditFile(t, filepath.Join(f.dir, "audit.jsonl"))
	if len(recs) != 2 || !recs[0].DryRun || recs[0].Outcome == "" {
		t.Errorf("audit records %+v", recs)
	}
}
