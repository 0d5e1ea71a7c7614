package actions

import (
	"context"
	"fmt"
	"sync"

	"github.com/poisonwatch/poisonwatch/mqwatch"
	"github.com/poisonwatch/poisonwatch/mqwatch/mqfmt"
)

// runMoves carries out requeue, move and discard: the planned messages in
// batches, each batch one unit of work on one connection (R10a), batches
// spread over the workers.
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
	batches := make(chan []int, len(idxs)/size+1)
	for len(idxs) > 0 {
		n := min(size, len(idxs))
		batches <- idxs[:n]
		idxs = idxs[n:]
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
	w := &opWorker{r: r, conn: sess.conn, targets: map[string]mqwatch.Queue{}}
	defer w.closeHandles(ctx)
	src, err := sess.conn.Open(ctx, mqwatch.ObjectDesc{Name: r.req.Queue}, mqwatch.OpenOptions{
		Input: true, Browse: true, SaveAllContext: r.req.Context == ContextPass && r.req.Op != OpDiscard})
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
	r       *opRun
	conn    mqwatch.Conn
	src     mqwatch.Queue
	targets map[string]mqwatch.Queue
	// dead is set when MQBACK failed: the unit of work may still hold the
	// batch, so this connection must never commit again.
	dead bool
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

// opGot is a message got under syncpoint in the batch in flight.
type opGot struct {
	idx    int
	msg    mqwatch.Message // as got
	target opTarget
	putMD  mqfmt.MQMD // as put (MsgId written back)
}

// batch moves one batch. Whenever a message cannot go (gone, not the one
// shown, no target, a put that fails for that message or its target), the
// unit of work is backed out, the message set aside with its reason, and
// the batch tried again without it: a failed put leaves the message's get in
// the unit of work, and committing that would lose it.
func (w *opWorker) batch(ctx context.Context, idxs []int) {
	resolved := map[int]bool{}
	cursor := map[int]bool{}
	pending := idxs
	for attempt := 0; len(pending) > 0; attempt++ {
		if again := w.attempt(ctx, pending, resolved, cursor); !again {
			return
		}
		next := pending[:0:0]
		for _, i := range pending {
			if !resolved[i] {
				next = append(next, i)
			}
		}
		pending = next
		if attempt > 2*len(idxs)+1 {
			// Each retry resolves a message or switches one to the browse
			// cursor, so this cannot happen; guard against looping anyway.
			w.r.setStop("internal error: a batch did not settle", nil)
			return
		}
	}
}

// attempt runs the batch's pending messages in one unit of work. It
// reports whether the batch must be tried again.
func (w *opWorker) attempt(ctx context.Context, pending []int, resolved, cursor map[int]bool) bool {
	r := w.r
	if w.dead {
		return false
	}
	var got []opGot
	for _, idx := range pending {
		if r.stopping() {
			w.backout(ctx)
			return false
		}
		if err := r.lim.wait(ctx); err != nil {
			w.backout(ctx)
			r.setStop("cancelled: the batch in flight was backed out", err)
			return false
		}
		g, res := w.one(ctx, idx, cursor)
		switch res {
		case oneOK:
			got = append(got, g)
			continue
		case oneResolved: // nothing of it is in the unit of work
			resolved[idx] = true
			continue
		case oneRetry, oneRetryResolved:
			resolved[idx] = res == oneRetryResolved
			w.backout(ctx)
			return true
		}
		w.backout(ctx) // oneStop
		return false
	}
	return w.commit(ctx, got, resolved)
}

// oneResult says what became of one message in a batch attempt.
type oneResult int

const (
	oneOK            oneResult = iota // got (and put): part of the unit of work
	oneResolved                       // skipped or failed before anything was got
	oneRetry                          // back out and try again (now under the browse cursor)
	oneRetryResolved                  // back out and try again without it
	oneStop                           // back out and stop the run
)

// one gets one message and puts it to its target.
func (w *opWorker) one(ctx context.Context, idx int, cursor map[int]bool) (opGot, oneResult) {
	r := w.r
	if tg := r.p.targets[idx]; tg.queue != "" {
		if _, err := w.target(ctx, tg); err != nil {
			return opGot{}, r.putFailed(idx, tg, err, false)
		}
	}
	m, err := w.get(ctx, idx, cursor[idx])
	if err != nil {
		if rc := mqwatch.ReasonOf(err); rc == mqfmt.RCNoMsgAvailable || rc == mqfmt.RCNoMsgUnderCursor {
			r.record([]int{idx}, kSkipped, "skipped: gone, someone else removed it meanwhile ("+rc.String()+")", rc, nil)
			return opGot{}, oneResolved
		}
		r.stopFor(fmt.Sprintf("MQGET from %s failed", r.req.Queue), err)
		return opGot{}, oneStop
	}
	if identityOfMD(&m.MD) != r.p.ids[idx] {
		if !cursor[idx] {
			cursor[idx] = true
			return opGot{}, oneRetry
		}
		r.record([]int{idx}, kSkipped, "skipped: not the message shown (another message has its MsgId and CorrelId)", 0, nil)
		return opGot{}, oneRetryResolved
	}
	g := opGot{idx: idx, msg: m}
	if r.req.Op == OpDiscard {
		return g, oneOK
	}
	md, data, tg, skip := r.transform(&m)
	if skip != "" {
		r.record([]int{idx}, kSkipped, "skipped: "+skip, 0, nil)
		return opGot{}, oneRetryResolved
	}
	g.target = tg
	q, err := w.target(ctx, tg)
	if err == nil {
		err = q.Put(ctx, &md, data, w.putOptions())
	}
	if err != nil {
		return opGot{}, r.putFailed(idx, tg, err, true)
	}
	g.putMD = md
	return g, oneOK
}

// get takes the message by MsgId and CorrelId (a blank CorrelId is not
// matched: IBM treats MQCI_NONE as "any"), or under the browse cursor after
// the MsgId led to another message with the same identifiers.
func (w *opWorker) get(ctx context.Context, idx int, underCursor bool) (mqwatch.Message, error) {
	s := &w.r.items[idx].Msg
	if underCursor {
		return w.getUnderCursor(ctx, w.r.p.ids[idx])
	}
	opts := mqwatch.GetOptions{Syncpoint: true, MsgId: &s.MsgId}
	if s.CorrelId != ([24]byte{}) {
		opts.CorrelId = &s.CorrelId
	}
	return w.src.Get(ctx, opts)
}

// getUnderCursor browses for the exact message and gets it under the browse
// cursor.
func (w *opWorker) getUnderCursor(ctx context.Context, id msgIdentity) (mqwatch.Message, error) {
	m, ok, err := browseExact(ctx, w.src, id, 0, 1)
	if err != nil || !ok {
		if err == nil {
			err = mqwatch.NewError("MQGET", w.src.Name(), mqfmt.RCNoMsgAvailable)
		}
		return m, err
	}
	return w.src.Get(ctx, mqwatch.GetOptions{Syncpoint: true, UnderCursor: true})
}

// putOptions pass the context of the message just got, or let the queue
// manager set default context when the operator chose so explicitly.
func (w *opWorker) putOptions() mqwatch.PutOptions {
	o := mqwatch.PutOptions{Syncpoint: true}
	if w.r.req.Context == ContextPass {
		o.Context, o.ContextFrom = mqwatch.ContextPassAll, w.src
	}
	return o
}

// target opens (once per worker) the queue a message goes to.
func (w *opWorker) target(ctx context.Context, tg opTarget) (mqwatch.Queue, error) {
	if q, ok := w.targets[tg.key()]; ok {
		return q, nil
	}
	if err := w.r.targetFailure(tg); err != nil {
		return nil, err
	}
	q, err := w.conn.Open(ctx, mqwatch.ObjectDesc{Name: tg.queue, QMgr: tg.qmgr}, w.r.outputOptions())
	if err != nil {
		return nil, err
	}
	w.targets[tg.key()] = q
	return q, nil
}

// backout backs the unit of work out; it is not cancelled with the run, so a
// cancellation still returns the batch's messages to the source. When MQBACK
// itself fails the unit of work may still hold gets and puts: a later commit
// on this connection would make half a batch final, so the worker stops and
// the run says why.
func (w *opWorker) backout(ctx context.Context) {
	err := w.conn.Backout(context.WithoutCancel(ctx))
	if err == nil || w.dead {
		return
	}
	w.dead = true
	if !connectionLost(err) { // a lost connection's unit of work is backed out by the queue manager
		w.r.setStop("MQBACK failed, so the batch in flight is in doubt and nothing more is committed on that connection", err)
	}
}
