package actions

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/poisonwatch/poisonwatch/mqwatch"
	"github.com/poisonwatch/poisonwatch/mqwatch/mqfmt"
	"github.com/poisonwatch/poisonwatch/mqwatch/pcf"
)

func TestR10h_ParseFixCommandOnlyTheRulesAttributes(t *testing.T) {
	for _, tc := range []struct {
		mqsc string
		want pcf.Change // zero Command: copy-only
	}{
		{"ALTER QLOCAL(ORDERS.BO) MAXDEPTH(5000)", pcf.Change{Command: pcf.CmdChangeQ, Queue: "ORDERS.BO", Type: mqwatch.QLocal, Attrs: []pcf.Attr{{Keyword: "MAXDEPTH", Value: "5000"}}}},
		{"ALTER QLOCAL(ORDERS.IN) BOTHRESH(3) BOQNAME(ORDERS.BO)", pcf.Change{Command: pcf.CmdChangeQ, Queue: "ORDERS.IN", Type: mqwatch.QLocal,
			Attrs: []pcf.Attr{{Keyword: "BOTHRESH", Value: "3"}, {Keyword: "BOQNAME", Value: "ORDERS.BO"}}}},
		{"ALTER QMODEL(SUBS.MODEL) HARDENBO", pcf.Change{Command: pcf.CmdChangeQ, Queue: "SUBS.MODEL", Type: mqwatch.QModel, Attrs: []pcf.Attr{{Keyword: "HARDENBO", Value: "YES"}}}},
		{"ALTER QALIAS(ORDERS.BO) PUT(ENABLED)", pcf.Change{Command: pcf.CmdChangeQ, Queue: "ORDERS.BO", Type: mqwatch.QAlias, Attrs: []pcf.Attr{{Keyword: "PUT", Value: "ENABLED"}}}},
		{"DEFINE QLOCAL(PAY.BO) MAXDEPTH(5000) MAXMSGL(4194340)", pcf.Change{Command: pcf.CmdCreateQ, Queue: "PAY.BO", Type: mqwatch.QLocal,
			Attrs: []pcf.Attr{{Keyword: "MAXDEPTH", Value: "5000"}, {Keyword: "MAXMSGL", Value: "4194340"}}}},
		{"DEFINE QLOCAL(PARK.Q) LIKE(SYSTEM.DEAD.LETTER.QUEUE) MAXDEPTH(9000)", pcf.Change{Command: pcf.CmdCopyQ, Queue: "PARK.Q", Like: "SYSTEM.DEAD.LETTER.QUEUE", Type: mqwatch.QLocal,
			Attrs: []pcf.Attr{{Keyword: "MAXDEPTH", Value: "9000"}}}},
		{"ALTER QMGR DEADQ(SYSTEM.DEAD.LETTER.QUEUE)", pcf.Change{Command: pcf.CmdChangeQMgr, Attrs: []pcf.Attr{{Keyword: "DEADQ", Value: "SYSTEM.DEAD.LETTER.QUEUE"}}}},
		{"ALTER QLOCAL(ORDERS.IN) DESCR('x')", pcf.Change{}},
		{"ALTER QLOCAL(ORDERS.IN) TRIGGER", pcf.Change{}},
		{"DELETE QLOCAL(ORDERS.IN)", pcf.Change{}},
		{"ALTER QMGR MAXUMSGS(100)", pcf.Change{}},
		{"DEFINE QALIAS(X) TARGET(Y)", pcf.Change{}},
		{"SET AUTHREC PROFILE(X) OBJTYPE(QUEUE) PRINCIPAL('a') AUTHADD(PUT)", pcf.Change{}},
	} {
		t.Run(tc.mqsc, func(t *testing.T) {
			got, err := ParseFixCommand(tc.mqsc)
			if tc.want.Command == 0 {
				if !errors.Is(err, ErrCopyOnly) {
					t.Fatalf("%+v, %v: want copy-only", got, err)
				}
				return
			}
			if err != nil || got.Command != tc.want.Command || got.Queue != tc.want.Queue || got.Like != tc.want.Like ||
				got.Type != tc.want.Type || !slices.Equal(got.Attrs, tc.want.Attrs) {
				t.Errorf("%+v, %v; want %+v", got, err, tc.want)
			}
		})
	}
}

