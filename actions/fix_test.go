package actions

import (
	"errors"
	"slices"
	"testing"

	"github.com/poisonwatch/poisonwatch/mqwatch"
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
		// MQSC as runmqsc reads it: unquoted names fold, quoted ones are kept.
		{"ALTER QLOCAL('orders.lc') GET(DISABLED)", pcf.Change{Command: pcf.CmdChangeQ, Queue: "orders.lc", Type: mqwatch.QLocal, Attrs: []pcf.Attr{{Keyword: "GET", Value: "DISABLED"}}}},
		{"alter qlocal(orders.lc) get(disabled)", pcf.Change{Command: pcf.CmdChangeQ, Queue: "ORDERS.LC", Type: mqwatch.QLocal, Attrs: []pcf.Attr{{Keyword: "GET", Value: "DISABLED"}}}},
		{"ALTER QLOCAL('a.in') BOQNAME('a.bo')", pcf.Change{Command: pcf.CmdChangeQ, Queue: "a.in", Type: mqwatch.QLocal, Attrs: []pcf.Attr{{Keyword: "BOQNAME", Value: "a.bo"}}}},
		{"DEFINE QLOCAL('p.q') LIKE('dead.q') MAXDEPTH(9)", pcf.Change{Command: pcf.CmdCopyQ, Queue: "p.q", Like: "dead.q", Type: mqwatch.QLocal, Attrs: []pcf.Attr{{Keyword: "MAXDEPTH", Value: "9"}}}},
		{"ALTER QMGR DEADQ('dlq.lc')", pcf.Change{Command: pcf.CmdChangeQMgr, Attrs: []pcf.Attr{{Keyword: "DEADQ", Value: "dlq.lc"}}}},
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
