package ops_test

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/poisonwatch/poisonwatch/actions"
	"github.com/poisonwatch/poisonwatch/actions/ops"
	"github.com/poisonwatch/poisonwatch/codec/mqfmt"
	"github.com/poisonwatch/poisonwatch/mqwatch"
	"github.com/poisonwatch/poisonwatch/mqwatch/pcf"
)

// bobMay gives bob what sending PCF needs and, with dsp, the queue
// manager's display; auths are more SET AUTHREC lines.
func bobMay(dsp bool, auths ...string) string {
	qm := "CONNECT,INQ"
	if dsp {
		qm += ",DSP"
	}
	s := "SET AUTHREC PROFILE(QM1) OBJTYPE(QMGR) PRINCIPAL('bob') AUTHADD(" + qm + ")\n" +
		"SET AUTHREC PROFILE(SYSTEM.ADMIN.COMMAND.QUEUE) OBJTYPE(QUEUE) PRINCIPAL('bob') AUTHADD(PUT)\n" +
		"SET AUTHREC PROFILE(SYSTEM.DEFAULT.MODEL.QUEUE) OBJTYPE(QUEUE) PRINCIPAL('bob') AUTHADD(GET,INQ,DSP)\n"
	for _, a := range auths {
		s += a + "\n"
	}
	return s
}

// TestR10h_GateDryRunPredictsEachStep: the change gate's dry run connects,
// reads the objects again and predicts per step what the command server
// answers; the run that follows gets exactly that answer.
func TestR10h_GateDryRunPredictsEachStep(t *testing.T) {
	crt := "SET AUTHREC PROFILE('@class') OBJTYPE(QUEUE) PRINCIPAL('bob') AUTHADD(CRT)"
	dspDefault := "SET AUTHREC PROFILE(SYSTEM.DEFAULT.LOCAL.QUEUE) OBJTYPE(QUEUE) PRINCIPAL('bob') AUTHADD(DSP)"
	for _, tc := range []struct {
		name  string
		mqsc  string // the queue manager's objects and bob's authorities
		user  string // "" = the administrator
		cmds  []string
		want  []int32 // predicted reason per step (a failed step is the last)
		prose string  // in the failing step's prediction
	}{
		{"R10h_define_of_an_existing_queue_is_4001", "", "", []string{"DEFINE QLOCAL(ORDERS.BO) MAXDEPTH(10)"},
			[]int32{pcf.ReasonObjectAlreadyExists}, "MQRCCF_OBJECT_ALREADY_EXISTS (4001)"},
		{"R10h_change_of_a_missing_queue_is_2085", "", "", []string{"ALTER QLOCAL(NO.SUCH) MAXDEPTH(10)"},
			[]int32{int32(mqfmt.RCUnknownObjectName)}, "MQRC_UNKNOWN_OBJECT_NAME (2085)"},
		{"R10h_change_of_another_type_is_4002", "DEFINE QALIAS(LOOP.A) TARGET(LOOP.IN)\n", "", []string{"ALTER QLOCAL(LOOP.A) PUT(ENABLED)"},
			[]int32{pcf.ReasonObjectWrongType}, "MQRCCF_OBJECT_WRONG_TYPE (4002)"},
		{"R10h_like_of_another_type_is_4003", "DEFINE QALIAS(LOOP.A) TARGET(LOOP.IN)\n", "", []string{"DEFINE QLOCAL(P.Q) LIKE(LOOP.A)"},
			[]int32{pcf.ReasonLikeWrongType}, "MQRCCF_LIKE_OBJECT_WRONG_TYPE (4003)"},
		{"R10h_define_without_crt_is_2035", bobMay(true, dspDefault), "bob", []string{"DEFINE QLOCAL(P.Q) MAXDEPTH(10)"},
			[]int32{int32(mqfmt.RCNotAuthorized)}, "bob lacks +crt on queues (profile @class)"},
		{"R10h_define_without_dsp_on_the_default_queue_is_2035", bobMay(true, crt), "bob", []string{"DEFINE QLOCAL(P.Q) MAXDEPTH(10)"},
			[]int32{int32(mqfmt.RCNotAuthorized)}, "bob lacks +dsp on SYSTEM.DEFAULT.LOCAL.QUEUE"},
		{"R10h_change_without_dsp_on_the_qmgr_is_2035", bobMay(false, "SET AUTHREC PROFILE(LOOP.IN) OBJTYPE(QUEUE) PRINCIPAL('bob') AUTHADD(CHG)"), "bob",
			[]string{"ALTER QLOCAL(LOOP.IN) BOTHRESH(3)"}, []int32{int32(mqfmt.RCNotAuthorized)}, "lacks +dsp on the queue manager QM1"},
		{"R10h_second_step_without_chg_is_2035", bobMay(true, "SET AUTHREC PROFILE(ORDERS.BO) OBJTYPE(QUEUE) PRINCIPAL('bob') AUTHADD(CHG,DSP)",
			"SET AUTHREC PROFILE(LOOP.IN) OBJTYPE(QUEUE) PRINCIPAL('bob') AUTHADD(DSP)"), "bob",
			[]string{"ALTER QLOCAL(ORDERS.BO) MAXDEPTH(5000)", "ALTER QLOCAL(LOOP.IN) BOTHRESH(3) BOQNAME(ORDERS.BO)"},
			[]int32{0, int32(mqfmt.RCNotAuthorized)}, "bob lacks +chg on LOOP.IN"},
		{"R10h_undisplayable_queue_is_uncertain", bobMay(true, "SET AUTHREC PROFILE(LOOP.IN) OBJTYPE(QUEUE) PRINCIPAL('bob') AUTHADD(CHG)"), "bob",
			[]string{"ALTER QLOCAL(LOOP.IN) BOTHRESH(3)"}, []int32{0}, ""},
		{"R10h_define_then_a_step_that_names_it_applies", "", "", []string{"DEFINE QLOCAL(P.BO) MAXDEPTH(10)", "ALTER QLOCAL(P.BO) MAXMSGL(2000)"},
			[]int32{0, 0}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := newFixFixture(t, "ALTER QLOCAL(ORDERS.BO) MAXDEPTH(40)\n"+tc.mqsc)
			srv, err := f.qm.StartCommandServer()
			if err != nil {
				t.Fatal(err)
			}
			defer srv.Stop()
			eng := f.engine(func(o *ops.EngineOptions) { o.Connect = mqwatch.ConnectOptions{User: tc.user, ApplName: "gate test"} })
			p := actions.PlanFix(actions.FixInput{QMgr: mustQMgr(t, f), ID: "x", Commands: tc.cmds})
			res, err := eng.ChangeGate().Plan(f.ctx, p, ops.OpFix, "")
			if err != nil || len(res.Steps) != len(tc.want) {
				t.Fatalf("%+v %v", res, err)
			}
			for i, s := range res.Steps {
				if s.Predicted != tc.want[i] || s.Uncertain != strings.Contains(tc.name, "uncertain") {
					t.Errorf("step %d %s: predicted %d %q (uncertain %v), want %d", i+1, s.MQSC, s.Predicted, s.Prediction, s.Uncertain, tc.want[i])
				}
			}
			last := res.Steps[len(res.Steps)-1]
			if !strings.Contains(last.Prediction, tc.prose) || res.WouldApply() != (tc.prose == "") {
				t.Errorf("prediction %q, want %q; would apply %v", last.Prediction, tc.prose, res.WouldApply())
			}
			// The run gets what the dry run predicted.
			run, _ := eng.ChangeGate().Apply(f.ctx, p, ops.OpFix, "")
			if got := run.Steps[len(run.Steps)-1].Reason; got != tc.want[len(tc.want)-1] {
				t.Errorf("the run answered %d (%s), the dry run predicted %d", got, run.Steps[len(run.Steps)-1].Error, tc.want[len(tc.want)-1])
			}
		})
	}
}

