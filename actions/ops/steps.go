package ops

import (
	"context"

	"github.com/poisonwatch/poisonwatch/codec/mqfmt"
	"github.com/poisonwatch/poisonwatch/mqwatch"
)

// prepare browses the batch's messages whole and works out what goes
// where, before anything is in the unit of work: a message that is gone,
// cannot be transformed or whose target cannot be opened is resolved here
// at no cost to the others. again is false when the run stops.
func (w *opWorker) prepare(ctx context.Context, pending []int, resolved, cursor map[int]bool) ([]opGot, bool) {
	r := w.r
	got := reuse(w.gotBuf, len(pending))
	defer func() { w.gotBuf = got[:0] }()
	// per get selection, how many messages precede each one got earlier in
	// the batch; the worker's map, emptied, keeps its room from batch to batch
	if w.ahead == nil {
		w.ahead = map[getKey][]int{}
	}
	ahead := w.ahead
	clear(ahead)
	for _, idx := range pending {
		if r.stopping() {
			return nil, false
		}
		if err := r.lim.wait(ctx); err != nil {
			r.setStop("cancelled: nothing of the batch in flight was got", err)
			return nil, false
		}
		g, res := w.prepareOne(ctx, idx, cursor[idx], ahead)
		switch res {
		case oneOK:
			got = append(got, g)
			k := r.p.ids[idx].getKey()
			ahead[k] = append(ahead[k], g.before)
		case oneResolved:
			resolved[idx] = true
		default:
			return nil, false
		}
	}
	return got, true
}

// prepareOne browses one message: the item's occurrence among those with
// its identity and listed body (identity.go). When a get by its
// identifiers would return another message first (one not got earlier in
// this batch), it is got under the browse cursor instead.
func (w *opWorker) prepareOne(ctx context.Context, idx int, underCursor bool, ahead map[getKey][]int) (opGot, oneResult) {
	r := w.r
	id := r.p.ids[idx]
	sum := &r.items[idx].Msg
	m, before, ok, err := browseOccurrence(ctx, w.src, &r.p.ids[idx], r.nth[idx], func(m mqwatch.Message) bool { return bodyStarts(&m, sum) })
	if err != nil {
		r.stopFor("MQGET (browse) from "+r.req.Queue+" failed", err)
		return opGot{}, oneStop
	}
	if !ok {
		r.record([]int{idx}, Skipped, "gone, someone else removed it meanwhile (MQRC_NO_MSG_AVAILABLE)", mqfmt.RCNoMsgAvailable, nil)
		return opGot{}, oneResolved
	}
	g := opGot{idx: idx, msg: m, before: before, cursor: underCursor || !gotAhead(before, ahead[id.getKey()])}
	if r.req.Op == OpDiscard {
		return g, oneOK
	}
	md, data, tg, skip := r.transform(idx, &g.msg)
	if skip != "" {
		r.record([]int{idx}, Skipped, skip, 0, nil)
		return opGot{}, oneResolved
	}
	if _, err := w.target(ctx, tg); err != nil {
		return opGot{}, r.putFailed(idx, tg, err, false)
	}
	g.md, g.data, g.target = md, data, tg
	return g, oneOK
}

// gotAhead reports whether the before messages that a get by identifiers
// would return ahead of this one are all got earlier in the batch: those
// that precede it, as their own counts say.
func gotAhead(before int, earlier []int) bool {
	n := 0
	for _, b := range earlier {
		if b < before {
			n++
		}
	}
	return n == before
}

