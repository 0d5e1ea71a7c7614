package ops_test

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/poisonwatch/poisonwatch/actions/ops"
	"github.com/poisonwatch/poisonwatch/backend/embedded"
	"github.com/poisonwatch/poisonwatch/codec/mqfmt"
	"github.com/poisonwatch/poisonwatch/mqwatch"
)

func editFixture(t *testing.T) (*opFixture, mqwatch.Summary) {
	f := newOpFixture(t, "")
	f.deadLetter(f.conn(), 1, "ORDERS.IN", "", mqfmt.RCQFull)
	return f, f.summaries("QM1.DEADQ")[0]
}

func readEditArchive(t *testing.T, path string) []mqfmt.QLoadMessage {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("archive: %v", err)
	}
	msgs, err := mqfmt.ReadQLoad(bytes.NewReader(b))
	if err != nil {
		t.Fatalf("read archive: %v", err)
	}
	return msgs
}

func auditLines(t *testing.T, f *opFixture) []ops.AuditRecord {
	t.Helper()
	b, _ := os.ReadFile(filepath.Join(f.dir, "audit.jsonl"))
	var out []ops.AuditRecord
	if err := ops.ReadAudit(bytes.NewReader(b), perStep(&out)); err != nil {
		t.Fatal(err)
	}
	return out
}

func TestR10i_EditPutsTheCopyArchivesAndRemovesTheOriginal(t *testing.T) {
	f, s := editFixture(t)
	md, _ := original(1)
	eng := f.engine()
	res, err := eng.Edit(f.ctx, ops.EditRequest{Queue: "QM1.DEADQ", Msg: s, Body: []byte(`{"order":1,"qty":2}`)})
	if err != nil {
		t.Fatalf("Edit: %v (%s)", err, res.Text)
	}
	wantDepths(t, f, map[string]int{"QM1.DEADQ": 0, "ORDERS.IN": 1})
	got := f.browse("ORDERS.IN")[0]
	if string(got.Data) != `{"order":1,"qty":2}` || mqfmt.Trim(got.MD.Format) != "MQSTR" || got.MD.CodedCharSetId != 819 {
		t.Fatalf("copy = %q format %q CCSID %d: want the new body without the MQDLH", got.Data, got.MD.Format, got.MD.CodedCharSetId)
	}
	if contextOf(got.MD) != contextOf(md) || got.MD.CorrelId != md.CorrelId || got.MD.MsgId == md.MsgId {
		t.Fatalf("copy context %s, want %s with the CorrelId and a new MsgId", contextOf(got.MD), contextOf(md))
	}
	if res.Plan.Target != "ORDERS.IN" || len(res.Plan.Diff) == 0 || !strings.Contains(strings.Join(res.Plan.Headers, "\n"), "MQDLH removed") {
		t.Fatalf("plan: target %q diff %q headers %q", res.Plan.Target, res.Plan.Diff, res.Plan.Headers)
	}
	if !strings.HasPrefix(filepath.Base(res.ArchiveFile), "edit-QM1-QM1.DEADQ-") {
		t.Errorf("archive %s, want a file named for the edit", res.ArchiveFile)
	}
	arch := readEditArchive(t, res.ArchiveFile)
	if len(arch) != 1 || arch[0].MD.MsgId != s.MsgId || !bytes.Equal(arch[0].Data, res.Plan.Original.Data) {
		t.Fatalf("archive holds %d messages, want the original", len(arch))
	}
	lines := auditLines(t, f)
	if len(lines) != 1 || lines[0].Action != ops.OpEdit || lines[0].Outcome != "edited" || lines[0].File != res.ArchiveFile || lines[0].To != "ORDERS.IN" {
		t.Fatalf("audit = %+v", lines)
	}
}

func TestR10i_AFailedPutBacksOutAndLosesNothing(t *testing.T) {
	f, s := editFixture(t)
	f.qm.Faults().Add(embedded.Fault{Verb: embedded.VerbPut, Queue: "ORDERS.IN", RC: mqfmt.RCQFull})
	res, err := f.engine().Edit(f.ctx, ops.EditRequest{Queue: "QM1.DEADQ", Msg: s, Body: []byte("x")})
	if err == nil || !mqwatch.IsReason(err, mqfmt.RCQFull) || res.Done {
		t.Fatalf("Edit = %v, want MQRC_Q_FULL", err)
	}
	wantDepths(t, f, map[string]int{"QM1.DEADQ": 1, "ORDERS.IN": 0})
	if bo := f.browse("QM1.DEADQ")[0].MD.BackoutCount; bo != 0 {
		t.Fatalf("BackoutCount %d: nothing was got, so it must stay 0", bo)
	}
	if ents, _ := os.ReadDir(filepath.Join(f.dir, "archive")); len(ents) != 0 {
		t.Fatalf("archive dir holds %d files, want none", len(ents))
	}
}

