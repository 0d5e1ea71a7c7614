package model

import (
	"cmp"
	"context"
	"time"

	"github.com/poisonwatch/poisonwatch/incident/journal"

	"github.com/poisonwatch/poisonwatch/actions/ops"
)

// RunFunc runs one operation request (ops.Engine.Run).
type RunFunc func(ctx context.Context, req ops.OpRequest, progress func(ops.OpProgress)) (ops.OpResult, error)

// RunChunk is how many marked messages one run of RunMarks acts on: the
// engine plans, moves and records every message of a run, about 6 KiB of
// heap each while it runs (a heap profile of BenchmarkRequeueMarks1M), so a
// run of a million would hold 6 GiB; one of 5,000 holds 30 MiB.
const RunChunk = 5_000

// keptItems bounds the per-message outcomes RunMarks keeps: every one that
// was not done, up to this many, and the last run's.
const keptItems = 10_000

// RunMarks acts on the marked messages of sel as req says, chunk marks at a
// time: each run's summaries are loaded from the inventories they were
// marked from when it starts and dropped when it ends, so the memory stays
// that of one run however many are marked. Progress counts over all of
// them; a cancel or a run that stops (a full target, a lost connection)
// stops the rest, which count as not done. The check for messages coming
// back (req.Verify, R10f) runs after the last run, as it runs after a whole
// run: the engine watches at most 10,000 of them either way. sel must not
// change while it runs (Selection.Snapshot).
//
// The whole run is one act: its chunks write nothing to the journal
// (OpRequest.Part) and RunMarks writes the run, and what came back, to j
// once at the end (nil: nobody's journal).
func RunMarks(ctx context.Context, run RunFunc, req ops.OpRequest, sel *Selection, chunk int, progress func(ops.OpProgress), j *journal.Journal) (ops.OpResult, error) {
	total := sel.Len()
	agg := marksRun{total: total, started: time.Now(), progress: progress}
	var lastErr error
	for batch := range sel.Batches(max(chunk, 1)) {
		r := req
		r.Messages = batch
		r.NoPlanItems = true // the runs' plans are kept without their items (marksRun.add)
		r.Part = true        // one act: written below, once
		if agg.acted+len(batch) < total {
			r.Verify = 0
		}
		res, err := run(ctx, r, agg.report)
		agg.add(&res, len(batch))
		if err != nil {
			lastErr = err
		}
		if res.Stopped != "" || ctx.Err() != nil {
			break
		}
	}
	out := agg.result()
	if ctx.Err() != nil && lastErr == nil {
		lastErr = ctx.Err()
	}
	// The first chunk's sentence counts only its own messages.
	out.Plan.Summary = ""
	if !req.DryRun && j != nil {
		ent := j.Append(ops.RunEntry(&out, agg.started, req.User, req.QMgr))
		out.Entry = ent.Seq
		if out.Verify != nil {
			j.Append(ops.CameBackEntry(out.Verify, ent, time.Now()))
		}
	}
	return out, lastErr
}

// marksRun adds up the runs of RunMarks.
type marksRun struct {
	total, acted int
	res          ops.OpResult
	started      time.Time
	progress     func(ops.OpProgress)
}

// report is one run's progress as progress over every mark.
func (m *marksRun) report(p ops.OpProgress) {
	if m.progress == nil {
		return
	}
	p.Done += m.res.Done
	p.Skipped += m.res.Skipped
	p.Failed += m.res.Failed
	p.Total = m.total
	if el := time.Since(m.started).Seconds(); el > 0 && p.Done > 0 {
		p.Rate = float64(p.Done) / el
		p.ETA = time.Duration(float64(m.total-p.Done-p.Skipped-p.Failed) / p.Rate * float64(time.Second))
	}
	m.progress(p)
}

// add counts the result of one run of n marks.
func (m *marksRun) add(r *ops.OpResult, n int) {
	if m.acted == 0 {
		m.res.Plan = r.Plan
		m.res.Plan.Items = nil
		m.res.Plan.Request.NoPlanItems = false // RunMarks's own, not the caller's
	}
	m.acted += n
	m.res.Done += r.Done
	m.res.Skipped += r.Skipped
	m.res.Failed += r.Failed
	m.res.InDoubt += r.InDoubt
	// A run stopped before it planned (a cancel, a lost connection)
	// accounts for none of its messages: they were not done.
	m.res.NotDone += r.NotDone + max(n-r.Done-r.Skipped-r.Failed-r.NotDone-r.InDoubt, 0)
	m.res.Elapsed += r.Elapsed
	if m.res.Stopped == "" {
		m.res.Stopped = r.Stopped
	}
	m.res.AuditFile = cmp.Or(r.AuditFile, m.res.AuditFile)
	m.res.ArchiveFile = cmp.Or(r.ArchiveFile, m.res.ArchiveFile)
	if r.Verify != nil {
		m.res.Verify = r.Verify
	}
	last := m.acted >= m.total
	for i := range r.Items {
		it := &r.Items[i]
		if last || len(m.res.Items) < keptItems && it.Kind != ops.Done {
			m.res.Items = append(m.res.Items, *it)
		}
	}
}

// result is the runs' result; marks never reached count as not done.
func (m *marksRun) result() ops.OpResult {
	res := m.res
	res.NotDone += m.total - m.acted
	res.Plan.Request.Messages = nil
	return res
}