// TestR10h_PlanShowsBeforeAfterAndAuthority: the plan of the R1c fix that
// waits for its BOQ (R8e) says what each step changes and what it needs.
func TestR10h_PlanShowsBeforeAfterAndAuthority(t *testing.T) {
	in := demoQM1()
	f := finding(t, Lint(in), "R1c", "ORDERS.IN")
	p := PlanFix(FixInput{QMgr: in.QMgr, Queues: in.Queues, ID: "R1c:ORDERS.IN", Commands: f.Fix, Prereq: f.Prereq, After: f.After, Notes: f.Notes})
	if len(p.Steps) != 2 || len(p.CopyOnly) != 0 {
		t.Fatalf("plan %+v", p)
	}
	first, then := p.Steps[0], p.Steps[1]
	if first.Fixes != "R8b ORDERS.BO: full, 40 of MAXDEPTH 40" || !slices.Equal(first.Diff, []AttrDiff{{"MAXDEPTH", "40", "5000"}}) || first.Authority != "+chg on queue ORDERS.BO" {
		t.Errorf("first %+v", first)
	}
	if !slices.Equal(then.Diff, []AttrDiff{{"BOTHRESH", "0", "3"}, {"BOQNAME", "(blank)", "ORDERS.BO"}}) || then.Fixes != "" {
		t.Errorf("then %+v", then)
	}
	def := PlanFix(FixInput{QMgr: in.QMgr, Commands: []string{"DEFINE QLOCAL(P.BO) LIKE(QM1.DEADQ) MAXDEPTH(10)", "ALTER QMGR DEADQ(P.BO)"}})
	if def.Steps[0].Authority != "+crt on queues (profile @class), +dsp on QM1.DEADQ" || def.Steps[1].Authority != "+chg on the queue manager QM1" ||
		def.Steps[1].Diff[0] != (AttrDiff{"DEADQ", "QM1.DEADQ", "P.BO"}) {
		t.Errorf("define plan %+v", def.Steps)
	}
}

