package ui

import (
	"context"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/poisonwatch/poisonwatch/actions/ops"
	"github.com/poisonwatch/poisonwatch/model"
	"github.com/poisonwatch/poisonwatch/mqwatch"
)

// sizedOps records how many messages each dry run and each run was given.
type sizedOps struct {
	fakeOps
	planned []int
	ran     []int
	seen    map[mqwatch.Key]int // how often each message was run
}

// Run counts the messages as it is given them: a chunk's slice is reused
// for the next chunk once the run returns.
func (o *sizedOps) Run(ctx context.Context, r ops.OpRequest, progress func(ops.OpProgress)) (ops.OpResult, error) {
	o.ran = append(o.ran, len(r.Messages))
	for _, m := range r.Messages {
		o.seen[m.Key()]++
	}
	return o.fakeOps.Run(ctx, r, progress)
}

func (o *sizedOps) Plan(ctx context.Context, r ops.OpRequest) (ops.OpPlan, error) {
	o.planned = append(o.planned, len(r.Messages))
	return o.fakeOps.Plan(ctx, r)
}

// TestDialogOnManyMarksPlansASampleAndRunsInChunks: marking every message of
// a DEADQ larger than the dry run's sample and requeueing them plans only
// the sample, confirms the whole count, and runs the engine a chunk at a
// time over every mark exactly once: no request ever holds the marks as
// one list.
func TestDialogOnManyMarksPlansASampleAndRunsInChunks(t *testing.T) {
	const n = 2*model.RunChunk + 1234
	o := &sizedOps{fakeOps: fakeOps{msg: sampleMessage()}, seen: map[mqwatch.Key]int{}}
	a, _ := newTestApp(t, 120, 35, Options{Ops: o})
	a.Update(snapshotMsg{snap: incident(1, n)})
	pressKey(t, a, km.DeadQ)
	topIs[*triageScreen](t, a)
	pressKey(t, a, km.MarkAll)
	if a.sess.marks.Len() != n {
		t.Fatalf("marked %d, want all %d", a.sess.marks.Len(), n)
	}
	pressKey(t, a, km.Requeue)
	d := a.actionDialog()
	if d == nil || len(o.planned) != 1 || o.planned[0] != planSample {
		t.Fatalf("dry runs of %v messages, want one of %d:\n%s", o.planned, planSample, ansi.Strip(a.View()))
	}
	v := ansi.Strip(a.View())
	if !strings.Contains(v, human(int64(n))+" message(s)") || !strings.Contains(v, "the dry run planned the first") {
		t.Fatalf("the dialog does not say how many it acts on and what it planned:\n%s", v)
	}
	if d.actCount() != n {
		t.Fatalf("confirm count %d, want every mark %d", d.actCount(), n)
	}
	for _, k := range itoa(n) {
		press(a, string(k))
	}
	press(a, "enter")
	for _, r := range o.ran {
		if r > model.RunChunk {
			t.Fatalf("one run was given %d messages, more than a chunk (%d)", r, model.RunChunk)
		}
	}
	for k, times := range o.seen {
		if times != 1 {
			t.Fatalf("message %x was run %d times", k, times)
		}
	}
	if len(o.ran) != 3 || len(o.seen) != n {
		t.Fatalf("runs of %v over %d distinct messages, want 3 over %d", o.ran, len(o.seen), n)
	}
	if d.phase != phaseDone || d.result.Done != n || d.result.NotDone != 0 {
		t.Fatalf("result %+v (phase %d), want all %d done", d.result, d.phase, n)
	}
	if v := ansi.Strip(a.View()); !strings.Contains(v, human(int64(n))) {
		t.Fatalf("the result does not count them all:\n%s", v)
	}
}

// marksRunnerOps run marks with a RunMarks of their own, as the war room's
// session operations do (one lock and one announcement for every chunk).
type marksRunnerOps struct {
	sizedOps
	calls, chunk, marks int
}

func (o *marksRunnerOps) RunMarks(ctx context.Context, req ops.OpRequest, marks *model.Selection, chunk int, progress func(ops.OpProgress)) (ops.OpResult, error) {
	o.calls, o.chunk, o.marks = o.calls+1, chunk, marks.Len()
	return model.RunMarks(ctx, o.sizedOps.Run, req, marks, chunk, progress, nil)
}

// TestDialogOnManyMarksRunsThemAsOneRunOfTheOperations: when the
// operations run marks themselves (MarksRunner), the dialog's run over
// more marks than a chunk is one call of theirs with every mark, not a
// Run per chunk made by the dialog.
func TestDialogOnManyMarksRunsThemAsOneRunOfTheOperations(t *testing.T) {
	const n = model.RunChunk + 10
	o := &marksRunnerOps{sizedOps: sizedOps{fakeOps: fakeOps{msg: sampleMessage()}, seen: map[mqwatch.Key]int{}}}
	a, _ := newTestApp(t, 120, 35, Options{Ops: o})
	a.Update(snapshotMsg{snap: incident(1, n)})
	pressKey(t, a, km.DeadQ, km.MarkAll, km.Requeue)
	d := a.actionDialog()
	if d == nil || d.actCount() != n {
		t.Fatalf("no dialog on %d marks:\n%s", n, ansi.Strip(a.View()))
	}
	for _, k := range itoa(n) {
		press(a, string(k))
	}
	press(a, "enter")
	if o.calls != 1 || o.marks != n || o.chunk != model.RunChunk {
		t.Fatalf("RunMarks called %d times (%d marks, chunk %d), want once over %d in chunks of %d", o.calls, o.marks, o.chunk, n, model.RunChunk)
	}
	if len(o.ran) != 2 || d.phase != phaseDone || d.result.Done != n {
		t.Fatalf("engine runs %v, result %+v (phase %d), want 2 runs and all %d done", o.ran, d.result, d.phase, n)
	}
}
