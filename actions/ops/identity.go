package ops

import (
	"bytes"
	"context"
	"encoding/binary"
	"hash/maphash"

	"github.com/poisonwatch/poisonwatch/codec/mqfmt"
	"github.com/poisonwatch/poisonwatch/mqwatch"
)

// Messages may share a MsgId and CorrelId: the segments of one logical
// message (IBM lets them differ only in GroupId, MsgSeqNumber, Offset and
// MsgFlags), the messages of a group, and twins a sender put twice, which
// may even share their put time and differ only in their data. A move must
// copy and get each one exactly, never "the first one twice":
//   - the identity compared here holds MsgId, CorrelId, put time and the
//     group position (msgIdentity.pos);
//   - the queue manager selects by all it can match (MQMO_MATCH_MSG_ID,
//     CORREL_ID, GROUP_ID, MSG_SEQ_NUMBER, OFFSET);
//   - among messages equal in all of that, the nth item of the plan is the
//     nth such message in queue order whose body begins as the listed one's;
//   - a get that would not return the very message browsed (another with the
//     same selection comes first) is made under the browse cursor, and what
//     a get returns is compared, MQMD identity and data, with what was
//     copied: anything else backs the batch out.

// posOf is a message's group position, the default one outside any group.
func posOf(g *mqwatch.GroupPos) mqwatch.GroupPos {
	if g == nil {
		return mqwatch.GroupPos{MsgSeqNumber: 1}
	}
	return *g
}

// segment is what the queue manager can match beyond MsgId and CorrelId.
func (id msgIdentity) segment() *mqwatch.SegmentMatch {
	return &mqwatch.SegmentMatch{GroupId: id.pos.GroupId, MsgSeqNumber: id.pos.MsgSeqNumber, Offset: id.pos.Offset}
}

// getKey is what a get selects by: messages equal in it are returned in
// queue order.
type getKey struct {
	msgID, correlID, groupID [24]byte
	seq, offset              int32
}

func (id msgIdentity) getKey() getKey {
	return getKey{id.msgID, id.correlID, id.pos.GroupId, id.pos.MsgSeqNumber, id.pos.Offset}
}

// bodyKey is an item's identity with the start of its body as listed:
// occurrences are counted among messages equal in both.
type bodyKey struct {
	id   msgIdentity
	body string
}

// occurrences numbers each planned item among the planned items before it
// with the same identity and listed body start, and returns the identities
// that more than one item has, whatever their bodies (batchesOf keeps those
// in one batch: twins committed by different workers would reach the target
// in whichever order the workers finish). A first pass counts 64-bit hashes
// of the identities, so a run of a million messages keeps a small map, not a
// million keys; only identities whose hash is seen twice are compared
// exactly, and only their items are numbered by body.
func (r *opRun) occurrences() ([]int, map[msgIdentity]bool) {
	nth := make([]int, len(r.items))
	seed := maphash.MakeSeed()
	hashes := map[uint64]uint8{}
	for i := range r.items {
		if r.items[i].planned() {
			h := r.idHash(seed, i)
			hashes[h] = min(hashes[h]+1, 2)
		}
	}
	var twins []int
	seenID := map[msgIdentity]bool{}
	dups := map[msgIdentity]bool{}
	for i := range r.items {
		if !r.items[i].planned() || hashes[r.idHash(seed, i)] < 2 {
			continue
		}
		id := r.p.ids[i]
		dups[id] = dups[id] || seenID[id]
		seenID[id] = true
		twins = append(twins, i)
	}
	seen := map[bodyKey]int{}
	for _, i := range twins {
		if k := (bodyKey{r.p.ids[i], string(r.items[i].Msg.BodyPrefix)}); dups[k.id] {
			nth[i] = seen[k]
			seen[k]++
		}
	}
	return nth, dups
}

