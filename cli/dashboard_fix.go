package cli

import (
	"context"
	"sync"

	"github.com/poisonwatch/poisonwatch/actions"
	"github.com/poisonwatch/poisonwatch/actions/ops"
	"github.com/poisonwatch/poisonwatch/backend/embedded"
	"github.com/poisonwatch/poisonwatch/mqwatch"
	"github.com/poisonwatch/poisonwatch/ui"
)

var _ ui.FixOps = (*engineOps)(nil)

// cmdServers starts the embedded queue managers' command servers the first
// time a fix needs one, as an administrator runs strmqcsv: the demo's queue
// managers are not polled through PCF, so nothing else needs them.
var cmdServers struct {
	sync.Mutex
	started map[*embedded.QMgr]bool
}

func (o *engineOps) commandServer(qmgr string) error {
	qm := embeddedOf(o.conns[qmgr])
	if qm == nil {
		return nil // IBM MQ: its command server is the queue manager's own
	}
	cmdServers.Lock()
	defer cmdServers.Unlock()
	if cmdServers.started[qm] {
		return nil
	}
	if _, err := qm.StartCommandServer(); err != nil {
		return err
	}
	if cmdServers.started == nil {
		cmdServers.started = map[*embedded.QMgr]bool{}
	}
	cmdServers.started[qm] = true
	return nil
}

// changeEngine is qmgr's engine with its command server running: every
// change (and its dry run) goes through the command server.
func (o *engineOps) changeEngine(qmgr string) (*ops.Engine, error) {
	e, err := o.engine(qmgr)
	if err == nil {
		err = o.commandServer(qmgr)
	}
	return e, err
}

// ApplyFix applies an alert's fix through the queue manager's command
// server (R10h).
func (o *engineOps) ApplyFix(ctx context.Context, qmgr string, p actions.FixPlan, user string) (ops.FixResult, error) {
	e, err := o.changeEngine(qmgr)
	if err != nil {
		return ops.FixResult{Plan: p}, err
	}
	return e.ApplyFix(ctx, p, user, false)
}

// SetInhibit sets GET or PUT of a queue through the command server (R10h).
func (o *engineOps) SetInhibit(ctx context.Context, qmgr string, q mqwatch.QueueInfo, attr string, disable bool, user string) (ops.FixResult, error) {
	e, err := o.changeEngine(qmgr)
	if err != nil {
		return ops.FixResult{}, err
	}
	return e.SetInhibit(ctx, q, qmgr, attr, disable, user)
}

var _ ui.FixPlanner = (*engineOps)(nil)

// PlanFix is the change gate's dry run of a fix (R10h): the objects read
// again and each step's answer predicted; nothing is sent.
func (o *engineOps) PlanFix(ctx context.Context, qmgr string, p actions.FixPlan, user string) (ops.FixResult, error) {
	e, err := o.changeEngine(qmgr)
	if err != nil {
		return ops.FixResult{Plan: p}, err
	}
	return e.ApplyFix(ctx, p, user, true)
}
