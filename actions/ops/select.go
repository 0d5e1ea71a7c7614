package ops

import (
	"bytes"
	"context"
	"fmt"
	"math"
	"slices"
	"strings"
	"time"

	"github.com/poisonwatch/poisonwatch/codec/mqfmt"
	"github.com/poisonwatch/poisonwatch/mqwatch"
)

// Browse sizes while selecting: enough for the header chain (MQDLH, MQRFH2
// with its folders) and the body prefix a summary keeps, or, when a filter
// looks into bodies, this much of each body.
const (
	selectHeaderBytes = 8 << 10
	selectBodyBytes   = 1 << 20
)

// msgIdentity is what makes a message the one the operator saw: MsgId and
// CorrelId are not unique in IBM MQ (applications may set them), so the put
// time, which a move with passed context keeps, is part of it.
type msgIdentity struct {
	msgID, correlID [24]byte
	put             int64 // UnixNano of PutDate/PutTime; math.MinInt64 when not valid
	// pos tells apart the messages of a group and the segments of a
	// message, which may share a MsgId (GroupId, MsgSeqNumber, Offset,
	// MsgFlags; see identity.go).
	pos mqwatch.GroupPos
}

func identityOf(s *mqwatch.Summary) msgIdentity {
	return msgIdentity{msgID: s.MsgId, correlID: s.CorrelId, put: putNanos(s.PutTime), pos: posOf(s.Group)}
}

func identityOfMD(md *mqfmt.MQMD) msgIdentity {
	t := mqfmt.PutTimeOf(md.PutDate, md.PutTime)
	return msgIdentity{msgID: md.MsgId, correlID: md.CorrelId, put: putNanos(t), pos: posOf(mqwatch.GroupPosOf(md))}
}

func putNanos(t time.Time) int64 {
	if t.IsZero() {
		return math.MinInt64
	}
	return t.UnixNano()
}

// matches reports whether a message passes every set criterion. body is the
// message data after its headers as far as it was read (a summary's bounded
// prefix when nothing more is known).
func (f *Filter) matches(s *mqwatch.Summary, body []byte, now time.Time) bool {
	if f == nil {
		return true
	}
	if len(f.MsgIds) > 0 && !slices.Contains(f.MsgIds, s.MsgId) {
		return false
	}
	if f.Reason != 0 && (!s.HasDLH || s.DLHReason != f.Reason) {
		return false
	}
	if f.DestQ != "" && !f.destMatches(s) {
		return false
	}
	if f.MinAge > 0 && (s.PutTime.IsZero() || now.Sub(s.PutTime) < f.MinAge) {
		return false
	}
	if f.MinBackout > 0 && s.BackoutCount < f.MinBackout {
		return false
	}
	if f.PutAppl != "" && !containsFold(s.PutApplName, f.PutAppl) && !containsFold(s.DLHPutAppl, f.PutAppl) {
		return false
	}
	if f.Format != "" && !strings.EqualFold(s.Format, f.Format) && !strings.EqualFold(s.BodyFormat, f.Format) {
		return false
	}
	if f.BodyContains != "" && !bodyContains(body, s, f.BodyContains) {
		return false
	}
	return true
}

// destMatches compares the destination pattern (MQSC generic or glob) with
// the MQDLH DestQName and the queue of the JMS destination.
func (f *Filter) destMatches(s *mqwatch.Summary) bool {
	if s.HasDLH && mqwatch.MatchName(f.DestQ, s.DLHDestQ) {
		return true
	}
	if s.JMSDst != "" {
		if d, err := mqfmt.ParseDestination(s.JMSDst); err == nil && !d.Topic && mqwatch.MatchName(f.DestQ, d.Name) {
			return true
		}
	}
	return false
}

func containsFold(s, sub string) bool {
	return strings.Contains(strings.ToLower(s), strings.ToLower(sub))
}

// bodyContains looks for text as the body reads in its CCSID (hex:…
// searches bytes), the one matcher ctrl+f uses too (search.go): ASCII
// bytes inside an EBCDIC body are not the text typed. The Encoding is the
// MQMD's, which the headers before the body keep in all but rare chains.
func bodyContains(body []byte, s *mqwatch.Summary, text string) bool {
	p, err := ParseBodyPattern(text)
	if err != nil {
		return bytes.Contains(body, []byte(text))
	}
	return p.Match(body, s.BodyCCSID, s.Encoding)
}