func TestR10i_TheArchiveAndAuditLineAreWrittenBeforeTheCommit(t *testing.T) {
	f, s := editFixture(t)
	id := f.qm.Faults().Add(embedded.Fault{Verb: embedded.VerbCommit, Hang: true})
	done := make(chan error, 1)
	eng := f.engine()
	go func() {
		_, err := eng.Edit(f.ctx, ops.EditRequest{Queue: "QM1.DEADQ", Msg: s, Body: []byte("new")})
		done <- err
	}()
	deadline := time.Now().Add(10 * time.Second)
	for f.qm.Faults().Hits(id) == 0 && time.Now().Before(deadline) {
		time.Sleep(5 * time.Millisecond)
	}
	ents, _ := os.ReadDir(filepath.Join(f.dir, "archive"))
	if len(ents) != 1 {
		t.Fatalf("at MQCMIT the archive dir holds %d files, want the original's archive", len(ents))
	}
	if arch := readEditArchive(t, filepath.Join(f.dir, "archive", ents[0].Name())); len(arch) != 1 || arch[0].MD.MsgId != s.MsgId {
		t.Fatalf("at MQCMIT the archive does not hold the original")
	}
	if lines := auditLines(t, f); len(lines) != 1 || lines[0].Outcome != "edited" {
		t.Fatalf("at MQCMIT the audit log = %+v, want the edited line", lines)
	}
	f.qm.Faults().Remove(id)
	if err := <-done; err != nil {
		t.Fatalf("Edit: %v", err)
	}
	wantDepths(t, f, map[string]int{"QM1.DEADQ": 0, "ORDERS.IN": 1})
}

func TestR10i_ABrokenCommitIsBackedOutAndSaysSo(t *testing.T) {
	f, s := editFixture(t)
	f.qm.Faults().Add(embedded.Fault{Verb: embedded.VerbCommit, Break: true})
	res, err := f.engine().Edit(f.ctx, ops.EditRequest{Queue: "QM1.DEADQ", Msg: s, Body: []byte("new")})
	if err == nil || res.Done || !strings.Contains(res.Text, "backed out") {
		t.Fatalf("Edit = %v, outcome %q", err, res.Text)
	}
	wantDepths(t, f, map[string]int{"QM1.DEADQ": 1, "ORDERS.IN": 0})
	lines := auditLines(t, f)
	if last := lines[len(lines)-1]; !strings.HasPrefix(last.Outcome, "not done") {
		t.Fatalf("last audit line %q, want not done", last.Outcome)
	}
}

func TestR10i_EditIsRefusedReadOnlyAndADryRunChangesNothing(t *testing.T) {
	f, s := editFixture(t)
	ro := f.engine(func(o *ops.EngineOptions) { o.ReadOnly = true })
	if _, err := ro.Edit(f.ctx, ops.EditRequest{Queue: "QM1.DEADQ", Msg: s, Body: []byte("x")}); err != ops.ErrReadOnly {
		t.Fatalf("read-only Edit = %v", err)
	}
	res, err := ro.Edit(f.ctx, ops.EditRequest{Queue: "QM1.DEADQ", Msg: s, Body: []byte("x"), DryRun: true, KeepDLH: true})
	if err != nil || res.Done || res.Plan.Target != "QM1.DEADQ" {
		t.Fatalf("dry run = %v done %v target %q", err, res.Done, res.Plan.Target)
	}
	wantDepths(t, f, map[string]int{"QM1.DEADQ": 1, "ORDERS.IN": 0})
}

func TestR10i_EditToTheSourceQueueKeepingTheMsgId(t *testing.T) {
	f := newOpFixture(t, "")
	md, data := original(7)
	f.putSetAll(f.conn(), "PARKING.Q", md, data)
	s := f.summaries("PARKING.Q")[0]
	res, err := f.engine().Edit(f.ctx, ops.EditRequest{Queue: "PARKING.Q", Msg: s, Body: []byte(`{"order":8}`), KeepMsgId: true})
	if err != nil {
		t.Fatalf("Edit: %v", err)
	}
	msgs := f.browse("PARKING.Q")
	if len(msgs) != 1 || string(msgs[0].Data) != `{"order":8}` || msgs[0].MD.MsgId != md.MsgId || res.NewMsgId != md.MsgId {
		t.Fatalf("PARKING.Q holds %d messages, want only the edited copy with the same MsgId", len(msgs))
	}
}

func TestR10i_AnAuditLogThatCannotBeWrittenChangesNothing(t *testing.T) {
	f, s := editFixture(t)
	// every write to /dev/full fails with ENOSPC
	eng := f.engine(func(o *ops.EngineOptions) { o.AuditPath = "/dev/full" })
	res, err := eng.Edit(f.ctx, ops.EditRequest{Queue: "QM1.DEADQ", Msg: s, Body: []byte("x")})
	if err == nil || res.Done || !strings.Contains(res.Text, "audit log") {
		t.Fatalf("Edit = %v, outcome %q: want a refusal for the audit log", err, res.Text)
	}
	wantDepths(t, f, map[string]int{"QM1.DEADQ": 1, "ORDERS.IN": 0})
}
