package actions

import (
	"context"

	"github.com/poisonwatch/poisonwatch/mqwatch"
	"github.com/poisonwatch/poisonwatch/mqwatch/mqfmt"
)

// prepare browses the batch's messages whole and works out what goes
// where, before anything is in the unit of work: a message that is gone,
// cannot be transformed or whose target cannot be opened is resolved here
// at no cost to the others. again is false when the run stops.
func (w *opWorker) prepare(ctx context.Context, pending []int, resolved, cursor map[int]bool) ([]opGot, bool) {
	r := w.r
	got := make([]opGot, 0, len(pending))
	for _, idx := range pending {
		if r.stopping() {
			return nil, false
		}
		if err := r.lim.wait(ctx); err != nil {
			r.setStop("cancelled: nothing of the batch in flight was got", err)
			return nil, false
		}
		g, res := w.prepareOne(ctx, idx, cursor[idx])
		switch res {
		case oneOK:
			got = append(got, g)
		case oneResolved:
			resolved[idx] = true
		default:
			return nil, false
		}
	}
	return got, true
}

// prepareOne browses one message by MsgId and CorrelId. When another
// message with the same identifiers comes first, it is got under the browse
// cursor later instead of by its identifiers.
func (w *opWorker) prepareOne(ctx context.Context, idx int, underCursor bool) (opGot, oneResult) {
	r := w.r
	id := r.p.ids[idx]
	m, first, ok, err := browseFirstExact(ctx, w.src, id)
	if err != nil {
		r.stopFor("MQGET (browse) from "+r.req.Queue+" failed", err)
		return opGot{}, oneStop
	}
	if !ok {
		r.record([]int{idx}, kSkipped, "skipped: gone, someone else removed it meanwhile (MQRC_NO_MSG_AVAILABLE)", mqfmt.RCNoMsgAvailable, nil)
		return opGot{}, oneResolved
	}
	g := opGot{idx: idx, msg: m, cursor: underCursor || !first}
	if r.req.Op == OpDiscard {
		return g, oneOK
	}
	md, data, tg, skip := r.transform(&g.msg)
	if skip != "" {
		r.record([]int{idx}, kSkipped, "skipped: "+skip, 0, nil)
		return opGot{}, oneResolved
	}
	if _, err := w.target(ctx, tg); err != nil {
		return opGot{}, r.putFailed(idx, tg, err, false)
	}
	g.md, g.data, g.target = md, data, tg
	return g, oneOK
}

// browseFirstExact browses for the message with id; first says whether it
// is the first message with its MsgId and CorrelId, the one a get by those
// identifiers returns.
func browseFirstExact(ctx context.Context, q mqwatch.Queue, id msgIdentity) (m mqwatch.Message, first, ok bool, err error) {
	opts := mqwatch.BrowseOptions{First: true, MsgId: &id.msgID}
	if id.correlID != ([24]byte{}) {
		opts.CorrelId = &id.correlID
	}
	first = true
	for {
		m, err = q.Browse(ctx, opts)
		if mqwatch.IsReason(err, mqfmt.RCNoMsgAvailable) {
			return m, false, false, nil
		}
		if err != nil || identityOfMD(&m.MD) == id {
			return m, first, err == nil, err
		}
		opts.First, first = false, false
	}
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
		r.record([]int{idx}, kFailed, "failed: cannot be archived, so it is not discarded: "+err.Error(), 0, nil)
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
