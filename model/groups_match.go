package model

import "github.com/poisonwatch/poisonwatch/mqwatch"

// Matches reports whether a summary belongs to the group of dimension d.
func (g *Group) Matches(d Dim, s *mqwatch.Summary) bool { return keyFor(d, s) == g.Key }

// InGroup reports whether s belongs to the group k of dimension d. The
// common dimensions compare fields directly (cheapest field first): a group
// screen filters a 100k DEADQ with it on every poll.
func InGroup(d Dim, k GroupKey, s *mqwatch.Summary) bool {
	switch d {
	case DimReasonDest:
		return s.DLHReason == k.Reason && s.DLHDestQMgr == k.DestQMgr && inDest(s, k)
	case DimReason:
		return s.DLHReason == k.Reason
	case DimDest:
		return s.DLHDestQMgr == k.DestQMgr && inDest(s, k)
	}
	return keyFor(d, s) == k
}

// inDest compares a summary's requeue destination with a group's, parsing a
// JMS destination only for the rare message without an MQDLH.
func inDest(s *mqwatch.Summary, k GroupKey) bool {
	if s.HasDLH {
		return s.DLHDestQ == k.DestQ
	}
	return jmsQueueName(s.JMSDst) == k.DestQ
}

// KeyOf returns the group key of a summary along dimension d.
func KeyOf(d Dim, s *mqwatch.Summary) GroupKey { return keyFor(d, s) }
