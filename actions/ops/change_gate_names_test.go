package ops_test

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/poisonwatch/poisonwatch/actions"
	"github.com/poisonwatch/poisonwatch/actions/ops"
	"github.com/poisonwatch/poisonwatch/backend/embedded/embeddedtest"
	"github.com/poisonwatch/poisonwatch/mqwatch"
)

// IBM MQ object names are case-sensitive: only unquoted MQSC folds them.
// Every change path carries the name as it is, and the MQSC it shows and
// audits quotes it, so a user who copies it into runmqsc changes the same
// queue.

const lowerCaseQueues = "DEFINE QLOCAL('orders.lc')\nDEFINE QLOCAL(ORDERS.LC)\nDEFINE QLOCAL('orders.bo')\n"

func queueByName(t *testing.T, f *opFixture, name string) mqwatch.QueueInfo {
	t.Helper()
	for _, q := range mustQueues(t, f) {
		if q.Name == name {
			return q
		}
	}
	t.Fatalf("no queue %q", name)
	return mqwatch.QueueInfo{}
}

// runsOnEmbedded runs the MQSC a step shows on a fresh queue manager with
// the same queues, through the embedded MQSC parser, and returns it.
func runsOnEmbedded(t *testing.T, mqsc string) *embeddedtest.QM {
	t.Helper()
	return embeddedtest.New(t, embeddedtest.Options{Name: "QM1", ProcessUser: "mqm",
		MQSC: "DEFINE QLOCAL(QM1.DEADQ)\nALTER QMGR DEADQ(QM1.DEADQ)\n" + lowerCaseQueues + mqsc + "\n"})
}

func TestR10h_NamesAreNeverFolded(t *testing.T) {
	for _, tc := range []struct {
		name  string
		queue string
		mqsc  string
	}{
		{"R10h_inhibit_lower_case", "orders.lc", "ALTER QLOCAL('orders.lc') GET(DISABLED)"},
		{"R10h_inhibit_upper_case_unchanged", "ORDERS.LC", "ALTER QLOCAL(ORDERS.LC) GET(DISABLED)"},
		{"R10h_inhibit_another_lower_case", "orders.bo", "ALTER QLOCAL('orders.bo') GET(DISABLED)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := newFixFixture(t, lowerCaseQueues)
			srv, err := f.qm.StartCommandServer()
			if err != nil {
				t.Fatal(err)
			}
			defer srv.Stop()
			audit := filepath.Join(t.TempDir(), "audit.jsonl")
			eng := f.engine(func(o *ops.EngineOptions) { o.AuditPath = audit })
			res, err := eng.SetInhibit(f.ctx, queueByName(t, f, tc.queue), "QM1", "GET", true, "alice")
			if err != nil || !res.Applied() {
				t.Fatalf("%+v %v", res, err)
			}
			for _, q := range []string{"orders.lc", "ORDERS.LC", "orders.bo"} {
				if got := queueByName(t, f, q).InhibitGet; got != (q == tc.queue) {
					t.Errorf("%s: GET inhibited %v", q, got)
				}
			}
			data, _ := os.ReadFile(audit)
			var recs []ops.AuditRecord
			_ = ops.ReadAudit(bytes.NewReader(data), perStep(&recs))
			if len(recs) != 1 || recs[0].MQSC != tc.mqsc || recs[0].From != tc.queue || res.Plan.Steps[0].MQSC != tc.mqsc {
				t.Fatalf("audit %+v plan %+v, want %s", recs, res.Plan.Steps, tc.mqsc)
			}
			// The MQSC shown does the same in runmqsc (the embedded parser).
			qm := runsOnEmbedded(t, tc.mqsc)
			c, _ := qm.Connect(f.ctx, mqwatch.ConnectOptions{})
			defer c.Close()
			qs, _ := c.Queues(f.ctx, "*")
			for _, q := range qs {
				if q.InhibitGet != (q.Name == tc.queue) {
					t.Errorf("runmqsc %s: %s GET inhibited %v", tc.mqsc, q.Name, q.InhibitGet)
				}
			}
		})
	}
}

// TestR10h_FixAndParkKeepLowerCaseNames: a lint fix and a parking queue on
// lower-case names change and define the named queues.
func TestR10h_FixAndParkKeepLowerCaseNames(t *testing.T) {
	f := newFixFixture(t, lowerCaseQueues)
	srv, err := f.qm.StartCommandServer()
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Stop()
	eng := f.engine()
	in := actions.LintInput{QMgr: mustQMgr(t, f), Queues: mustQueues(t, f)}
	var fix []string
	for _, fd := range actions.Lint(in) {
		if fd.Queue == "orders.lc" && len(fd.Fix) > 0 {
			fix = fd.Fix
		}
	}
	p := actions.PlanFix(actions.FixInput{QMgr: in.QMgr, Queues: in.Queues, ID: "x:orders.lc", Commands: []string{"ALTER QLOCAL('orders.lc') BOTHRESH(3) BOQNAME('orders.bo')"}})
	if res, err := eng.ApplyFix(f.ctx, p, "", false); err != nil || !res.Applied() {
		t.Fatalf("%+v %v", res, err)
	}
	if q := queueByName(t, f, "orders.lc"); q.BackoutThresh != 3 || q.BackoutQName != "orders.bo" || queueByName(t, f, "ORDERS.LC").BackoutThresh != 0 {
		t.Errorf("orders.lc %+v", q)
	}
	for _, c := range fix {
		if strings.Contains(c, "orders.lc") && !strings.Contains(c, "'orders.lc'") {
			t.Errorf("lint fix %q: the lower-case name is not quoted", c)
		}
	}
	pp, err := actions.ParkPlan(actions.ParkInput{QMgr: mustQMgr(t, f), Queues: mustQueues(t, f), Name: "park.lc", Like: "orders.lc", MaxDepth: 10})
	if err != nil {
		t.Fatal(err)
	}
	if res, err := eng.ApplyFix(f.ctx, pp, "", false); err != nil || !res.Applied() {
		t.Fatalf("%+v %v", res, err)
	}
	if q := queueByName(t, f, "park.lc"); q.MaxDepth != 10 {
		t.Errorf("park.lc %+v", q)
	}
	for _, q := range mustQueues(t, f) {
		if q.Name == "PARK.LC" {
			t.Error("PARK.LC was defined")
		}
	}
}
