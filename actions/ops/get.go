package ops

import (
	"context"

	"github.com/poisonwatch/poisonwatch/codec/mqfmt"
	"github.com/poisonwatch/poisonwatch/mqwatch"
)

// getAll gets the originals of a batch under syncpoint, after their copies
// are in the unit of work, and returns those got. A cancellation does not
// interrupt it: the gets are the batch's last step before MQCMIT, and
// backing them out is what would raise the messages' BackoutCounts.
// Only another application removing a message, or putting one with the
// same identifiers in front of it, between the browse and the get makes
// this batch back out its gets (those messages then count one backout).
// What a get returns is compared with what was copied (identity and data):
// any other message backs the batch out, never a commit.
func (w *opWorker) getAll(ctx context.Context, got []opGot, resolved, cursor map[int]bool) ([]opGot, bool, bool) {
	r := w.r
	gctx := context.WithoutCancel(ctx)
	kept := reuse(w.keptBuf, len(got))
	defer func() { w.keptBuf = kept[:0] }()
	gone := 0
	for _, g := range got {
		m, err := w.getOne(gctx, &g)
		if rc := mqwatch.ReasonOf(err); rc == mqfmt.RCNoMsgAvailable || rc == mqfmt.RCNoMsgUnderCursor {
			skip := "gone, someone else removed it meanwhile (" + rc.String() + ")"
			resolved[g.idx] = true
			if r.req.Op == OpDiscard { // nothing of it is in the unit of work
				r.record([]int{g.idx}, Skipped, skip, rc, nil)
				gone++
				continue
			}
			w.abandonGot(ctx, kept) // its copy is: committing would duplicate it
			r.record([]int{g.idx}, Skipped, skip, rc, nil)
			return nil, true, false
		}
		if err != nil {
			w.abandon(ctx)
			r.stopFor("MQGET from "+r.req.Queue+" failed", err)
			return nil, false, false
		}
		if !sameMessage(&m, &g.msg) {
			// Not the message whose copy is in the unit of work: committing
			// would move one message's data under another's name. (m, got
			// too, is counted backed out by the queue manager.)
			w.abandonGot(ctx, kept)
			if !g.cursor {
				cursor[g.idx] = true
				return nil, true, false
			}
			r.record([]int{g.idx}, Skipped, "not the message shown (another message has its MsgId, CorrelId and group position, and the get returned it)", 0, nil) // after abandon's lines
			resolved[g.idx] = true
			return nil, true, false
		}
		kept = append(kept, g)
	}
	if gone > 0 && w.archived && len(kept) > 0 {
		if err := w.rearchive(kept); err != nil {
			w.abandon(ctx)
			r.setStop("nothing of the batch in flight was discarded: "+err.Error(), err)
			return nil, false, false
		}
	}
	return kept, false, true
}

// getOne gets a message by MsgId, CorrelId (a blank CorrelId is not
// matched: IBM treats MQCI_NONE as "any"), GroupId, MsgSeqNumber and Offset,
// or under the browse cursor when another message with the same selection
// comes first: browsed again, to the one with its identity and data.
func (w *opWorker) getOne(ctx context.Context, g *opGot) (mqwatch.Message, error) {
	id := &w.r.p.ids[g.idx] // the options point into the plan's, read only
	if g.cursor {
		_, _, ok, err := browseOccurrence(ctx, w.src, id, 0, func(m mqwatch.Message) bool { return sameMessage(&m, &g.msg) })
		if err != nil || !ok {
			if err == nil {
				err = mqwatch.NewError("MQGET", w.src.Name(), mqfmt.RCNoMsgAvailable)
			}
			return mqwatch.Message{}, err
		}
		return w.src.Get(ctx, mqwatch.GetOptions{Syncpoint: true, UnderCursor: true})
	}
	opts := mqwatch.GetOptions{Syncpoint: true, MsgId: &id.msgID, Segment: id.segment()}
	if id.correlID != ([24]byte{}) {
		opts.CorrelId = &id.correlID
	}
	return w.src.Get(ctx, opts)
}

// abandonGot backs the batch out after the gets of kept, whose
// BackoutCounts the queue manager raises for it: they are tried again each
// in a unit of work of its own (opWorker.batch).
func (w *opWorker) abandonGot(ctx context.Context, kept []opGot) {
	w.abandon(ctx)
	for _, g := range kept {
		w.raised[g.idx] = true
	}
}

// rearchive writes the batch to the archive again without the messages
// that were gone when it came to get them.
func (w *opWorker) rearchive(kept []opGot) error {
	a := w.r.archive
	if err := a.settle(false, 0); err != nil {
		return err
	}
	b, _, err := encodeGot(kept)
	if err != nil {
		return err
	}
	return a.write(b)
}
