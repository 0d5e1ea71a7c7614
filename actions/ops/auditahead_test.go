package ops_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/poisonwatch/poisonwatch/actions/ops"
	"github.com/poisonwatch/poisonwatch/backend/embedded"
	"github.com/poisonwatch/poisonwatch/codec/mqfmt"
)

// An audit log that cannot be written stops the run before anything is
// acted on without a record: /dev/full takes no line, so nothing is
// discarded, and the messages keep their BackoutCount.
func TestAuditWrittenBeforeTheCommit_UnwritableLogActsOnNothing(t *testing.T) {
	if _, err := os.Stat("/dev/full"); err != nil {
		t.Skip("no /dev/full here")
	}
	for _, op := range []ops.Op{ops.OpDiscard, ops.OpMove, ops.OpReplay} {
		t.Run(string(op), func(t *testing.T) {
			f := newOpFixture(t, "")
			c := f.conn()
			for n := 1; n <= 37; n++ {
				f.deadLetter(c, n, "ORDERS.IN", "QM1", mqfmt.RCQFull)
			}
			eng := f.engine(func(o *ops.EngineOptions) { o.AuditPath = "/dev/full" })
			req := ops.OpRequest{Op: op, Queue: "QM1.DEADQ", All: true, Batch: 10}
			if op != ops.OpDiscard {
				req.Target = "PARKING.Q"
			}
			before := f.browse("QM1.DEADQ")
			res, err := eng.Run(f.ctx, req, nil)
			if err == nil || res.Done != 0 || !strings.Contains(res.Stopped, "audit log") {
				t.Fatalf("done %d stopped %q err %v: want a stop for the audit log with nothing done", res.Done, res.Stopped, err)
			}
			wantDepths(t, f, map[string]int{"QM1.DEADQ": 37, "PARKING.Q": 0})
			checkUntouched(t, before, f.browse("QM1.DEADQ"))
		})
	}
}

// A batch's lines are written as pending before its gets, and its outcome
// after MQCMIT: two lines per message, pending first (issue 25 item 16).
func TestR10f_AuditPendingBeforeTheGetOutcomeAfterTheCommit(t *testing.T) {
	f := newOpFixture(t, "")
	c := f.conn()
	for n := 1; n <= 25; n++ {
		f.deadLetter(c, n, "ORDERS.IN", "QM1", mqfmt.RCQFull)
	}
	res := f.run(f.engine(), ops.OpRequest{Op: ops.OpRequeue, Queue: "QM1.DEADQ", All: true, Batch: 10, Workers: 1})
	recs := readAuditFile(t, res.AuditFile)
	if len(recs) != 50 {
		t.Fatalf("%d audit lines for 25 messages, want 50", len(recs))
	}
	seen := map[string][]string{}
	for _, r := range recs {
		if r.To != "ORDERS.IN" {
			t.Errorf("line %+v", r)
		}
		seen[r.MsgId] = append(seen[r.MsgId], r.Outcome)
	}
	for id, outs := range seen {
		if len(outs) != 2 || outs[0] != "pending" || outs[1] != "requeued" {
			t.Errorf("message %s: outcomes %q, want pending then requeued", id, outs)
		}
	}
	// A batch's pending lines come before any of its outcome lines.
	if recs[9].Outcome != "pending" || recs[10].Outcome != "requeued" {
		t.Errorf("lines 10 and 11: %q, %q; want the first batch's 10 pending lines, then their outcomes", recs[9].Outcome, recs[10].Outcome)
	}
}

// A batch backed out after its lines were written gets a line saying so:
// the last line for a message is what happened to it.
func TestAuditWrittenBeforeTheCommit_BackedOutBatchIsSaidSo(t *testing.T) {
	cases := []struct {
		name  string
		fault embedded.Fault
		want  map[int]string
	}{
		{"a_get_finds_a_message_gone", embedded.Fault{Verb: embedded.VerbGet, After: 1, Times: 1, RC: mqfmt.RCNoMsgAvailable},
			map[int]string{1: "moved", 2: "skipped: gone", 3: "moved"}},
		{"MQCMIT_backs_out", embedded.Fault{Verb: embedded.VerbCommit, Times: 1, RC: mqfmt.RCBackedOut},
			map[int]string{1: "not done: backed out", 2: "not done: backed out", 3: "not done: backed out"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			f := newOpFixture(t, "")
			c := f.conn()
			for n := 1; n <= 3; n++ {
				f.deadLetter(c, n, "ORDERS.IN", "QM1", mqfmt.RCQFull)
			}
			f.qm.Faults().Add(tc.fault)
			res, _ := f.engine().Run(f.ctx, ops.OpRequest{Op: ops.OpMove, Queue: "QM1.DEADQ", All: true,
				Target: "PARKING.Q", Workers: 1}, nil)
			last := map[string]string{}
			for _, r := range readAuditFile(t, res.AuditFile) {
				last[r.MsgId] = r.Outcome
			}
			for n, want := range tc.want {
				if got := last[hexOf(msgID(n))]; !strings.HasPrefix(got, want) {
					t.Errorf("message %d: last outcome %q, want %q", n, got, want)
				}
			}
		})
	}
}

// A symbolic link as the audit log is refused; an existing log others may
// read is made 0600 with a warning.
func TestAuditLogPathIsChecked(t *testing.T) {
	f := newOpFixture(t, "")
	dir := t.TempDir()
	real := filepath.Join(dir, "real.jsonl")
	if err := os.WriteFile(real, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "link.jsonl")
	if err := os.Symlink(real, link); err != nil {
		t.Skipf("this system cannot make a symbolic link (%v): the linked audit log case is not exercised", err)
	}
	req := ops.OpRequest{Op: ops.OpExport, Queue: "QM1.DEADQ", All: true, File: filepath.Join(dir, "x.dmp")}
	_, err := f.engine(func(o *ops.EngineOptions) { o.AuditPath = link }).Run(f.ctx, req, nil)
	if err == nil || !strings.Contains(err.Error(), "symbolic link") {
		t.Fatalf("err %v, want the symbolic link refused", err)
	}
	wide := filepath.Join(dir, "wide.jsonl")
	if err := os.WriteFile(wide, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(wide, 0o644); err != nil {
		t.Fatal(err)
	}
	req.File = filepath.Join(dir, "y.dmp")
	res, err := f.engine(func(o *ops.EngineOptions) { o.AuditPath = wide }).Run(f.ctx, req, nil)
	if err != nil {
		t.Fatal(err)
	}
	if fi, _ := os.Stat(wide); fi.Mode().Perm() != 0o600 {
		t.Errorf("mode %04o, want 0600", fi.Mode().Perm())
	}
	if !strings.Contains(strings.Join(res.Plan.Warnings, "\n"), "changed to 0600") {
		t.Errorf("warnings %q: want one about the mode", res.Plan.Warnings)
	}
}
