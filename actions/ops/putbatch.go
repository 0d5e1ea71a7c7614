package ops

import (
	"context"

	"github.com/poisonwatch/poisonwatch/codec/mqfmt"
	"github.com/poisonwatch/poisonwatch/mqwatch"
)

// opPut is one copy a replay or import puts.
type opPut struct {
	idx        int
	md         mqfmt.MQMD
	data       []byte
	target     opTarget
	defaultCtx bool // put with default context (an import message without MQMD)
}

// opPutBatch puts copies in syncpoint batches (replay, import). It holds the
// batch in memory, bounded by count and bytes, so that a batch backed out
// because one copy cannot go is put again without reading the source twice.
type opPutBatch struct {
	opUOW
	targets map[string]mqwatch.Queue
	pend    []opPut
	bytes   int
}

func newPutBatch(r *opRun, conn mqwatch.Conn) *opPutBatch {
	return &opPutBatch{opUOW: opUOW{r: r, conn: conn}, targets: map[string]mqwatch.Queue{}}
}

// add queues a copy and commits the batch when it is full. It returns false
// once the run stops.
func (b *opPutBatch) add(ctx context.Context, p opPut) bool {
	b.pend = append(b.pend, p)
	b.bytes += len(p.data)
	if len(b.pend) >= b.r.req.Batch || b.bytes >= maxPendingBytes {
		return b.flush(ctx)
	}
	return !b.r.stopping()
}

// flush puts and commits what is pending.
func (b *opPutBatch) flush(ctx context.Context) bool {
	for len(b.pend) > 0 && !b.r.stopping() {
		b.attempt(ctx)
	}
	b.pend, b.bytes = b.pend[:0], 0
	return !b.r.stopping()
}

// attempt puts the pending copies in one unit of work. A copy that cannot go
// is recorded and dropped, the unit of work backed out and the rest left
// pending for the next attempt; a committed batch leaves nothing pending.
func (b *opPutBatch) attempt(ctx context.Context) {
	r := b.r
	if b.isDead() {
		return
	}
	got := make([]opGot, 0, len(b.pend))
	for i := range b.pend {
		p := &b.pend[i]
		if err := r.lim.wait(ctx); err != nil {
			b.backout(ctx)
			r.setStop("cancelled: the batch in flight was backed out", err)
			return
		}
		g := opGot{idx: p.idx, md: p.md, data: p.data, target: p.target}
		if res := b.putCopy(ctx, b.target, &g, b.putOptions(p)); res != oneOK {
			if res == oneRetryResolved {
				b.pend = append(b.pend[:i], b.pend[i+1:]...)
			}
			return
		}
		got = append(got, g)
	}
	// The batch's audit lines, made durable before MQCMIT: nothing is
	// done without a record, and an import run again after a crash here
	// never puts these messages twice.
	if err := r.auditAhead(got); err != nil {
		b.backout(ctx)
		r.setStop("audit log write failed: nothing of the batch in flight was acted on", err)
		return
	}
	if !b.commit(ctx, got) {
		return
	}
	if err := r.audit.sync(); err != nil {
		r.setStop("audit log sync failed: no further message is acted on", err)
	}
	b.pend = b.pend[:0]
}

// putOptions: replay gives copies a new MsgId unless asked to keep it; an
// import keeps the file's. Context is set from the message (setall), as no
// get on this connection precedes the put to pass it from.
func (b *opPutBatch) putOptions(p *opPut) mqwatch.PutOptions {
	o := mqwatch.PutOptions{Syncpoint: true}
	o.NewMsgId = b.r.req.Op == OpReplay && !b.r.req.KeepMsgId
	if b.r.req.Context == ContextPass && !p.defaultCtx {
		o.Context = mqwatch.ContextSetAll
	}
	return o
}

func (b *opPutBatch) target(ctx context.Context, tg opTarget) (mqwatch.Queue, error) {
	return b.r.openTarget(ctx, b.conn, b.targets, tg)
}

func (b *opPutBatch) close(ctx context.Context) {
	for _, q := range b.targets {
		_ = q.Close(context.WithoutCancel(ctx))
	}
}
