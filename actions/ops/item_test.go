package ops_test

import (
	"testing"

	"github.com/poisonwatch/poisonwatch/actions/ops"
	"github.com/poisonwatch/poisonwatch/codec/mqfmt"
)

// TestR10_ItemTextIsRenderedFromItsKind pins each kind's sentence: the
// command line's per-message lines, --json's "outcome" and the audit log
// print it, so a kind never reads two ways.
func TestR10_ItemTextIsRenderedFromItsKind(t *testing.T) {
	cases := []struct {
		name string
		op   ops.Op
		it   ops.OpItem
		want string
	}{
		{"would_act_names_the_operation", ops.OpMove, ops.OpItem{Kind: ops.WouldAct}, "would move"},
		{"done_is_the_past_tense", ops.OpRequeue, ops.OpItem{Kind: ops.Done}, "requeued"},
		{"done_export", ops.OpExport, ops.OpItem{Kind: ops.Done}, "exported"},
		{"would_fail_names_its_reason", ops.OpRequeue, ops.OpItem{Kind: ops.WouldFail, Detail: "PAYMENTS.IN is put-inhibited",
			Reason: int32(mqfmt.RCPutInhibited)}, "would fail: PAYMENTS.IN is put-inhibited (MQRC_PUT_INHIBITED)"},
		{"would_fail_refused_by_the_open_gives_the_number", ops.OpRequeue, ops.OpItem{Kind: ops.WouldFail, Opened: true,
			Detail: "STOCK.IN@QM9 cannot be reached", Reason: 2087}, "would fail: STOCK.IN@QM9 cannot be reached (MQRC_UNKNOWN_REMOTE_Q_MGR 2087)"},
		{"would_fail_without_a_reason", ops.OpRequeue, ops.OpItem{Kind: ops.WouldFail, Detail: "STOCK.IN@QM9 cannot be reached"},
			"would fail: STOCK.IN@QM9 cannot be reached"},
		{"would_come_back_keeps_the_reason_out", ops.OpReplay, ops.OpItem{Kind: ops.WouldComeBack, Detail: "consumer of A.IN dead-letters them again",
			Reason: 2053}, "would come back: consumer of A.IN dead-letters them again"},
		{"dead_lettered_again", ops.OpMove, ops.OpItem{Kind: ops.WouldDeadLetterAgain, Detail: "QM2 refused it"},
			"would be dead-lettered again: QM2 refused it"},
		{"skipped", ops.OpDiscard, ops.OpItem{Kind: ops.Skipped, Skip: ops.SkipGone, Detail: "gone"}, "skipped: gone"},
		{"failed_keeps_its_detail_whole", ops.OpMove, ops.OpItem{Kind: ops.Failed, Detail: "MQRC_Q_FULL (2053): full", Reason: 2053},
			"failed: MQRC_Q_FULL (2053): full"},
		{"in_doubt", ops.OpMove, ops.OpItem{Kind: ops.InDoubt, Reason: 2009}, "in doubt"},
		{"not_done", ops.OpMove, ops.OpItem{Kind: ops.NotDone, Detail: "the run stopped"}, "not done: the run stopped"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if got := tc.it.Text(tc.op); got != tc.want {
				t.Errorf("Text(%s) = %q, want %q", tc.op, got, tc.want)
			}
		})
	}
}

// TestR10_RemovedOnlyWhenTheRunTookItOff: the dashboard forgets a message
// only when a requeue, move or discard took it off its queue.
func TestR10_RemovedOnlyWhenTheRunTookItOff(t *testing.T) {
	done, planned := ops.OpItem{Kind: ops.Done}, ops.OpItem{Kind: ops.WouldAct}
	for op, want := range map[ops.Op]bool{ops.OpRequeue: true, ops.OpMove: true, ops.OpDiscard: true,
		ops.OpReplay: false, ops.OpExport: false, ops.OpImport: false} {
		if got := done.Removed(op); got != want {
			t.Errorf("done %s: Removed = %v, want %v", op, got, want)
		}
		if planned.Removed(op) {
			t.Errorf("planned %s: Removed", op)
		}
	}
}
