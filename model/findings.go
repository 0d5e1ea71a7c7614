package model

// Findings are the configuration findings (actions.Lint) of the last good
// poll, each with its MQSC fix when one is known: what a post-mortem lists
// to be fixed.
func (q *QMgrState) Findings() []Alert { return q.lint() }
