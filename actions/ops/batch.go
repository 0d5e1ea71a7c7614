package ops

import (
	"context"
	"sync"

	"github.com/poisonwatch/poisonwatch/codec/mqfmt"
	"github.com/poisonwatch/poisonwatch/mqwatch"
)

// runMoves carries out requeue, move and discard: the planned messages in
// batches, each batch one unit of work on one connection (R10a), batches
// spread over the workers. Whatever can fail happens before a message is
// got: a batch is browsed, its copies put under syncpoint, and only then are
// the originals got and the unit of work committed, so a batch backed out
// for a failed put never raises a BackoutCount.
func (r *opRun) runMoves(ctx context.Context, ctrl *opSession) {
	var idxs []int
	for i := range r.items {
		if r.items[i].planned() {
			idxs = append(idxs, i)
		}
	}
	if len(idxs) == 0 {
		return
	}
	if r.req.Op == OpDiscard {
		a, err := newArchive(r.req.File, r.e.opts.ArchiveDir, r.p.qmName, r.req.Queue, r.e.opts.Now())
		if err != nil {
			r.setStop("nothing discarded: "+err.Error(), err)
			return
		}
		r.archive, r.archivePath = a, a.path
		defer func() {
			path, err := a.close()
			r.archivePath = path
			if err != nil {
				r.setStop(err.Error(), err)
			}
		}()
	} else if err := r.preflight(ctx, ctrl.conn); err != nil {
		r.setStop("nothing moved: "+err.Error(), err)
		return
	}
	workers := r.req.Workers
	if !r.e.canReconnect() {
		workers = 1
	}
	size := batchSize(len(idxs), r.req.Batch, workers)
	cut := batchesOf(idxs, size, r.p.ids, r.dups)
	batches := make(chan []int, len(cut))
	for _, b := range cut {
		batches <- b
	}
	close(batches)
	workers = min(workers, len(batches))
	var wg sync.WaitGroup
	errs := make([]error, workers)
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs[w] = r.worker(ctx, ctrl, w == 0, batches)
		}()
	}
	wg.Wait()
	// A worker that could not connect or open the source (an exclusive
	// queue admits one input handle: 2042) leaves its share to the others;
	// only when none could does the run stop for it.
	for _, err := range errs {
		if err == nil {
			return
		}
	}
	r.stopFor("open "+r.req.Queue, errs[0])
}

// batchSize spreads n messages over batches of at most max so that, with
// several workers, every worker gets the same number of batches: 500
// messages for 4 workers go as 8 batches of 63, not 5 of 100 of which one
// worker would do two while the others wait.
func batchSize(n, max, workers int) int {
	if workers <= 1 || n <= 0 {
		return max
	}
	nb := (n + max - 1) / max
	if r := nb % workers; r != 0 {
		nb += workers - r
	}
	return (n + nb - 1) / nb
}

// worker takes batches until none is left or the run stops. The first
// worker uses the run's own connection; the others open their own (a
// channel's MAXINSTC may refuse some). It returns why it could not start.
func (r *opRun) worker(ctx context.Context, ctrl *opSession, first bool, batches <-chan []int) error {
	sess := ctrl
	if !first {
		s, err := r.e.connect(ctx)
		if err != nil {
			return err
		}
		defer s.close()
		sess = s
	}
	w := &opWorker{opUOW: opUOW{r: r, conn: sess.conn}, targets: map[string]mqwatch.Queue{}}
	defer w.closeHandles(ctx)
	defer w.keepBufs()
	src, err := sess.conn.Open(ctx, mqwatch.ObjectDesc{Name: r.req.Queue}, mqwatch.OpenOptions{Input: true, Browse: true})
	if err != nil {
		return err
	}
	w.src = src
	for b := range batches {
		if r.stopping() {
			return nil
		}
		w.batch(ctx, b)
	}
	return nil
}

// opWorker is one connection's share of a run.
type opWorker struct {
	opUOW
	src     mqwatch.Queue
	targets map[string]mqwatch.Queue
	// syncPuts is set for the rest of a batch whose asynchronous puts
	// failed: putting synchronously names the message that cannot go.
	syncPuts bool
	archived bool // the batch in flight is written to the discard archive
	// audited holds the batch in flight once its audit lines are written.
	audited []opGot
	// raised holds the messages of the batch whose get this worker backed
	// out once (IBM MQ raised their BackoutCount).
	raised map[int]bool
	// gotBuf and keptBuf are a batch's browsed and got messages, kept for
	// the next batch: a batch's slices die with it, and making them anew
	// for each was a kilobyte of garbage per message moved.
	gotBuf, keptBuf []opGot
	ahead           map[getKey][]int // opWorker.prepare's, kept for the same reason
}

// gotBufs keeps finished workers' batch slices for the next run's: a run
// of marks is one of many (model.RunMarks), each with its own workers.
var gotBufs sync.Pool

// reuse returns buf emptied, with room for n, its old entries cleared so
// that the bodies they hold are not kept alive.
func reuse(buf []opGot, n int) []opGot {
	clear(buf)
	if cap(buf) >= n {
		return buf[:0]
	}
	if p, ok := gotBufs.Get().(*[]opGot); ok && cap(*p) >= n {
		return (*p)[:0]
	}
	return make([]opGot, 0, n)
}

