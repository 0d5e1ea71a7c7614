package ops_test

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/poisonwatch/poisonwatch/actions"
	"github.com/poisonwatch/poisonwatch/actions/ops"
	"github.com/poisonwatch/poisonwatch/codec/mqfmt"
	"github.com/poisonwatch/poisonwatch/incident/journal"
)

// actLines are the lines acts wrote to the audit log when they ended.
func actLines(t *testing.T, path string) []ops.AuditRecord {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var out []ops.AuditRecord
	_ = ops.ReadAudit(bytes.NewReader(b), func(r ops.AuditRecord) error {
		if r.Act != "" {
			out = append(out, r)
		}
		return nil
	})
	return out
}

func withJournal(j *journal.Journal) func(*ops.EngineOptions) {
	return func(o *ops.EngineOptions) { o.Journal = j }
}

// A run is one act, written when it ends with its counts; what its check
// found completes it, in the journal and in the audit log alike.
func TestJournal_R10f_ARunAndWhatCameBack(t *testing.T) {
	f := newOpFixture(t, "")
	c := f.conn()
	f.deadLetter(c, 1, "ORDERS.IN", "QM1", mqfmt.RCQFull)
	f.deadLetter(c, 2, "ORDERS.IN", "QM1", mqfmt.RCQFull)
	j := journal.New()
	res := f.run(f.engine(withJournal(j)), ops.OpRequest{Op: ops.OpRequeue, Queue: "QM1.DEADQ", All: true, Verify: 3 * time.Second, User: "alice"})
	es := j.Entries()
	if len(es) != 2 || es[0].Kind != journal.Run || es[1].Kind != journal.CameBack || es[1].Ref != es[0].Seq || res.Entry != es[0].Seq {
		t.Fatalf("entries %+v (result's entry %d)", es, res.Entry)
	}
	run := es[0]
	if run.User != "alice" || run.QMgr != "QM1" || run.Queue != "QM1.DEADQ" || run.Counts.Done != 2 || run.Outcome != "2 requeued" ||
		!strings.HasPrefix(run.Text, "Requeue 2 messages from QM1.DEADQ") || run.Status != journal.OK {
		t.Errorf("run entry %+v", run)
	}
	if es[1].Outcome != "none of the 2 came back within 3 s" {
		t.Errorf("check %q", es[1].Outcome)
	}
	acts := journal.Acts(es)
	if len(acts) != 1 || acts[0].Outcome != "2 requeued · none of the 2 came back within 3 s" {
		t.Errorf("acts %+v", acts)
	}
	lines := actLines(t, filepath.Join(f.dir, "audit.jsonl"))
	if len(lines) != 2 || lines[0].Act != "run" || lines[0].Outcome != run.Outcome || lines[1].Act != "came back" || lines[1].Outcome != es[1].Outcome {
		t.Errorf("audit act lines %+v", lines)
	}
	// A dry run is not an act.
	f.run(f.engine(withJournal(j)), ops.OpRequest{Op: ops.OpDiscard, Queue: "ORDERS.IN", All: true, DryRun: true})
	if j.Len() != 2 {
		t.Errorf("a dry run was journalled: %+v", j.Entries()[2:])
	}
}

// A check stopped by the operator says how long it looked, not the window
// it would have looked for.
func TestJournal_R10f_AStoppedCheckSaysHowLongItLooked(t *testing.T) {
	f := newOpFixture(t, "")
	f.deadLetter(f.conn(), 1, "ORDERS.IN", "QM1", mqfmt.RCQFull)
	ctx, cancel := context.WithCancel(f.ctx)
	sleeps := 0
	stopAfter2s := func(o *ops.EngineOptions) {
		sleep := o.Sleep
		o.Sleep = func(c context.Context, d time.Duration) error {
			if sleeps++; sleeps == 2 {
				cancel() // esc, two polls into the check
			}
			if err := sleep(c, d); err != nil {
				return err
			}
			return c.Err()
		}
	}
	j := journal.New()
	res, _ := f.engine(withJournal(j), stopAfter2s).Run(ctx, ops.OpRequest{Op: ops.OpRequeue, Queue: "QM1.DEADQ", All: true, Verify: 30 * time.Second}, nil)
	if res.Verify == nil || !res.Verify.Stopped {
		t.Fatalf("check %+v", res.Verify)
	}
	want := "none of the 1 came back in the 2 s checked (check stopped before 30 s)"
	if s := res.Verify.Sentence(); s != want {
		t.Errorf("sentence %q, want %q", s, want)
	}
	if es := j.Entries(); len(es) != 2 || es[1].Outcome != want {
		t.Errorf("journal %+v", es)
	}
}

