package ops

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/poisonwatch/poisonwatch/codec/mqfmt"
)

// ErrStoppedEarly is wrapped by Run's error when a run started but did not
// finish: cancelled, a full target, a broken connection, a failed commit.
// OpResult then says exactly what was done before the stop.
var ErrStoppedEarly = errors.New("the action stopped before it finished")

// Run plans req and carries it out: moves in syncpoint batches (R10a),
// requeues (R10b, R10c), discards archived first (R10d), replays (R10e),
// exports and imports, with a rate limit, progress reports, cancellation
// through ctx and one audit record per message (R10f). A dry run reports
// what would happen and changes nothing.
//
// The error is nil when every selected message was dealt with (done or
// skipped with a reason); otherwise OpResult still holds the exact counts.
func (e *Engine) Run(ctx context.Context, req OpRequest, progress func(OpProgress)) (OpResult, error) {
	start := e.opts.Now()
	if e.opts.ReadOnly && req.Op.changes() && !req.DryRun {
		return OpResult{Plan: OpPlan{Request: req}, Stopped: ErrReadOnly.Error()}, ErrReadOnly
	}
	sess, err := e.connect(ctx)
	if err != nil {
		err = fmt.Errorf("%s: %w", req.Op, err)
		return OpResult{Plan: OpPlan{Request: req}, Stopped: err.Error()}, err
	}
	defer sess.close()
	p, err := e.plan(ctx, sess.conn, runPlanRequest(req))
	p.Request.Browsed = req.Browsed
	if err != nil {
		return OpResult{Plan: p.OpPlan, Stopped: err.Error()}, err
	}
	audit, warn, err := openAudit(e.opts.AuditPath)
	if err != nil {
		return OpResult{Plan: p.OpPlan, Stopped: err.Error()}, err
	}
	if warn != "" {
		p.Warnings = append(p.Warnings, warn)
	}
	r := newRun(e, p, audit, progress)
	r.recordPlanSkips()
	switch {
	case p.Request.DryRun:
		r.dryRun()
	case p.Request.Op.movesMessages():
		r.runMoves(ctx, sess)
	case p.Request.Op == OpReplay:
		r.runReplay(ctx, sess)
	case p.Request.Op == OpExport:
		r.runExport(ctx, sess)
	case p.Request.Op == OpImport:
		r.runImport(ctx, sess)
	}
	if err := audit.close(); err != nil {
		r.setStop("audit log: "+err.Error(), err)
	}
	res := r.result()
	res.Elapsed = e.opts.Now().Sub(start)
	if p.Request.DryRun {
		return res, r.err()
	}
	if req.Part {
		e.verify(ctx, &res, start)
		return res, r.err()
	}
	ent := e.record(RunEntry(&res, start, r.user, e.opts.QMgr))
	res.Entry = ent.Seq
	e.verify(ctx, &res, start)
	if res.Verify != nil {
		e.record(CameBackEntry(res.Verify, ent, e.opts.Now()))
	}
	return res, r.err()
}

// runPlanRequest is the request a run plans with. A run browses every
// listed message again before acting on it (and skips one that is gone), so
// the plan's own look for each (one MQGET per message, which a dry run and
// the confirmation dialog need) would only double the calls.
func runPlanRequest(req OpRequest) OpRequest {
	if !req.DryRun && req.Op != OpImport {
		req.Browsed = true
	}
	return req
}

// opRun is the state of one run, shared by its workers.
type opRun struct {
	e     *Engine
	p     *opPlanned
	req   *OpRequest
	items []OpItem
	nth   []int // per item: its occurrence among items with its identity (identity.go)
	dups  map[msgIdentity]bool
	audit *opAudit
	prog  *opProgress
	lim   *opLimiter
	user  string

	archive     *opArchive
	archivePath string

	mu        sync.Mutex
	stopMsg   string
	stopErr   error
	badTarget map[string]error // targets that failed for the rest of the run
}

func newRun(e *Engine, p *opPlanned, audit *opAudit, progress func(OpProgress)) *opRun {
	req := &p.Request
	items := p.Items
	if req.NoPlanItems {
		p.Items = nil // the plan's list is the run's: the result leaves it out
	} else {
		items = append([]OpItem(nil), items...)
	}
	r := &opRun{e: e, p: p, req: req, items: items, audit: audit,
		user: e.user(req), badTarget: map[string]error{}}
	r.nth, r.dups = r.occurrences()
	r.prog = newProgress(progress, e.opts.Now, len(items))
	r.lim = newLimiter(req.Rate, e.opts.Now, e.opts.Sleep)
	return r
}

// setStop records why the run stops; the first reason wins.
func (r *opRun) setStop(msg string, err error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.stopMsg == "" {
		r.stopMsg, r.stopErr = msg, err
	}
}

func (r *opRun) stopping() bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.stopMsg != ""
}

func (r *opRun) err() error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.stopMsg == "" {
		return nil
	}
	var cae *ContextAuthorityError
	if errors.As(r.stopErr, &cae) {
		return fmt.Errorf("%w: %w", ErrStoppedEarly, cae)
	}
	if r.stopErr != nil {
		return fmt.Errorf("%w: %s: %w", ErrStoppedEarly, r.stopMsg, r.stopErr)
	}
	return fmt.Errorf("%w: %s", ErrStoppedEarly, r.stopMsg)
}

