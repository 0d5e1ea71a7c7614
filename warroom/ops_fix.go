package warroom

import (
	"context"
	"errors"
	"fmt"

	"github.com/poisonwatch/poisonwatch/actions"
	"github.com/poisonwatch/poisonwatch/actions/ops"
	"github.com/poisonwatch/poisonwatch/mqwatch"
	"github.com/poisonwatch/poisonwatch/ui"
)

var _ ui.FixOps = (*SessionOps)(nil)

// errNoFixes: the engines behind the room cannot apply fixes.
var errNoFixes = errors.New("this server's engines do not apply fixes")

// ApplyFix applies an alert's fix for an operator (R10h): viewers are
// refused here whatever their screen offers; the fix takes the lock of the
// queue it changes first and is announced to the room.
func (o *SessionOps) ApplyFix(ctx context.Context, qmgr string, p actions.FixPlan, _ string) (ops.FixResult, error) {
	fx, ok := o.Engines.(ui.FixOps)
	if !ok {
		return ops.FixResult{Plan: p}, errNoFixes
	}
	queue := ""
	if len(p.Steps) > 0 {
		queue = p.Steps[len(p.Steps)-1].Change.Queue
	}
	res, err := o.changing(qmgr, queue, "fix "+p.ID, func(user string) (ops.FixResult, error) {
		return fx.ApplyFix(ctx, qmgr, p, user)
	})
	if res.Plan.ID == "" {
		res.Plan = p
	}
	return res, err
}

// SetInhibit is I for an operator: GET(DISABLED)/GET(ENABLED), refused to
// viewers, under the queue's lock, announced.
func (o *SessionOps) SetInhibit(ctx context.Context, qmgr string, q mqwatch.QueueInfo, attr string, disable bool, _ string) (ops.FixResult, error) {
	fx, ok := o.Engines.(ui.FixOps)
	if !ok {
		return ops.FixResult{}, errNoFixes
	}
	what := attr + "(ENABLED)"
	if disable {
		what = attr + "(DISABLED)"
	}
	return o.changing(qmgr, q.Name, what+" on "+q.Name, func(user string) (ops.FixResult, error) {
		return fx.SetInhibit(ctx, qmgr, q, attr, disable, user)
	})
}

// changing runs a change to queue as the session's operator; what it sent
// goes to everyone's audit view.
func (o *SessionOps) changing(qmgr, queue, what string, do func(user string) (ops.FixResult, error)) (ops.FixResult, error) {
	req := ops.OpRequest{QMgr: qmgr, Queue: queue}
	if err := o.allowed(&req); err != nil {
		return ops.FixResult{}, err
	}
	who := o.Seat.Who()
	if err := o.Locks.acquire(req, who); err != nil {
		return ops.FixResult{}, err
	}
	defer o.Locks.release(req)
	res, err := do(req.User)
	if res.Entry == 0 && err != nil {
		// Nothing reached the queue manager, so the journal has no word of
		// it (what did is told by the journal: Room.Tell).
		o.Seat.room.Announce(o.Seat.ID(), fmt.Sprintf("%s: %s on %s failed: %s", who.User, what, qmgr, ops.DescribeReason(err)), nil)
	}
	return res, err
}

var _ ui.FixPlanner = (*SessionOps)(nil)

// PlanFix is the change gate's dry run for an operator; it sends nothing,
// takes no lock and tells the room nothing.
func (o *SessionOps) PlanFix(ctx context.Context, qmgr string, p actions.FixPlan, _ string) (ops.FixResult, error) {
	fx, ok := o.Engines.(ui.FixPlanner)
	if !ok {
		return ops.FixResult{Plan: p}, errNoFixes
	}
	req := ops.OpRequest{QMgr: qmgr, DryRun: true}
	if err := o.allowed(&req); err != nil {
		return ops.FixResult{Plan: p}, err
	}
	return fx.PlanFix(ctx, qmgr, p, req.User)
}