// keepBufs gives the worker's batch slices to the next run's workers.
func (w *opWorker) keepBufs() {
	for _, b := range [][]opGot{w.gotBuf, w.keptBuf} {
		if cap(b) > 0 && cap(b) <= 1<<14 {
			clear(b[:cap(b)])
			b = b[:0]
			gotBufs.Put(&b)
		}
	}
	w.gotBuf, w.keptBuf = nil, nil
}

func (w *opWorker) closeHandles(ctx context.Context) {
	ctx = context.WithoutCancel(ctx)
	for _, q := range w.targets {
		_ = q.Close(ctx)
	}
	if w.src != nil {
		_ = w.src.Close(ctx)
	}
}

// opGot is a message of the batch in flight: browsed, its copy put under
// syncpoint, then got under syncpoint.
type opGot struct {
	idx    int
	msg    mqwatch.Message // as browsed
	cursor bool            // got under the browse cursor: another message with its get selection comes first
	before int             // messages with its get selection ahead of it when browsed
	md     mqfmt.MQMD      // what is put (MsgId and context written back by MQPUT)
	data   []byte
	target opTarget
	putMD  mqfmt.MQMD // as put
}

// batch moves one batch. A message that cannot go is set aside with its
// reason and the batch tried again without it. A message whose get was
// backed out by the engine itself (another message of the batch was taken
// by someone else between the browse and the get, IBM MQ counting the
// backout) is tried again in a unit of work of its own, where its get is
// the last call before MQCMIT: its BackoutCount is never raised twice.
func (w *opWorker) batch(ctx context.Context, idxs []int) {
	resolved := map[int]bool{}
	cursor := map[int]bool{}
	w.raised = map[int]bool{}
	w.syncPuts = false
	pending := idxs
	for attempt := 0; len(pending) > 0; attempt++ {
		part := w.nextPart(pending)
		if again := w.attempt(ctx, part, resolved, cursor); !again {
			if w.r.stopping() || len(part) == len(pending) {
				return
			}
			w.committed(part, pending)
			pending = pending[len(part):]
			continue
		}
		next := pending[:0:0]
		for _, i := range pending {
			if !resolved[i] {
				next = append(next, i)
			}
		}
		pending = next
		if attempt > 3*len(idxs)+2 {
			// Each retry resolves a message, switches one to the browse
			// cursor or to synchronous puts, or commits a part, so this
			// cannot happen; guard against looping anyway.
			w.r.setStop("internal error: a batch did not settle", nil)
			return
		}
	}
}

// nextPart is what the next unit of work takes: a message whose get was
// backed out once alone, else the pending messages up to the next such one.
func (w *opWorker) nextPart(pending []int) []int {
	if w.raised[pending[0]] {
		return pending[:1]
	}
	for j, i := range pending {
		if w.raised[i] {
			return pending[:j]
		}
	}
	return pending
}

// committed is told that part of the batch was committed: a later twin
// identical to one of them (same identity and listed body) is now one
// occurrence nearer the head of the queue.
func (w *opWorker) committed(part, pending []int) {
	r := w.r
	for _, d := range part {
		if r.items[d].Kind != Done {
			continue
		}
		k := bodyKey{r.p.ids[d], string(r.items[d].Msg.BodyPrefix)}
		for _, i := range pending[len(part):] {
			if r.nth[i] > r.nth[d] && (bodyKey{r.p.ids[i], string(r.items[i].Msg.BodyPrefix)}) == k {
				r.nth[i]--
			}
		}
	}
}

// attempt runs the batch's pending messages in one unit of work: browse,
// put the copies (or, for a discard, archive the messages), get the
// originals, commit. Only the gets raise BackoutCounts if backed out, and
// nothing that can fail for a message or its target happens after them.
// It reports whether the batch must be tried again.
func (w *opWorker) attempt(ctx context.Context, pending []int, resolved, cursor map[int]bool) bool {
	r := w.r
	if w.isDead() {
		return false
	}
	got, again := w.prepare(ctx, pending, resolved, cursor)
	if len(got) == 0 || r.stopping() {
		return again && !r.stopping()
	}
	if r.req.Op == OpDiscard {
		if again, ok := w.archiveFirst(ctx, got, resolved); !ok {
			return again
		}
		defer r.archive.mu.Unlock()
	} else if again, ok := w.putAll(ctx, got, resolved); !ok {
		return again
	}
	// The lines are on disk before anything is got: a log that cannot be
	// written stops the run with nothing acted on and no BackoutCount
	// raised.
	if err := r.auditAhead(got); err != nil {
		w.abandon(ctx)
		r.setStop("audit log write failed: nothing of the batch in flight was acted on", err)
		return false
	}
	w.audited = got
	got, again, ok := w.getAll(ctx, got, resolved, cursor)
	if !ok {
		return again
	}
	w.audited = nil
	if len(got) > 0 {
		w.commit(ctx, got)
	} else if w.archived {
		_ = r.archive.settle(false, 0)
	}
	w.archived = false
	return false
}
