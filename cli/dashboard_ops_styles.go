package cli

import (
	"github.com/poisonwatch/poisonwatch/actions"
	"github.com/poisonwatch/poisonwatch/demo"
)

// useStyles gives each queue manager's engine the consumer styles the
// dashboard knows, so a dry run follows a requeued message through the
// consumer that really reads it (R10f).
func (o *engineOps) useStyles(styles map[string]map[string]actions.Style) {
	for qm, e := range o.engines {
		e.SetConsumerStyles(styles[qm])
	}
}

// scenarioStyles are the consumer styles of one queue manager of a
// scenario, by the queue each consumer reads.
func scenarioStyles(s *demo.Scenario, qmgr string) map[string]actions.Style {
	out := map[string]actions.Style{}
	for _, c := range s.Consumers {
		if st, err := actions.ParseStyle(c.Style); err == nil && c.Queue != "" && c.QMgr == qmgr {
			out[c.Queue] = st
		}
	}
	return out
}
