package model

import (
	"hash/maphash"
	"sort"

	"github.com/poisonwatch/poisonwatch/mqwatch"
)

// Selection is a set of marked messages for a bulk action. It remembers the
// exact summaries the operator saw, because actions must act only on those:
// a message marked from an inventory is kept as that inventory version and
// its index (inventories are immutable, and versions share their chunks),
// so marking a million messages costs their identities, about 25 bytes
// each, not a million summaries (issue 31: 603 MiB before).
type Selection struct {
	seed maphash.Seed
	// live maps an identity's 32-bit hash to the sequence number of its
	// entry; twins holds the identities whose hash another marked one has
	// (about a hundred in a million), so membership stays exact.
	live  map[uint32]int32
	twins map[mqwatch.Key]int32
	// Entries in marking order: idx[seq] is an index in the inventory of
	// the run holding seq, or in singles for a run without one.
	idx     []int32
	runs    []markRun
	singles []mqwatch.Summary
	hashOf  func(mqwatch.Key) uint32 // nil: maphash; tests force collisions
}

// markRun is a stretch of entries marked from one inventory (nil: singles).
type markRun struct {
	start int32
	src   *mqwatch.Inventory
}

// NewSelection returns an empty selection.
func NewSelection() *Selection {
	return &Selection{seed: maphash.MakeSeed(), live: map[uint32]int32{}, twins: map[mqwatch.Key]int32{}}
}

// Toggle marks or unmarks a message and reports whether it is now marked.
func (s *Selection) Toggle(m mqwatch.Summary) bool {
	if s.remove(m.Key()) {
		return false
	}
	s.Mark(m)
	return true
}

// Mark adds a message, as the summary given.
func (s *Selection) Mark(m mqwatch.Summary) {
	if s.Marked(m.Key()) {
		return
	}
	s.singles = append(s.singles, m)
	s.add(m.Key(), nil, len(s.singles)-1)
}

// MarkAt adds the i-th message of inv, remembering it by inventory and
// index rather than by a copy of its summary.
func (s *Selection) MarkAt(inv *mqwatch.Inventory, i int) {
	k := inv.Key(i)
	if s.Marked(k) {
		return
	}
	s.add(k, inv, i)
}

func (s *Selection) add(k mqwatch.Key, src *mqwatch.Inventory, i int) {
	seq := int32(len(s.idx))
	if n := len(s.runs); n == 0 || s.runs[n-1].src != src {
		s.runs = append(s.runs, markRun{start: seq, src: src})
	}
	s.idx = append(s.idx, int32(i))
	h := s.hash(k)
	if _, taken := s.live[h]; taken {
		s.twins[k] = seq
		return
	}
	s.live[h] = seq
}

func (s *Selection) hash(k mqwatch.Key) uint32 {
	if s.hashOf != nil {
		return s.hashOf(k)
	}
	return uint32(maphash.Comparable(s.seed, k))
}

// keyAt and at return the identity and summary of entry seq.
func (s *Selection) keyAt(seq int32) mqwatch.Key {
	src, i := s.ref(seq)
	if src != nil {
		return src.Key(i)
	}
	return s.singles[i].Key()
}

func (s *Selection) at(seq int32) mqwatch.Summary {
	src, i := s.ref(seq)
	if src != nil {
		return *src.At(i)
	}
	return s.singles[i]
}

func (s *Selection) ref(seq int32) (*mqwatch.Inventory, int) {
	r := sort.Search(len(s.runs), func(j int) bool { return s.runs[j].start > seq }) - 1
	return s.runs[r].src, int(s.idx[seq])
}

// entry returns the live entry of k.
func (s *Selection) entry(k mqwatch.Key) (int32, bool) {
	if seq, ok := s.twins[k]; ok {
		return seq, true
	}
	seq, ok := s.live[s.hash(k)]
	if ok && s.keyAt(seq) == k {
		return seq, true
	}
	return 0, false
}

func (s *Selection) remove(k mqwatch.Key) bool {
	if _, ok := s.twins[k]; ok {
		delete(s.twins, k)
		return true
	}
	if _, ok := s.entry(k); !ok {
		return false
	}
	delete(s.live, s.hash(k))
	if dead := len(s.idx) - s.Len(); dead > 1024 && dead > s.Len() {
		s.compact()
	}
	return true
}

// compact drops the entries of unmarked messages.
func (s *Selection) compact() {
	old := *s
	*s = *NewSelection()
	s.seed, s.hashOf = old.seed, old.hashOf
	old.each(func(seq int32) {
		src, i := old.ref(seq)
		if src == nil {
			s.singles = append(s.singles, old.singles[i])
			i = len(s.singles) - 1
		}
		s.add(old.keyAt(seq), src, i)
	})
}

// each calls fn with every live entry in marking order.
func (s *Selection) each(fn func(seq int32)) {
	for seq := range int32(len(s.idx)) {
		if got, ok := s.entry(s.keyAt(seq)); ok && got == seq {
			fn(seq)
		}
	}
}

// Unmark removes a message, if marked.
func (s *Selection) Unmark(k mqwatch.Key) { s.remove(k) }

// Marked reports whether the message is marked.
func (s *Selection) Marked(k mqwatch.Key) bool { _, ok := s.entry(k); return ok }

// Len returns how many messages are marked.
func (s *Selection) Len() int { return len(s.live) + len(s.twins) }

// Clear unmarks everything.
func (s *Selection) Clear() {
	h := s.hashOf
	*s = *NewSelection()
	s.hashOf = h
}

// Items returns the marked summaries in the order they were marked.
func (s *Selection) Items() []mqwatch.Summary {
	out := make([]mqwatch.Summary, 0, s.Len())
	s.each(func(seq int32) { out = append(out, s.at(seq)) })
	return out
}

// Hidden counts marked messages that are not among visible: an action dialog
// must call them out, since the operator cannot see them under the filter.
func (s *Selection) Hidden(visible func(mqwatch.Key) bool) int {
	n := 0
	s.each(func(seq int32) {
		if !visible(s.keyAt(seq)) {
			n++
		}
	})
	return n
}
