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

func TestDiscard(t *testing.T) {
	t.Run("R10d_messages_are_archived_0600_then_removed_and_import_restores_them", testDiscardMessagesAreArchived0600ThenRemovedAndImportRestoresThem)
	t.Run("R10d_a_message_the_archive_cannot_hold_is_not_discarded", testDiscardAMessageTheArchiveCannotHoldIsNotDiscarded)
	t.Run("R10d_a_backed_out_batch_leaves_nothing_in_the_archive", testDiscardABackedOutBatchLeavesNothingInTheArchive)
	t.Run("R10d_archive_override_path_is_never_overwritten", testDiscardArchiveOverridePathIsNeverOverwritten)
}

func readArchive(t *testing.T, path string) []mqfmt.QLoadMessage {
	t.Helper()
	fh, err := os.Open(path)
	if err != nil {
		t.Fatalf("open archive: %v", err)
	}
	defer fh.Close()
	msgs, err := mqfmt.ReadQLoad(fh)
	if err != nil {
		t.Fatalf("read archive: %v", err)
	}
	return msgs
}

func checkPrivate(t *testing.T, path string) {
	t.Helper()
	st, err := os.Stat(path)
	if err != nil {
		t.Fatalf("stat %s: %v", path, err)
	}
	if st.Mode().Perm() != 0o600 {
		t.Errorf("%s has mode %v, want 0600", path, st.Mode().Perm())
	}
}

func testDiscardMessagesAreArchived0600ThenRemovedAndImportRestoresThem(t *testing.T) {
	f := newOpFixture(t, "")
	c := f.conn()
	for n := 1; n <= 3; n++ {
		f.deadLetter(c, n, "ORDERS.IN", "QM1", mqfmt.RCQFull)
	}
	before := f.browse("QM1.DEADQ")
	eng := f.engine()
	res := f.run(eng, ops.OpRequest{Op: ops.OpDiscard, Queue: "QM1.DEADQ", All: true, Batch: 2, Workers: 1})
	if res.Done != 3 || res.ArchiveFile == "" {
		t.Fatalf("done %d archive %q", res.Done, res.ArchiveFile)
	}
	if !strings.HasPrefix(res.Plan.Summary, "Discard 3 messages from QM1.DEADQ; each is archived to a new dmpmqmsg file in ") {
		t.Errorf("summary %q", res.Plan.Summary)
	}
	wantDepths(t, f, map[string]int{"QM1.DEADQ": 0})
	checkPrivate(t, res.ArchiveFile)
	arch := readArchive(t, res.ArchiveFile)
	if len(arch) != 3 {
		t.Fatalf("archive holds %d messages, want 3", len(arch))
	}
	for i := range arch {
		if arch[i].MD.MsgId != before[i].MD.MsgId || string(arch[i].Data) != string(before[i].Data) {
			t.Errorf("archived message %d differs from the discarded one", i)
		}
	}
	imp := f.run(eng, ops.OpRequest{Op: ops.OpImport, File: res.ArchiveFile, Target: "QM1.DEADQ"})
	if imp.Done != 3 {
		t.Fatalf("import done %d: %+v", imp.Done, imp.Items)
	}
	after := f.browse("QM1.DEADQ")
	for i := range after {
		if after[i].MD.MsgId != before[i].MD.MsgId || contextOf(after[i].MD) != contextOf(before[i].MD) ||
			string(after[i].Data) != string(before[i].Data) {
			t.Errorf("restored message %d differs: %s vs %s", i, contextOf(after[i].MD), contextOf(before[i].MD))
		}
	}
	again := f.run(eng, ops.OpRequest{Op: ops.OpImport, File: res.ArchiveFile, Target: "QM1.DEADQ"})
	if again.Done != 0 || again.Skipped != 3 || !strings.HasPrefix(again.Items[0].Text(again.Plan.Request.Op), "skipped: already imported at ") {
		t.Errorf("second import: done %d skipped %d outcome %q", again.Done, again.Skipped, again.Items[0].Text(again.Plan.Request.Op))
	}
	wantDepths(t, f, map[string]int{"QM1.DEADQ": 3})
}

func testDiscardAMessageTheArchiveCannotHoldIsNotDiscarded(t *testing.T) {
	f := newOpFixture(t, "")
	c := f.conn()
	md, data := original(1)
	md.ReplyToQ = "REPLY\nQ"
	f.putSetAll(c, "ORDERS.BO", md, data)
	f.backedOut(c, 2, "ORDERS.BO", "")
	res, err := f.engine().Run(f.ctx, ops.OpRequest{Op: ops.OpDiscard, Queue: "ORDERS.BO", All: true}, nil)
	if err != nil {
		t.Fatalf("Run: %v", err)
	}
	if res.Done != 1 || res.Failed != 1 || !strings.HasPrefix(res.Items[0].Text(res.Plan.Request.Op), "failed: cannot be archived") {
		t.Fatalf("done %d failed %d first %q", res.Done, res.Failed, res.Items[0].Text(res.Plan.Request.Op))
	}
	if left := f.browse("ORDERS.BO"); len(left) != 1 || left[0].MD.MsgId != md.MsgId {
		t.Errorf("ORDERS.BO holds %d messages, want the unarchivable one", len(left))
	}
	if n := len(readArchive(t, res.ArchiveFile)); n != 1 {
		t.Errorf("archive holds %d messages, want 1", n)
	}
}

func testDiscardABackedOutBatchLeavesNothingInTheArchive(t *testing.T) {
	f := newOpFixture(t, "")
	c := f.conn()
	for n := 1; n <= 4; n++ {
		f.deadLetter(c, n, "ORDERS.IN", "QM1", mqfmt.RCQFull)
	}
	f.qm.Faults().Add(embedded.Fault{Verb: embedded.VerbCommit, After: 1, Times: 1, Break: true})
	res, err := f.engine().Run(f.ctx, ops.OpRequest{Op: ops.OpDiscard, Queue: "QM1.DEADQ", All: true, Batch: 2, Workers: 1}, nil)
	if err == nil || !strings.Contains(res.Stopped, "backed out") {
		t.Fatalf("err %v stopped %q, want a stop after the backed-out commit", err, res.Stopped)
	}
	if res.Done != 2 || res.NotDone != 2 || res.InDoubt != 0 {
		t.Fatalf("done %d not done %d in doubt %d, want 2, 2, 0", res.Done, res.NotDone, res.InDoubt)
	}
	if n := len(readArchive(t, res.ArchiveFile)); n != 2 {
		t.Errorf("archive holds %d messages, want the 2 committed", n)
	}
	wantDepths(t, f, map[string]int{"QM1.DEADQ": 2})
}

func testDiscardArchiveOverridePathIsNeverOverwritten(t *testing.T) {
	f := newOpFixture(t, "")
	f.deadLetter(f.conn(), 1, "ORDERS.IN", "QM1", mqfmt.RCQFull)
	path := filepath.Join(f.dir, "exists.dmp")
	if err := os.WriteFile(path, []byte("keep me"), 0o600); err != nil {
		t.Fatal(err)
	}
	res, err := f.engine().Run(f.ctx, ops.OpRequest{Op: ops.OpDiscard, Queue: "QM1.DEADQ", All: true, File: path}, nil)
	if err == nil || res.Done != 0 || !strings.Contains(res.Stopped, "nothing discarded") {
		t.Fatalf("err %v done %d stopped %q", err, res.Done, res.Stopped)
	}
	if b, _ := os.ReadFile(path); string(b) != "keep me" {
		t.Errorf("existing file changed to %q", b)
	}
	wantDepths(t, f, map[string]int{"QM1.DEADQ": 1})
}