// idHash hashes item i's identity.
func (r *opRun) idHash(seed maphash.Seed, i int) uint64 {
	var h maphash.Hash
	h.SetSeed(seed)
	id := &r.p.ids[i]
	_, _ = h.Write(id.msgID[:])
	_, _ = h.Write(id.correlID[:])
	_, _ = h.Write(id.pos.GroupId[:])
	var b [20]byte
	binary.LittleEndian.PutUint64(b[:], uint64(id.put))
	binary.LittleEndian.PutUint32(b[8:], uint32(id.pos.MsgSeqNumber))
	binary.LittleEndian.PutUint32(b[12:], uint32(id.pos.Offset))
	binary.LittleEndian.PutUint32(b[16:], uint32(id.pos.MsgFlags))
	_, _ = h.Write(b[:])
	return h.Sum64()
}

// bodyStarts reports whether m's body (after the headers the summary
// measured) begins as the summary's prefix; true when the summary has none.
func bodyStarts(m *mqwatch.Message, s *mqwatch.Summary) bool {
	if len(s.BodyPrefix) == 0 {
		return true
	}
	off := s.BodyOffset
	if off < 0 || off > len(m.Data) {
		return false
	}
	return bytes.HasPrefix(m.Data[off:], s.BodyPrefix)
}

// browseOccurrence browses for the nth message (0-based, queue order) with
// identity id whose body want accepts (nil: any), leaving the browse cursor
// on it. before counts the messages the same get selection returns ahead of
// it: a get by identifiers takes it only when those are got first. want
// takes the message by value: a pointer to m would put m on the heap for
// every message browsed. id is the plan's, read only: the options point
// into it.
func browseOccurrence(ctx context.Context, q mqwatch.Queue, id *msgIdentity, nth int, want func(mqwatch.Message) bool) (m mqwatch.Message, before int, ok bool, err error) {
	opts := mqwatch.BrowseOptions{First: true, MsgId: &id.msgID, Segment: id.segment()}
	if id.correlID != ([24]byte{}) {
		opts.CorrelId = &id.correlID
	}
	for ; ; before++ {
		m, err = q.Browse(ctx, opts)
		if mqwatch.IsReason(err, mqfmt.RCNoMsgAvailable) {
			return m, before, false, nil
		}
		if err != nil {
			return m, before, false, err
		}
		opts.First = false
		if identityOfMD(&m.MD) != *id || (want != nil && !want(m)) {
			continue
		}
		if nth == 0 {
			return m, before, true, nil
		}
		nth--
	}
}

// sameMessage reports whether a got message is the one whose copy was put:
// the same identity and the same data.
func sameMessage(got, browsed *mqwatch.Message) bool {
	return identityOfMD(&got.MD) == identityOfMD(&browsed.MD) && bytes.Equal(got.Data, browsed.Data)
}

// batchesOf cuts the planned messages into batches of size, keeping every
// message of an identity that several items share (dups), and every message
// of a group or segmented message, in the batch of its first one (a batch may
// grow past size for them): twins and their occurrence numbers are settled
// in one unit of work, never split between workers, and a group arrives
// whole and in order.
func batchesOf(idxs []int, size int, ids []msgIdentity, dups map[msgIdentity]bool) [][]int {
	var out [][]int
	home := map[msgIdentity]int{} // only for dups and groups: small
	var cur []int
	flush := func() {
		if len(cur) > 0 {
			out = append(out, cur)
			cur = nil
		}
	}
	for _, i := range idxs {
		id := ids[i]
		if g := id.pos.GroupId; g != ([24]byte{}) {
			id = msgIdentity{pos: mqwatch.GroupPos{GroupId: g}}
		} else if !dups[id] {
			cur = append(cur, i)
			if len(cur) >= size {
				flush()
			}
			continue
		}
		if b, ok := home[id]; ok && b < len(out) {
			out[b] = append(out[b], i)
			continue
		}
		if _, ok := home[id]; !ok {
			home[id] = len(out)
		}
		cur = append(cur, i)
		if len(cur) >= size {
			flush()
		}
	}
	flush()
	return out
}
