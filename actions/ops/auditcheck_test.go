package ops_test

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/poisonwatch/poisonwatch/actions/ops"
	"github.com/poisonwatch/poisonwatch/backend/embedded"
	"github.com/poisonwatch/poisonwatch/codec/mqfmt"
)

// TestR10f_AuditCheckReportsABatchACrashUndid: a requeue whose process
// dies while the third batch's MQCMIT is in flight leaves a log (synced
// before the gets, so it is what a kill -9 leaves) whose first two batches
// read as done and whose third reads as pending; the queue manager backs
// that batch out, and CheckAudit names exactly its messages.
func TestR10f_AuditCheckReportsABatchACrashUndid(t *testing.T) {
	f := newOpFixture(t, "")
	c := f.conn()
	for n := 1; n <= 35; n++ {
		f.deadLetter(c, n, "ORDERS.IN", "QM1", mqfmt.RCQFull)
	}
	hang := f.qm.Faults().Add(embedded.Fault{Verb: embedded.VerbCommit, After: 2, Times: 1, Hang: true})
	eng := f.engine()
	done := make(chan ops.OpResult)
	go func() {
		res, _ := eng.Run(f.ctx, ops.OpRequest{Op: ops.OpRequeue, Queue: "QM1.DEADQ", All: true, Batch: 10, Workers: 1}, nil)
		done <- res
	}()
	deadline := time.Now().Add(10 * time.Second)
	for f.qm.Faults().Hits(hang) == 0 {
		if time.Now().After(deadline) {
			t.Fatal("the third commit never came")
		}
		time.Sleep(time.Millisecond)
	}
	// The crash: what is on disk now is what survives; the queue manager
	// backs out the connection's unit of work.
	log, err := os.ReadFile(filepath.Join(f.dir, "audit.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	f.qm.BreakAll()
	f.qm.Faults().Remove(hang)
	<-done

	batches, lines, err := ops.CheckAudit(bytes.NewReader(log))
	if err != nil {
		t.Fatal(err)
	}
	if lines != 50 { // 20 pending + 20 requeued + 10 pending
		t.Errorf("%d lines, want 50", lines)
	}
	if len(batches) != 1 {
		t.Fatalf("%d pending batches, want 1: %+v", len(batches), batches)
	}
	b := batches[0]
	if b.Messages != 10 || b.Action != ops.OpRequeue || b.From != "QM1.DEADQ" || len(b.To) != 1 || b.To[0] != "ORDERS.IN" {
		t.Fatalf("pending batch %+v", b)
	}
	for i, id := range b.MsgIds {
		if id != hexOf(msgID(21+i)) {
			t.Errorf("pending message %d is %s, want message %d", i, id, 21+i)
		}
	}
	// It was indeed undone: its messages are back on the DEADQ.
	wantDepths(t, f, map[string]int{"QM1.DEADQ": 15, "ORDERS.IN": 20})
}

// TestR10f_AuditCheckSettlesTwinsInOrder: two pending lines for twins
// settled by one outcome leave one pending; a dry run's lines never count.
func TestR10f_AuditCheckSettlesTwinsInOrder(t *testing.T) {
	log := `{"time":"2026-03-09T14:30:15Z","user":"u","qmgr":"QM1","action":"move","msg_id":"aa","from":"Q","to":"P","outcome":"pending"}
{"time":"2026-03-09T14:30:15Z","user":"u","qmgr":"QM1","action":"move","msg_id":"aa","from":"Q","to":"P","outcome":"pending"}
{"time":"2026-03-09T14:30:16Z","user":"u","qmgr":"QM1","action":"move","msg_id":"aa","from":"Q","to":"P","outcome":"moved"}
{"time":"2026-03-09T14:30:17Z","user":"u","qmgr":"QM1","action":"move","msg_id":"bb","from":"Q","outcome":"pending","dry_run":true}
`
	batches, _, err := ops.CheckAudit(bytes.NewReader([]byte(log)))
	if err != nil {
		t.Fatal(err)
	}
	if len(batches) != 1 || batches[0].Messages != 1 || batches[0].MsgIds[0] != "aa" {
		t.Fatalf("batches %+v, want the second twin pending", batches)
	}
}
