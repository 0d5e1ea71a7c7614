package model

import (
	"strings"

	"github.com/poisonwatch/poisonwatch/incident/journal"

	"github.com/poisonwatch/poisonwatch/codec/mqfmt"
	"github.com/poisonwatch/poisonwatch/mqwatch"
)

// PlaybackStep is one recorded thing a playback shows: a snapshot to fold,
// an acknowledgement to take, a flash (an action, who was in the room).
// The recording's player makes them and the dashboard shows them, neither
// knowing the other.
type PlaybackStep struct {
	Snap *mqwatch.Snapshot
	Ack  *Episode
	// Entry is a journal entry passed (an act, what came back, an
	// acknowledgement, a join): the audit view lists it.
	Entry *journal.Entry
	Flash string
	// Checkpoint, when above 0, asks the shower to keep a copy of its
	// state under that number once this step is folded (State.Checkpoint).
	Checkpoint int
	// Restore, when above 0, starts a fresh fold from the copy kept under
	// that number instead of an empty state; only a first step has it.
	Restore int
}

// AckSentence is the flash every session shows after an acknowledgement:
// "R1c ORDERS.IN (QM1): acked by alice 20:43: looking at the consumer".
func (e Episode) AckSentence() string {
	what := strings.TrimSpace(e.Rule + " " + e.Queue)
	if what == "" {
		what = "alert"
	}
	return mqfmt.Sanitize(what+" ("+e.QMgr+"): ") + mqfmt.Sanitize(e.Ack.Line())
}
