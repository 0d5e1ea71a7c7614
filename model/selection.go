package model

import "github.com/poisonwatch/poisonwatch/mqwatch"

// Selection is a set of marked messages for a bulk action. It remembers the
// exact summaries the operator saw, because actions must act only on those.
type Selection struct {
	marked map[mqwatch.Key]mqwatch.Summary
	order  []mqwatch.Key
}

// NewSelection returns an empty selection.
func NewSelection() *Selection { return &Selection{marked: map[mqwatch.Key]mqwatch.Summary{}} }

// Toggle marks or unmarks a message and reports whether it is now marked.
func (s *Selection) Toggle(m mqwatch.Summary) bool {
	k := m.Key()
	if _, ok := s.marked[k]; ok {
		s.remove(k)
		return false
	}
	s.Mark(m)
	return true
}

// Mark adds a message.
func (s *Selection) Mark(m mqwatch.Summary) {
	k := m.Key()
	if _, ok := s.marked[k]; !ok {
		s.order = append(s.order, k)
	}
	s.marked[k] = m
}

func (s *Selection) remove(k mqwatch.Key) {
	delete(s.marked, k)
	for i, o := range s.order {
		if o == k {
			s.order = append(s.order[:i], s.order[i+1:]...)
			return
		}
	}
}

// Marked reports whether the message is marked.
func (s *Selection) Marked(k mqwatch.Key) bool { _, ok := s.marked[k]; return ok }

// Len returns how many messages are marked.
func (s *Selection) Len() int { return len(s.marked) }

// Clear unmarks everything.
func (s *Selection) Clear() { s.marked = map[mqwatch.Key]mqwatch.Summary{}; s.order = nil }

// Items returns the marked summaries in the order they were marked.
func (s *Selection) Items() []mqwatch.Summary {
	out := make([]mqwatch.Summary, 0, len(s.order))
	for _, k := range s.order {
		out = append(out, s.marked[k])
	}
	return out
}

// Hidden counts marked messages that are not among visible: an action dialog
// must call them out, since the operator cannot see them under the filter.
func (s *Selection) Hidden(visible func(mqwatch.Key) bool) int {
	n := 0
	for k := range s.marked {
		if !visible(k) {
			n++
		}
	}
	return n
}