// record sets the outcome of items, writes their audit records and reports
// progress. to overrides the planned target (a requeue decides it from the
// message itself).
func (r *opRun) record(idxs []int, kind ItemKind, detail string, rc mqfmt.Reason, to []opTarget) {
	r.mark(idxs, kind, detail, rc, to, true)
}

// mark is record; write false leaves out the audit lines, written before
// the commit already.
func (r *opRun) mark(idxs []int, kind ItemKind, detail string, rc mqfmt.Reason, to []opTarget, write bool) {
	if len(idxs) == 0 {
		return
	}
	now := r.e.opts.Now()
	recs := auditRecs(len(idxs))
	defer putAuditRecs(recs)
	for j, i := range idxs {
		it := &r.items[i]
		it.Kind, it.Detail, it.Reason = kind, detail, int32(rc)
		if rc == mqfmt.RCNoMsgAvailable || rc == mqfmt.RCNoMsgUnderCursor {
			it.Skip = SkipGone
		}
		if to != nil && to[j].queue != "" {
			it.Target, it.TargetQMgr, it.Why = to[j].queue, to[j].qmgr, to[j].why
		}
		if write {
			*recs = append(*recs, r.auditRecord(it, it.Text(r.req.Op), now))
		}
	}
	if err := r.audit.write(*recs); err != nil {
		r.setStop("audit log write failed: no further message is acted on", err)
	}
	var done, skipped, failed, inDoubt int
	switch n := len(idxs); kind {
	case Skipped:
		skipped = n
	case Failed:
		failed = n
	case InDoubt:
		inDoubt = n
	default: // Done, or a dry run's planned items: processed
		done = n
	}
	r.prog.add(done, skipped, failed, inDoubt)
}

// auditRecord is the audit line of one message: text is its outcome (the
// item's sentence, or a line written ahead of the commit).
func (r *opRun) auditRecord(it *OpItem, text string, now time.Time) AuditRecord {
	rec := AuditRecord{Time: now.UTC(), User: r.user, QMgr: r.p.qmName, Action: r.req.Op,
		MsgId: hexID(it.Msg.MsgId), From: r.sourceName(), Outcome: text, Reason: it.Reason, DryRun: r.req.DryRun}
	if it.Msg.CorrelId != ([24]byte{}) {
		rec.CorrelId = hexID(it.Msg.CorrelId)
	}
	if !it.Msg.PutTime.IsZero() {
		rec.PutTime = it.Msg.PutTime.UTC().Format(time.RFC3339Nano)
	}
	if it.Target != "" {
		rec.To = opTarget{queue: it.Target, qmgr: it.TargetQMgr}.key()
	}
	switch r.req.Op {
	case OpDiscard:
		rec.File = r.archivePath
	case OpExport:
		rec.File = r.req.File
	case OpImport:
		rec.File, rec.FileSHA256, rec.Index = r.req.File, r.p.fileSHA, it.Index
	case OpReplay:
		if it.Kind != Skipped {
			rec.ReportsCleared = r.reportsCleared(&it.Msg)
		}
		if it.CopyMsgId != ([24]byte{}) {
			rec.CopyMsgId = hexID(it.CopyMsgId)
		}
	}
	return rec
}

// recordPlanSkips writes the audit records of messages the plan skipped.
func (r *opRun) recordPlanSkips() {
	for i := range r.items {
		it := &r.items[i]
		if it.planned() {
			continue
		}
		r.record([]int{i}, Skipped, it.Detail, mqfmt.Reason(it.Reason), nil)
	}
}

// dryRun audits what would happen; nothing is touched. Progress counts the
// planned messages as processed, so a progress bar completes.
func (r *opRun) dryRun() {
	for i := range r.items {
		if r.items[i].planned() {
			it := &r.items[i]
			r.record([]int{i}, it.Kind, it.Detail, mqfmt.Reason(it.Reason), nil)
		}
	}
}

// result assembles the run's result; items never reached say why.
func (r *opRun) result() OpResult {
	done, skipped, failed, inDoubt := r.prog.counts()
	res := OpResult{Plan: r.p.OpPlan, Done: done, Skipped: skipped, Failed: failed, InDoubt: inDoubt,
		AuditFile: r.audit.path, ArchiveFile: r.archivePath, Items: r.items}
	r.mu.Lock()
	res.Stopped = r.stopMsg
	r.mu.Unlock()
	if r.req.DryRun {
		res.Done = 0
		r.prog.final()
		return res
	}
	for i := range res.Items {
		if res.Items[i].planned() {
			res.Items[i].Kind, res.Items[i].Detail = NotDone, "the run stopped"
			if res.Stopped != "" {
				res.Items[i].Detail += " (" + firstClause(res.Stopped) + ")"
			}
			res.NotDone++
		}
	}
	r.prog.final()
	return res
}

// firstClause cuts a stop message at its first colon-free clause, for the
// per-message outcome.
func firstClause(s string) string {
	if i := strings.Index(s, ": "); i > 0 {
		return s[:i]
	}
	return s
}

// sourceName is the queue messages come from, for audit records.
func (r *opRun) sourceName() string {
	if r.req.Op == OpImport {
		return r.req.File
	}
	return r.req.Queue
}
