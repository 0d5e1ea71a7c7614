package ops

import (
	"fmt"

	"github.com/poisonwatch/poisonwatch/codec/mqfmt"
)

// ItemKind is what became, or would become, of one message of an
// operation: the data every sentence about it is rendered from
// (OpItem.Text), so no caller reads the sentence back.
type ItemKind uint8

// Item kinds. A plan gives the Would* kinds and Skipped; a run ends each
// message Done, Skipped, Failed, InDoubt or NotDone.
const (
	// WouldAct: the run acts on it ("would requeue").
	WouldAct ItemKind = iota
	// WouldFail: the run tries it (the target may be fixed meanwhile), but
	// the put is predicted to fail with Reason; Detail says why.
	WouldFail
	// WouldDeadLetterAgain: a remote queue manager refused it before and,
	// unless that was fixed there, does again (Detail).
	WouldDeadLetterAgain
	// WouldComeBack: the put works, but its next hop brings it back to
	// where it is (R10f); Detail names the cause. The run acts on it.
	WouldComeBack
	// Skipped: not acted on; Skip classifies why, Detail says it.
	Skipped
	// Done: acted on (requeued, moved, ...: Op.PastTense).
	Done
	// Failed: tried and refused; Detail says why, Reason is IBM's code.
	Failed
	// InDoubt: its batch's MQCMIT outcome is unknown (the connection broke).
	InDoubt
	// NotDone: the run stopped before it; Detail says why.
	NotDone
)

// Planned reports whether a plan's item is to be acted on: a predicted
// failure is attempted too, since the target may have been fixed meanwhile.
func (k ItemKind) Planned() bool { return k <= WouldComeBack }

// SkipCause classifies a Skipped item, for callers that treat some skips
// apart (an import's already-imported messages count as done).
type SkipCause uint8

// Skip causes; SkipOther covers every skip no caller treats apart.
const (
	SkipOther SkipCause = iota
	// SkipGone: no longer on the queue (someone else removed it).
	SkipGone
	// SkipImported: an earlier import of the same file put it.
	SkipImported
	// SkipSelf: its target is the source queue itself (a loop).
	SkipSelf
	// SkipRefused: dead-lettered for 2035 and put with the operator's
	// authority unless asked (PUTAUT).
	SkipRefused
)

// kindPrefix is the sentence's start for each kind with a Detail.
var kindPrefix = [...]string{
	WouldFail:            "would fail: ",
	WouldDeadLetterAgain: "would be dead-lettered again: ",
	WouldComeBack:        "would come back: ",
	Skipped:              "skipped: ",
	Failed:               "failed: ",
	NotDone:              "not done: ",
}

// Text is the item's sentence, as the command line, the dashboard and the
// audit log print it: "would requeue", "requeued", "skipped: gone, ...",
// "would fail: PAYMENTS.IN is put-inhibited (MQRC_PUT_INHIBITED)".
func (it *OpItem) Text(op Op) string {
	switch it.Kind {
	case WouldAct:
		return "would " + string(op)
	case Done:
		return op.PastTense()
	case InDoubt:
		return textInDoubt
	}
	return kindPrefix[it.Kind] + it.cause()
}

// textInDoubt is an in-doubt message's sentence, which the import's check of
// the audit log looks for.
const textInDoubt = "in doubt"

// PastTense is what a done message's outcome says: "requeued", "moved".
func (op Op) PastTense() string {
	switch op {
	case OpRequeue:
		return "requeued"
	case OpMove:
		return "moved"
	case OpReplay:
		return "replayed"
	case OpDiscard:
		return "discarded"
	case OpExport:
		return "exported"
	case OpImport:
		return "imported"
	case OpEdit:
		return "edited"
	}
	return string(op)
}

// cause is the item's sentence after its kind: its Detail, with the
// reason a predicted failure names.
func (it *OpItem) cause() string {
	switch rc := mqfmt.Reason(it.Reason); {
	case it.Kind != WouldFail || rc == 0:
	case it.Opened:
		return fmt.Sprintf("%s (%s %d)", it.Detail, rc, it.Reason)
	default:
		return it.Detail + " (" + rc.String() + ")"
	}
	return it.Detail
}

// Removed reports whether the run took the message off its source queue: a
// requeue, move or discard did it (a replay, export or import leaves it).
func (it *OpItem) Removed(op Op) bool {
	return it.Kind == Done && (op == OpRequeue || op == OpMove || op == OpDiscard)
}