// TestR10h_GateDryRunIsAllowedReadOnlyAndSendsNothing: a dry run changes
// nothing and writes no audit line, even read-only.
func TestR10h_GateDryRunIsAllowedReadOnlyAndSendsNothing(t *testing.T) {
	f := newFixFixture(t, "ALTER QLOCAL(ORDERS.BO) MAXDEPTH(40)\n")
	srv, err := f.qm.StartCommandServer()
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Stop()
	audit := filepath.Join(t.TempDir(), "audit.jsonl")
	eng := f.engine(func(o *ops.EngineOptions) { o.ReadOnly, o.AuditPath = true, audit })
	p := actions.PlanFix(actions.FixInput{QMgr: mustQMgr(t, f), ID: "x", Commands: []string{"ALTER QLOCAL(ORDERS.BO) MAXDEPTH(5000)"}})
	res, err := eng.ApplyFix(f.ctx, p, "", true)
	if err != nil || !res.WouldApply() || res.Steps[0].Before != "MAXDEPTH(40)" {
		t.Fatalf("%+v %v", res, err)
	}
	if q := queueByName(t, f, "ORDERS.BO"); q.MaxDepth != 40 {
		t.Errorf("the dry run changed MAXDEPTH to %d", q.MaxDepth)
	}
	if _, err := filepath.Glob(audit); err != nil {
		t.Fatal(err)
	}
}
