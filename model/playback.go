package model

import (
	"strings"
	"time"

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

// Playback is a recording a dashboard shows instead of live watchers
// (poisonwatch playback): the recording's player (record.Player) makes it,
// the dashboard (ui) shows it.
type Playback interface {
	Interval() time.Duration
	// At is the playback's clock.
	At() time.Time
	// Bounds are the recording's first and last times; loaded is false
	// while the end is still being read.
	Bounds() (first, last time.Time, loaded bool)
	// Seek moves to t. fresh says the steps start anew: the shower folds
	// them into a new model, or, when the first step has Restore, into a
	// copy of the checkpoint it kept when a step asked it to
	// (PlaybackStep.Checkpoint).
	Seek(t time.Time) (steps []PlaybackStep, fresh bool)
	// PollTime is the time of the poll n polls away (negative: back).
	PollTime(n int) time.Time
}

// FoldAhead is a Playback whose checkpoints can be folded ahead, while
// the operator looks, so that the first jump far forward costs what a jump
// back does.
type FoldAhead interface {
	// Ahead is another playback of the same recording from its start.
	Ahead() Playback
	// Adopt takes the checkpoints a playback from Ahead kept: the shower
	// takes the states it kept for them at the same time.
	Adopt(ahead Playback)
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