// Fixes, inhibits and definitions are acts of their own kind, each with
// its steps' values before and after.
func TestJournal_R10h_FixInhibitAndDefineAreToldApart(t *testing.T) {
	f := newFixFixture(t, "ALTER QLOCAL(ORDERS.BO) MAXDEPTH(40)\n")
	srv, err := f.qm.StartCommandServer()
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Stop()
	j := journal.New()
	eng := f.engine(withJournal(j))
	fix := actions.PlanFix(actions.FixInput{QMgr: mustQMgr(t, f), Queues: mustQueues(t, f), ID: "R8b:ORDERS.BO",
		Commands: []string{"ALTER QLOCAL(ORDERS.BO) MAXDEPTH(5000)"}})
	if res, err := eng.ApplyFix(f.ctx, fix, "alice", false); err != nil || res.Entry == 0 {
		t.Fatalf("fix %+v %v", res, err)
	}
	if _, err := eng.SetInhibit(f.ctx, queueByName(t, f, "LOOP.IN"), "QM1", "GET", true, "alice"); err != nil {
		t.Fatal(err)
	}
	define := actions.PlanFix(actions.FixInput{QMgr: mustQMgr(t, f), Queues: mustQueues(t, f), ID: "",
		Commands: []string{"DEFINE QLOCAL(ORDERS.PARK) LIKE(QM1.DEADQ)"}})
	if _, err := eng.ChangeGate().Apply(f.ctx, define, ops.OpFix, "alice"); err != nil {
		t.Fatal(err)
	}
	es := j.Entries()
	if len(es) != 3 {
		t.Fatalf("entries %+v", es)
	}
	want := []struct {
		kind  journal.Kind
		queue string
		step  journal.Step
	}{
		{journal.Fix, "ORDERS.BO", journal.Step{MQSC: "ALTER QLOCAL(ORDERS.BO) MAXDEPTH(5000)", Before: "MAXDEPTH(40)", After: "MAXDEPTH(5000)", Applied: true}},
		{journal.Inhibit, "LOOP.IN", journal.Step{MQSC: "ALTER QLOCAL(LOOP.IN) GET(DISABLED)", Before: "GET(ENABLED)", After: "GET(DISABLED)", Applied: true}},
		{journal.Define, "ORDERS.PARK", journal.Step{MQSC: "DEFINE QLOCAL(ORDERS.PARK) LIKE(QM1.DEADQ)", Applied: true}},
	}
	for i, w := range want {
		e := es[i]
		if e.Kind != w.kind || e.Queue != w.queue || e.User != "alice" || e.Outcome != "applied" || len(e.Steps) != 1 ||
			e.Steps[0].MQSC != w.step.MQSC || !e.Steps[0].Applied || (w.step.Before != "" && (e.Steps[0].Before != w.step.Before || e.Steps[0].After != w.step.After)) {
			t.Errorf("entry %d: %+v, want %s on %s %+v", i, e, w.kind, w.queue, w.step)
		}
	}
	if es[0].Alert != "R8b:ORDERS.BO" {
		t.Errorf("the fix names alert %q", es[0].Alert)
	}
}

// An edit and resend is an act, refused ones too.
func TestJournal_R10i_EditIsAnAct(t *testing.T) {
	f, s := editFixture(t)
	j := journal.New()
	res, err := f.engine(withJournal(j)).Edit(f.ctx, ops.EditRequest{Queue: "QM1.DEADQ", Msg: s, Body: []byte(`{"order":1}`), User: "bob"})
	if err != nil {
		t.Fatal(err)
	}
	es := j.Entries()
	if len(es) != 1 || es[0].Kind != journal.Edit || es[0].User != "bob" || es[0].Target != "ORDERS.IN" || es[0].Outcome != "edited" ||
		es[0].Status != journal.OK || res.Entry != 1 {
		t.Fatalf("entries %+v", es)
	}
}
