package embedded

import (
	"time"

	"github.com/poisonwatch/poisonwatch/codec/mqfmt"
)

// msgState is where a message stands with respect to units of work.
type msgState uint8

const (
	stVisible    msgState = iota // committed, available to get and browse
	stPutPending                 // put under syncpoint, not committed
	stLocked                     // got under syncpoint, not committed
	stRemoved                    // gone; linked only while a cursor is pinned on it
)

// message is one message on a local queue. Messages stay in place for their
// whole life: a get under syncpoint locks a message where it is and a backout
// unlocks it, so it returns to exactly its old position without a search.
type message struct {
	md       mqfmt.MQMD
	data     []byte
	prio     int // list index: MQMD priority, or 0 on a MSGDLVSQ(FIFO) queue
	seq      uint64
	enq      time.Time // when the queue manager accepted it (MSGAGE)
	expireAt time.Time // zero = never expires
	state    msgState
	owner    *uow
	marks    []*handle // handles that browsed it with a mark

	prev, next     *message // queue order within its priority list
	idPrev, idNext *message // other messages with the same MsgId
	pins           int32    // cursors positioned on it
	linked         bool
}

// before reports whether a comes before b in delivery order: higher priority
// first, then first in, first out.
func (a *message) before(b *message) bool {
	if a.prio != b.prio {
		return a.prio > b.prio
	}
	return a.seq < b.seq
}

func (m *message) markedBy(h *handle) bool {
	for _, x := range m.marks {
		if x == h {
			return true
		}
	}
	return false
}

// store holds a local queue's messages: ten priority lists (delivery order is
// list 9 head to list 0 tail) and an index by MsgId, so a get by MsgId and a
// browse-next cost O(1) whatever the depth.
type store struct {
	heads, tails [10]*message
	byID         map[[24]byte]*message
	idHigh       int // most MsgIds byID has held since it was last made
	depth        int // CURDEPTH: visible and put-pending messages
	uncommitted  int // UNCOM: put-pending and locked messages
}

func newStore() *store { return &store{byID: map[[24]byte]*message{}} }

func (s *store) add(m *message) {
	p := m.prio
	m.prev, m.next = s.tails[p], nil
	if s.tails[p] != nil {
		s.tails[p].next = m
	} else {
		s.heads[p] = m
	}
	s.tails[p] = m
	m.linked = true
	if first := s.byID[m.md.MsgId]; first != nil {
		// Keep duplicates in arrival order after the first.
		last := first
		for last.idNext != nil {
			last = last.idNext
		}
		last.idNext, m.idPrev = m, last
	} else {
		s.byID[m.md.MsgId] = m
		s.idHigh = max(s.idHigh, len(s.byID))
	}
	s.depth++
	if m.state == stPutPending {
		s.uncommitted++
	}
}

// remove takes m off the queue for good. It stays linked as a tombstone while
// a cursor is pinned on it, so that browse-next from that cursor still knows
// where it was.
func (s *store) remove(m *message) {
	switch m.state {
	case stRemoved:
		return
	case stVisible:
		s.depth--
	case stPutPending:
		s.depth--
		s.uncommitted--
	case stLocked:
		s.uncommitted--
	}
	m.state, m.owner, m.marks = stRemoved, nil, nil
	s.unindex(m)
	if m.pins == 0 {
		s.unlink(m)
	}
}

func (s *store) unindex(m *message) {
	if m.idPrev != nil {
		m.idPrev.idNext = m.idNext
	} else if s.byID[m.md.MsgId] == m {
		if m.idNext != nil {
			s.byID[m.md.MsgId] = m.idNext
		} else {
			delete(s.byID, m.md.MsgId)
			s.shrinkIndex()
		}
	}
	if m.idNext != nil {
		m.idNext.idPrev = m.idPrev
	}
	m.idPrev, m.idNext = nil, nil
}

// shrinkIndex makes byID again once a queue has drained to a quarter of
// the most it held: a Go map keeps its buckets for the most it ever held, so
// a million-message queue that drains would otherwise keep tens of MiB for
// messages that are gone. Each rebuild copies at most a quarter of what was
// deleted since the last, so a delete stays O(1) amortised.
func (s *store) shrinkIndex() {
	const minShrink = 4096 // small queues keep their map
	if s.idHigh < minShrink || len(s.byID) > s.idHigh/4 {
		return
	}
	ids := make(map[[24]byte]*message, len(s.byID))
	for k, v := range s.byID {
		ids[k] = v
	}
	s.byID, s.idHigh = ids, len(ids)
}

func (s *store) unlink(m *message) {
	if !m.linked {
		return
	}
	p := m.prio
	if m.prev != nil {
		m.prev.next = m.next
	} else {
		s.heads[p] = m.next
	}
	if m.next != nil {
		m.next.prev = m.prev
	} else {
		s.tails[p] = m.prev
	}
	m.linked = false
	m.data = nil
}

// pin and unpin keep a cursor's message linked while the cursor is on it.
func (s *store) pin(m *message) {
	if m != nil {
		m.pins++
	}
}

func (s *store) unpin(m *message) {
	if m == nil {
		return
	}
	m.pins--
	if m.pins == 0 && m.state == stRemoved {
		s.unlink(m)
	}
}

// first returns the first linked message in delivery order, of any state.
func (s *store) first() *message { return s.headFrom(9) }

func (s *store) headFrom(p int) *message {
	for ; p >= 0; p-- {
		if s.heads[p] != nil {
			return s.heads[p]
		}
	}
	return nil
}

// after returns the linked message following m in delivery order. m must be
// linked (pinned cursors guarantee it).
func (s *store) after(m *message) *message {
	if m.next != nil {
		return m.next
	}
	return s.headFrom(m.prio - 1)
}

// oldest returns the earliest-accepted message counted in CURDEPTH or locked,
// for MSGAGE; heads of the priority lists hold the oldest of each priority.
func (s *store) oldest() *message {
	var best *message
	for p := range s.heads {
		for m := s.heads[p]; m != nil; m = m.next {
			if m.state == stRemoved {
				continue
			}
			if best == nil || m.enq.Before(best.enq) {
				best = m
			}
			break
		}
	}
	return best
}

// lock takes m for a unit of work: it no longer counts in CURDEPTH and no one
// else sees it; marks go, as a destructive get unmarks a message.
func (s *store) lock(m *message, u *uow) {
	m.state, m.owner, m.marks = stLocked, u, nil
	s.depth--
	s.uncommitted++
}