// putAll puts the batch's copies under syncpoint. Asynchronously when the
// batch has several: the queue manager's answers are read once, with
// MQSTAT, before anything is got; a failure among them backs the puts out
// and puts the batch again synchronously, which names the message. A put
// that fails backs out puts only: no message has been got yet.
func (w *opWorker) putAll(ctx context.Context, got []opGot, resolved map[int]bool) (again, ok bool) {
	r := w.r
	async := len(got) > 1 && !w.syncPuts
	for i := range got {
		g := &got[i]
		if err := ctx.Err(); err != nil || r.stopping() {
			w.backout(ctx)
			if err != nil {
				r.setStop("cancelled: the copies put by the batch in flight were backed out, nothing was got", err)
			}
			return false, false
		}
		if res := w.putCopy(ctx, w.target, g, w.putOptions(async)); res != oneOK {
			resolved[g.idx] = res == oneRetryResolved
			return res == oneRetryResolved, false
		}
	}
	if !async {
		return false, true
	}
	st, err := w.conn.AsyncStatus(ctx)
	if err != nil {
		w.backout(ctx)
		r.stopFor("MQSTAT after the asynchronous puts failed", err)
		return false, false
	}
	if st.Failed > 0 {
		w.backout(ctx)
		w.syncPuts = true
		return true, false
	}
	return false, true
}

// putOptions set the context from the browsed message (a browse saves no
// context to pass), or let the queue manager set default context when the
// operator chose so explicitly.
func (w *opWorker) putOptions(async bool) mqwatch.PutOptions {
	o := mqwatch.PutOptions{Syncpoint: true, AsyncResponse: async}
	if w.r.req.Context == ContextPass {
		o.Context = mqwatch.ContextSetAll
	}
	return o
}

// archiveFirst writes a discard batch to the archive and syncs it before
// anything is got; a message the archive cannot hold is failed first. On
// success the archive stays locked until the batch is settled.
func (w *opWorker) archiveFirst(ctx context.Context, got []opGot, resolved map[int]bool) (again, ok bool) {
	r := w.r
	b, bad, err := encodeGot(got)
	if bad >= 0 {
		idx := got[bad].idx
		r.record([]int{idx}, Failed, "cannot be archived, so it is not discarded: "+err.Error(), 0, nil)
		resolved[idx] = true
		return true, false
	}
	if err != nil {
		r.setStop("nothing of the batch in flight was discarded: "+err.Error(), err)
		return false, false
	}
	r.archive.mu.Lock()
	if err := r.archive.write(b); err != nil {
		_ = r.archive.settle(false, 0)
		r.archive.mu.Unlock()
		r.setStop("nothing of the batch in flight was discarded: "+err.Error(), err)
		return false, false
	}
	w.archived = true
	return false, true
}

func encodeGot(got []opGot) ([]byte, int, error) {
	msgs := make([]*mqwatch.Message, len(got))
	for i := range got {
		msgs[i] = &got[i].msg
	}
	return encodeArchive(msgs)
}

// abandon backs the batch out, cuts what it wrote to the archive and says
// in the audit log that its lines written ahead did not happen.
func (w *opWorker) abandon(ctx context.Context) {
	w.backout(ctx)
	if w.audited != nil {
		w.r.auditRetract(w.audited)
		w.audited = nil
	}
	if w.archived {
		w.archived = false
		if err := w.r.archive.settle(false, 0); err != nil {
			w.r.setStop(err.Error(), err)
		}
	}
}

// target opens (once per worker) the queue a message goes to.
func (w *opWorker) target(ctx context.Context, tg opTarget) (mqwatch.Queue, error) {
	return w.r.openTarget(ctx, w.conn, w.targets, tg)
}

// openTarget opens tg on conn once, keeping the handle in open: with the
// message's user as alternate user under PUTAUT(CTX). A target that failed
// for the run is not opened again.
func (r *opRun) openTarget(ctx context.Context, conn mqwatch.Conn, open map[string]mqwatch.Queue, tg opTarget) (mqwatch.Queue, error) {
	if q, ok := open[tg.handleKey()]; ok {
		return q, nil
	}
	if err := r.targetFailure(tg); err != nil {
		return nil, err
	}
	oo := r.outputOptions()
	oo.AlternateUserAuthority = tg.altUser != ""
	q, err := conn.Open(ctx, mqwatch.ObjectDesc{Name: tg.queue, QMgr: tg.qmgr, AlternateUserId: tg.altUser}, oo)
	if err != nil {
		return nil, err
	}
	open[tg.handleKey()] = q
	return q, nil
}
