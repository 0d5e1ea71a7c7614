package ui

import (
	"context"
	"fmt"

	"github.com/poisonwatch/poisonwatch/incident/journal"

	"github.com/poisonwatch/poisonwatch/actions/ops"

	"github.com/poisonwatch/poisonwatch/model"
	"github.com/poisonwatch/poisonwatch/mqwatch"
)

// A dialog on a million marks must not list them (about 400 MiB of
// summaries): its dry run plans the first planSample of them, and the run
// pulls them model.RunChunk at a time through model.RunMarks, each chunk
// planned by the engine as it starts, so a target that cannot take them
// stops the run at that chunk. Up to planSample marks, the dry run plans
// all of them and the run is the engine's one run, as for any list. In a
// war room the chunks are one run for the room (RunMarks, MarksRunner).

// planSample is how many marked messages the dry run plans at most.
const planSample = model.RunChunk

// planSampleOf is the first planSample marks, in marking order.
func planSampleOf(marks *model.Selection) []mqwatch.Summary {
	for batch := range marks.Batches(min(marks.Len(), planSample)) {
		return append([]mqwatch.Summary(nil), batch...)
	}
	return nil
}

// count is how many messages the dialog acts on.
func (d *dialog) count() int {
	if d.marks != nil {
		return d.total
	}
	return len(d.req.Messages)
}

// sampled: the dry run planned only some of the marked messages.
func (d *dialog) sampled() bool { return d.marks != nil && d.total > len(d.req.Messages) }

// sampleLines say what the dry run did not plan.
func (d *dialog) sampleLines(c common) []string {
	if !d.sampled() {
		return nil
	}
	return wrapped(c.Styles().Warning, " ", fmt.Sprintf("the dry run planned the first %s of the %s marked messages; the run plans the rest %s at a time as it goes and stops at a batch that cannot go on",
		human(int64(len(d.req.Messages))), human(int64(d.total)), human(int64(model.RunChunk))), d.w)
}

// dropMarks unmarks the messages another session acted on and says how
// many of the marks they were.
func (d *dialog) dropMarks(gone map[mqwatch.Key]bool) int {
	for k := range gone {
		d.marks.Unmark(k)
	}
	n := d.total - d.marks.Len()
	d.total = d.marks.Len()
	return n
}

// MarksRunner runs an action over marks as one run, however many chunks
// it takes: the war room's session operations (warroom.SessionOps) hold
// the queue's lock from the first chunk to the check after the last and
// tell the room once.
type MarksRunner interface {
	RunMarks(ctx context.Context, req ops.OpRequest, marks *model.Selection, chunk int, progress func(ops.OpProgress)) (ops.OpResult, error)
}

// RunMarks is the dialog's run over marks, chunk at a time: the
// operations' own RunMarks when they have one, model.RunMarks over their
// Run otherwise (the local dashboard).
//
// The whole run is written to j as one act (the runner's own journal when
// it has one: a war room's).
func RunMarks(ctx context.Context, o Operations, req ops.OpRequest, marks *model.Selection, chunk int, progress func(ops.OpProgress), j *journal.Journal) (ops.OpResult, error) {
	if r, ok := o.(MarksRunner); ok {
		return r.RunMarks(ctx, req, marks, chunk, progress)
	}
	return model.RunMarks(ctx, o.Run, req, marks, chunk, progress, j)
}
