package model

import (
	"github.com/poisonwatch/poisonwatch/actions/ops"
	"github.com/poisonwatch/poisonwatch/incident/journal"
)

// noteRun writes a run, and what its check found, to the state's journal
// as the engine does: the requeue-loop alert (R10f) reads it there.
func noteRun(s *State, qm string, res *ops.OpResult) {
	if s.Journal == nil {
		s.Journal = journal.New()
	}
	s.QMgr(qm).acts = s.Journal
	res.Plan.Request.QMgr = qm
	v := res.Verify
	if v == nil {
		return
	}
	ent := s.Journal.Append(ops.RunEntry(res, v.Started, "op", qm))
	s.Journal.Append(ops.CameBackEntry(v, ent, v.Started.Add(v.Within)))
}