// TestR10h_ApplyFixThroughTheCommandServer: the R1c fix and its BOQ's room
// are applied in order through PCF, audited with before and after; a step
// refused for authority stops the fix before the step that depends on it.
func TestR10h_ApplyFixThroughTheCommandServer(t *testing.T) {
	f := newQM(t, "ALTER QLOCAL(ORDERS.BO) MAXDEPTH(40)\nALTER QLOCAL(LOOP.IN) BOTHRESH(0)\n")
	srv, err := f.qm.StartCommandServer()
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Stop()
	audit := filepath.Join(t.TempDir(), "audit.jsonl")
	eng, err := NewEngine(EngineOptions{Connector: f.qm, AuditPath: audit, ArchiveDir: t.TempDir(), User: "alice"})
	if err != nil {
		t.Fatal(err)
	}
	p := PlanFix(FixInput{QMgr: mustQMgr(t, f), Queues: mustQueues(t, f), ID: "R1c:LOOP.IN", Prereq: 1, After: []string{"R8b ORDERS.BO: full"},
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
	var recs []AuditRecord
	_ = ReadAudit(bytes.NewReader(data), func(r AuditRecord) error { recs = append(recs, r); return nil })
	if len(recs) != 2 || recs[0].User != "alice" || recs[0].Action != OpFix || recs[0].Before != "MAXDEPTH(40)" || recs[0].After != "MAXDEPTH(5000)" ||
		recs[1].Before != "BOTHRESH(0) BOQNAME((blank))" || recs[1].Outcome != "applied" {
		t.Errorf("audit %+v", recs)
	}
	// The result says the same as the audit, for the dashboard's A view.
	if res.User != "alice" || res.Op != OpFix || res.Steps[0].Before != "MAXDEPTH(40)" || res.Steps[0].After != "MAXDEPTH(5000)" ||
		res.Steps[1].After != "BOTHRESH(3) BOQNAME(ORDERS.BO)" {
		t.Errorf("result %+v", res)
	}

	// A user without chg on ORDERS.BO: the first step fails with 2035 and
	// the BOQNAME change is not sent.
	f.mqsc("SET AUTHREC PROFILE(QM1) OBJTYPE(QMGR) PRINCIPAL('bob') AUTHADD(CONNECT,INQ,DSP)\n" +
		"SET AUTHREC PROFILE(SYSTEM.ADMIN.COMMAND.QUEUE) OBJTYPE(QUEUE) PRINCIPAL('bob') AUTHADD(PUT)\n" +
		"SET AUTHREC PROFILE(SYSTEM.DEFAULT.MODEL.QUEUE) OBJTYPE(QUEUE) PRINCIPAL('bob') AUTHADD(GET,INQ,DSP)\n" +
		"SET AUTHREC PROFILE(LOOP.IN) OBJTYPE(QUEUE) PRINCIPAL('bob') AUTHADD(CHG)\nALTER QLOCAL(LOOP.IN) BOTHRESH(0)\n")
	bob, _ := NewEngine(EngineOptions{Connector: f.qm, Connect: mqwatch.ConnectOptions{User: "bob"}, AuditPath: audit, ArchiveDir: t.TempDir(), User: "bob"})
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
	f := newQM(t, "")
	ro, _ := NewEngine(EngineOptions{Connector: f.qm, AuditPath: filepath.Join(t.TempDir(), "a"), ArchiveDir: t.TempDir(), ReadOnly: true})
	p := PlanFix(FixInput{QMgr: mustQMgr(t, f), Queues: mustQueues(t, f), Commands: []string{"ALTER QLOCAL(ORDERS.BO) MAXDEPTH(9)"}})
	if _, err := ro.ApplyFix(f.ctx, p, "", false); !errors.Is(err, ErrReadOnly) {
		t.Errorf("read-only: %v", err)
	}
	if _, err := ro.ApplyFix(f.ctx, p, "", true); err != nil {
		t.Errorf("a dry run is allowed read-only: %v", err)
	}
	mixed := PlanFix(FixInput{QMgr: mustQMgr(t, f), Commands: []string{"ALTER QLOCAL(ORDERS.BO) MAXDEPTH(9)", "ALTER QLOCAL(ORDERS.BO) DESCR('x')"}})
	if _, err := ro.ApplyFix(f.ctx, mixed, "", true); !errors.Is(err, ErrCopyOnly) {
		t.Errorf("a plan with a copy-only command: %v", err)
	}
}

// TestR8e_FixNeverLowersALimitRaisedMeanwhile: the BOQ's room step of an
// R1c fix is skipped when a colleague raised MAXDEPTH further since the
// poll; the fix proper still runs.
func TestR8e_FixNeverLowersALimitRaisedMeanwhile(t *testing.T) {
	f := newQM(t, "ALTER QLOCAL(ORDERS.BO) MAXDEPTH(40)\nALTER QLOCAL(LOOP.IN) BOTHRESH(0)\n")
	srv, err := f.qm.StartCommandServer()
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Stop()
	p := PlanFix(FixInput{QMgr: mustQMgr(t, f), Queues: mustQueues(t, f), ID: "R1c:LOOP.IN", Prereq: 1, After: []string{"R8b ORDERS.BO: full"},
		Commands: []string{"ALTER QLOCAL(ORDERS.BO) MAXDEPTH(5000)", "ALTER QLOCAL(LOOP.IN) BOTHRESH(3) BOQNAME(ORDERS.BO)"}})
	f.mqsc("ALTER QLOCAL(ORDERS.BO) MAXDEPTH(20000)\n")
	eng, _ := NewEngine(EngineOptions{Connector: f.qm, AuditPath: filepath.Join(t.TempDir(), "a"), ArchiveDir: t.TempDir()})
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
