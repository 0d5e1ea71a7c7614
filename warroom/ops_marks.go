package warroom

import (
	"context"

	"github.com/poisonwatch/poisonwatch/actions/ops"
	"github.com/poisonwatch/poisonwatch/model"
	"github.com/poisonwatch/poisonwatch/mqwatch"
	"github.com/poisonwatch/poisonwatch/ui"
)

var _ ui.MarksRunner = (*SessionOps)(nil)

// RunMarks runs an action over marked messages chunk at a time
// (model.RunMarks) as one run for the room: the queue's lock is taken
// before the first chunk and released after the check for messages coming
// back that follows the last (R10f), so no other session acts on the
// queue in between; the room hears once that it started and once that it
// ended, with the totals, and every session's audit view gets one run.
func (o *SessionOps) RunMarks(ctx context.Context, req ops.OpRequest, marks *model.Selection, chunk int, progress func(ops.OpProgress)) (ops.OpResult, error) {
	if err := o.allowed(&req); err != nil {
		return refused(req, err)
	}
	if req.DryRun {
		return model.RunMarks(ctx, o.Engines.Run, req, marks, chunk, progress, nil)
	}
	return o.acting(req, func(req ops.OpRequest, t *runTally) (ops.OpResult, error) {
		t.marks = true
		run := func(ctx context.Context, r ops.OpRequest, p func(ops.OpProgress)) (ops.OpResult, error) {
			res, err := o.Engines.Run(ctx, r, p)
			t.add(r.Op, res.Items)
			return res, err
		}
		return model.RunMarks(ctx, run, req, marks, chunk, progress, o.Seat.room.journalOf())
	})
}

// runTally adds up what the engine runs of one run for the room did: the
// result of a run over marks lists only its last chunk's messages and
// those not done.
type runTally struct {
	// marks: a run over marks, whose removed messages are kept for the
	// room's open dialogs (RoomEvent.Gone), 48 bytes each.
	marks bool
	gone  []mqwatch.Key
}

// add counts one engine run's messages.
func (t *runTally) add(op ops.Op, items []ops.OpItem) {
	for i := range items {
		it := &items[i]
		if t.marks && it.Removed(op) {
			t.gone = append(t.gone, it.Msg.Key())
		}
	}
}
