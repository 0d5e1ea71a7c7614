package ops

import (
	"bytes"
	"context"
	"encoding/hex"
	"fmt"
	"strings"
	"sync"

	"github.com/poisonwatch/poisonwatch/internal/bodyedit"
	"github.com/poisonwatch/poisonwatch/mqwatch"
	"github.com/poisonwatch/poisonwatch/mqwatch/mqfmt"
)

// BodyPattern is what a body search looks for: text, matched in the body's
// bytes and as characters of its CCSID (so an EBCDIC or UTF-16 body matches
// what the operator types), or exact bytes given in hex.
type BodyPattern struct {
	Text  string
	Bytes []byte // set for a hex pattern: Text is then ""

	mu      sync.Mutex
	encoded map[int32][]byte // Text in each CCSID met; nil when it cannot be written
}

// ParseBodyPattern reads a search: "hex:" or "0x" followed by hex digits
// (spaces allowed) is a byte pattern; anything else is text.
func ParseBodyPattern(s string) (*BodyPattern, error) {
	for _, pfx := range []string{"hex:", "0x", "0X"} {
		if rest, ok := strings.CutPrefix(s, pfx); ok {
			b, err := hex.DecodeString(strings.ReplaceAll(rest, " ", ""))
			if err != nil || len(b) == 0 {
				return nil, fmt.Errorf("hex pattern %q: want pairs of hexadecimal digits after %s", mqfmt.Sanitize(s), pfx)
			}
			return &BodyPattern{Bytes: b}, nil
		}
	}
	if s == "" {
		return nil, fmt.Errorf("empty search")
	}
	return &BodyPattern{Text: s}, nil
}

// String is the pattern as typed.
func (p *BodyPattern) String() string {
	if p.Bytes != nil {
		return "hex:" + strings.ToUpper(hex.EncodeToString(p.Bytes))
	}
	return p.Text
}

// Match reports whether body (the data after the headers, in ccsid)
// holds the pattern. Text is looked for as bytes, then written in the
// body's CCSID and looked for again, and only for a CCSID it cannot be
// written in is the body decoded: most bodies are never decoded.
func (p *BodyPattern) Match(body []byte, ccsid int32, enc mqfmt.Encoding) bool {
	if p.Bytes != nil {
		return bytes.Contains(body, p.Bytes)
	}
	if bytes.Contains(body, []byte(p.Text)) {
		return true
	}
	if enc16 := utf16CCSID(ccsid); !enc16 {
		if b, ok := p.inCCSID(ccsid); ok {
			return b != nil && bytes.Contains(body, b)
		}
	}
	s, _ := mqfmt.DecodeTextEnc(body, ccsid, enc)
	return s != "" && strings.Contains(s, p.Text)
}

// inCCSID is Text written in a single-byte CCSID (nil when a character
// has no byte there); ok is false when the CCSID cannot be written.
func (p *BodyPattern) inCCSID(ccsid int32) (b []byte, ok bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if b, ok := p.encoded[ccsid]; ok {
		return b, true
	}
	b, err := bodyedit.Encode(p.Text, ccsid, mqfmt.EncodingNormal)
	if err != nil && !isPosError(err) {
		return nil, false
	}
	if p.encoded == nil {
		p.encoded = map[int32][]byte{}
	}
	p.encoded[ccsid] = b
	return b, true
}

func isPosError(err error) bool {
	_, ok := err.(*bodyedit.PosError)
	return ok
}

func utf16CCSID(c int32) bool { return c == 1200 || c == 1202 || c == 13488 || c == 17584 }

// SearchProgress is how far a body search has come.
type SearchProgress struct {
	Scanned int // messages browsed
	Matched int
	Depth   int // the queue's depth when the search started
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
		if p.Match(bodyOf(&m, &s), s.BodyCCSID, s.Encoding) {
			sp.Matched++
			found(s)
		}
		if progress != nil && sp.Scanned%searchProgressEvery == 0 {
			progress(sp)
		}
	}
}