// browseSelection reads the source queue once and keeps the summaries of the
// messages the filter selects (all when f is nil), in queue order, up to
// limit; more says that further messages matched.
func browseSelection(ctx context.Context, conn mqwatch.Conn, queue string, f *Filter, limit int, now time.Time) (sel []mqwatch.Summary, more bool, err error) {
	q, err := conn.Open(ctx, mqwatch.ObjectDesc{Name: queue}, mqwatch.OpenOptions{Browse: true})
	if err != nil {
		return nil, false, fmt.Errorf("select from %s: %w", queue, err)
	}
	defer q.Close(context.WithoutCancel(ctx))
	maxBytes := selectHeaderBytes
	if f != nil && f.BodyContains != "" {
		maxBytes = selectBodyBytes
	}
	sc := newScanner(q, maxBytes)
	for {
		m, ok, err := sc.next(ctx)
		if err != nil {
			return sel, false, fmt.Errorf("select from %s: %w", queue, err)
		}
		if !ok {
			return sel, false, nil
		}
		s := mqwatch.Summarize(&m)
		if !f.matches(&s, bodyOf(&m, &s), now) {
			continue
		}
		if len(sel) == limit {
			return sel, true, nil
		}
		sel = append(sel, s)
	}
}

// bodyOf returns the data after the headers that were read.
func bodyOf(m *mqwatch.Message, s *mqwatch.Summary) []byte {
	if s.BodyOffset < 0 || s.BodyOffset > len(m.Data) {
		return nil
	}
	return m.Data[s.BodyOffset:]
}

// opScanner walks a queue with a browse cursor.
type opScanner struct {
	q        mqwatch.Queue
	maxBytes int
	started  bool
}

func newScanner(q mqwatch.Queue, maxBytes int) *opScanner {
	return &opScanner{q: q, maxBytes: maxBytes}
}

// next browses the next message; ok is false at the end of the queue.
func (s *opScanner) next(ctx context.Context) (m mqwatch.Message, ok bool, err error) {
	m, err = s.q.Browse(ctx, mqwatch.BrowseOptions{First: !s.started, MaxBytes: s.maxBytes})
	if mqwatch.IsReason(err, mqfmt.RCNoMsgAvailable) {
		return m, false, nil
	}
	if err != nil {
		return m, false, err
	}
	s.started = true
	return m, true, nil
}

// browseExact browses for the nth (0-based) message with an identity whose
// body starts as the summary's, as a run finds it (identity.go): MsgId and
// CorrelId are matched in the queue manager (MQMO_MATCH_MSG_ID and, unless
// it is blank, which IBM treats as "any", MQMO_MATCH_CORREL_ID), the put
// time and the body here. maxBytes 0 reads it whole. ok is false when there
// is no such message.
func browseExact(ctx context.Context, q mqwatch.Queue, sum *mqwatch.Summary, nth, maxBytes int) (mqwatch.Message, bool, error) {
	id := identityOf(sum)
	opts := mqwatch.BrowseOptions{First: true, MsgId: &id.msgID, Segment: id.segment(), MaxBytes: maxBytes}
	if id.correlID != ([24]byte{}) {
		opts.CorrelId = &id.correlID
	}
	for {
		m, err := q.Browse(ctx, opts)
		if mqwatch.IsReason(err, mqfmt.RCNoMsgAvailable) {
			return m, false, nil
		}
		if err != nil {
			return m, false, err
		}
		opts.First = false
		if identityOfMD(&m.MD) != id || !bodyStarts(&m, sum) {
			continue
		}
		if nth == 0 {
			return m, true, nil
		}
		nth--
	}
}

// goneSkip is why a listed message is not planned: it left the queue after
// the list it was chosen from was read.
const goneSkip = "gone: no longer on the queue (removed since it was listed)"

// markGone browses for each listed message by its identity and the body
// shown (the nth listed of identical ones is the nth on the queue), so a dry run
// never counts a message that has already left the queue. When the queue
// cannot be browsed the plan says so instead of guessing.
func markGone(ctx context.Context, conn mqwatch.Conn, queue string, sel []selected) (warning string) {
	q, err := conn.Open(ctx, mqwatch.ObjectDesc{Name: queue}, mqwatch.OpenOptions{Browse: true})
	if err != nil {
		return fmt.Sprintf("could not check that the listed messages are still on %s: %v", queue, err)
	}
	defer q.Close(context.WithoutCancel(ctx))
	seen := map[bodyKey]int{}
	for i := range sel {
		s := sel[i].sum
		k := bodyKey{identityOf(s), string(s.BodyPrefix)}
		// The headers and the body prefix are enough to tell twins apart.
		_, ok, err := browseExact(ctx, q, s, seen[k], max(1, s.BodyOffset+len(s.BodyPrefix)))
		if err != nil {
			return fmt.Sprintf("could not check that the listed messages are still on %s: %v", queue, err)
		}
		seen[k]++
		sel[i].gone = !ok
	}
	return ""
}
