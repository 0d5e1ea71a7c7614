package ops

import (
	"context"
	"fmt"

	"github.com/poisonwatch/poisonwatch/codec/mqfmt"
	"github.com/poisonwatch/poisonwatch/mqwatch"
)

// SearchProgress is how far a body search has come.
type SearchProgress struct {
	Scanned int // messages browsed
	Matched int
	// ByteMatches counts the matches made on bytes (ByteMatch): bodies that
	// are not text in a CCSID this product reads, and hex patterns.
	ByteMatches int
	Depth       int // the queue's depth when the search started
	// Truncated counts bodies longer than the search reads (SearchBodyBytes):
	// only their first SearchBodyBytes were searched.
	Truncated int
}

// SearchBodyBytes bounds what a body search reads of one message.
const SearchBodyBytes = selectBodyBytes

// searchProgressEvery is how many messages pass between progress reports.
const searchProgressEvery = 500

// SearchBodies browses queue from the start and calls found with the
// summary of each message whose body holds p, and progress every few
// hundred messages; it keeps no body, so memory stays flat however deep the
// queue. It stops when ctx ends, returning how far it came.
func (e *Engine) SearchBodies(ctx context.Context, queue string, p *BodyPattern, progress func(SearchProgress), found func(mqwatch.Summary)) (SearchProgress, error) {
	sess, err := e.connect(ctx)
	if err != nil {
		return SearchProgress{}, fmt.Errorf("search %s: %w", queue, err)
	}
	defer sess.close()
	return SearchBodies(ctx, sess.conn, queue, p, progress, found)
}

// SearchBodies is Engine.SearchBodies on a connection of the caller's.
func SearchBodies(ctx context.Context, conn mqwatch.Conn, queue string, p *BodyPattern, progress func(SearchProgress), found func(mqwatch.Summary)) (SearchProgress, error) {
	var sp SearchProgress
	if st, err := conn.QueueStatus(ctx, queue); err == nil && len(st) == 1 {
		sp.Depth = int(st[0].Depth)
	}
	q, err := conn.Open(ctx, mqwatch.ObjectDesc{Name: queue}, mqwatch.OpenOptions{Browse: true})
	if err != nil {
		return sp, fmt.Errorf("search %s: %w", queue, err)
	}
	defer q.Close(context.WithoutCancel(ctx))
	sc := newScanner(q, SearchBodyBytes)
	for {
		if err := ctx.Err(); err != nil {
			return sp, err
		}
		m, ok, err := sc.next(ctx)
		if err != nil {
			return sp, fmt.Errorf("search %s: %w", queue, err)
		}
		if !ok {
			return sp, nil
		}
		sp.Scanned++
		if m.Truncated() {
			sp.Truncated++
		}
		s := mqwatch.Summarize(&m)
		if h := p.find(bodyOf(&m, &s), s.BodyCCSID, bodyEncoding(&m, &s), p.OnHit != nil); h.Kind != NoMatch {
			sp.Matched++
			if h.Kind == ByteMatch {
				sp.ByteMatches++
			}
			if p.OnHit != nil {
				p.OnHit(h)
			}
			found(s)
		}
		if progress != nil && sp.Scanned%searchProgressEvery == 0 {
			progress(sp)
		}
	}
}

// bodyEncoding is the Encoding of the data after the headers: the last
// header's, which the summary does not keep. Only UTF-16 text depends on it
// (its byte order), so only then is the chain walked again.
func bodyEncoding(m *mqwatch.Message, s *mqwatch.Summary) mqfmt.Encoding {
	if s.BodyOffset == 0 || (s.BodyCCSID != 1200 && s.BodyCCSID != 13488 && s.BodyCCSID != 17584) {
		return s.Encoding
	}
	ch, _ := mqfmt.WalkChain(m.MD.Format, m.MD.Encoding, m.MD.CodedCharSetId, m.Data)
	return ch.Body.Encoding
}
