package e2e

import "testing"

// TestEndToEndWarRoomDialogWhoseMessagesAColleagueTook: two operators over
// the real OpenSSH client at 80x24. Alice's requeue dialog is open on the
// group of five when carol requeues the same five: alice's dialog says
// that nothing is left and who took them, not that its dry run failed, and
// esc closes it saying that nothing changed.
func TestEndToEndWarRoomDialogWhoseMessagesAColleagueTook(t *testing.T) {
	t.Parallel()
	w := startServeWith(t, "testdata/warroom", nil, [3]string{"carol", "", "carol@desk role=operator"})
	alice := w.session("alice", "alice", 80, 24)
	alice.waitFor("QM1.DEAD.LETTER.QUEUE", "5/5.0k")
	carol := w.session("carol", "carol", 80, 24)
	carol.waitFor("QM1.DEAD.LETTER.QUEUE", "5/5.0k")

	alice.keys("d")
	alice.waitFor("×5 2053 Q_FULL → PARKED.IN (QM1)")
	alice.keys("R")
	alice.waitFor("Requeue 5 messages", "(type 5 to confirm)")

	carol.keys("d")
	carol.waitFor("×5 2053 Q_FULL → PARKED.IN (QM1)")
	carol.keys("R")
	carol.waitFor("(type 5 to confirm)")
	carol.keys("5", "Enter")
	// Nothing consumes PARKED.IN: carol ends the check rather than wait.
	carol.waitFor("5 / 5 moved · checking whether they come back (R10f)")
	carol.keys("Escape")
	carol.waitFor("done: 5 · skipped 0 · failed 0")

	alice.waitFor("nothing left: carol requeued all 5 — esc closes")
	alice.keys("Escape")
	alice.waitFor("cancelled: nothing changed")
}
