package cli

import (
	"context"
	"errors"

	"github.com/poisonwatch/poisonwatch/actions"
	"github.com/poisonwatch/poisonwatch/actions/ops"
	"github.com/poisonwatch/poisonwatch/mqwatch"
	"github.com/poisonwatch/poisonwatch/ui"
)

// The dashboard offers fixes (x, I, ctrl+n), edit and resend (e) and body
// search (ctrl+f) only when its Operations have them; recordedOps embeds
// the ui.Operations interface, which alone would hide them while a
// recording runs (serve records by default). These pass them through.

var _ ui.FixOps = recordedOps{}

// errNotOffered: the engines behind the recording lack the operation.
var errNotOffered = errors.New("these engines do not offer this operation")

func (o recordedOps) ApplyFix(ctx context.Context, qmgr string, p actions.FixPlan, user string) (ops.FixResult, error) {
	fx, ok := o.Operations.(ui.FixOps)
	if !ok {
		return ops.FixResult{Plan: p}, errNotOffered
	}
	return fx.ApplyFix(ctx, qmgr, p, user)
}

func (o recordedOps) SetInhibit(ctx context.Context, qmgr string, q mqwatch.QueueInfo, attr string, disable bool, user string) (ops.FixResult, error) {
	fx, ok := o.Operations.(ui.FixOps)
	if !ok {
		return ops.FixResult{}, errNotOffered
	}
	return fx.SetInhibit(ctx, qmgr, q, attr, disable, user)
}

type editor interface {
	PlanEdit(ctx context.Context, req ops.EditRequest) (ops.EditPlan, error)
	Edit(ctx context.Context, req ops.EditRequest) (ops.EditResult, error)
}

func (o recordedOps) PlanEdit(ctx context.Context, req ops.EditRequest) (ops.EditPlan, error) {
	ed, ok := o.Operations.(editor)
	if !ok {
		return ops.EditPlan{Request: req}, errNotOffered
	}
	return ed.PlanEdit(ctx, req)
}

func (o recordedOps) Edit(ctx context.Context, req ops.EditRequest) (ops.EditResult, error) {
	ed, ok := o.Operations.(editor)
	if !ok {
		return ops.EditResult{Plan: ops.EditPlan{Request: req}}, errNotOffered
	}
	return ed.Edit(ctx, req)
}

func (o recordedOps) SearchBodies(ctx context.Context, qmgr, queue string, p *ops.BodyPattern, progress func(ops.SearchProgress), found func(mqwatch.Summary)) (ops.SearchProgress, error) {
	s, ok := o.Operations.(interface {
		SearchBodies(context.Context, string, string, *ops.BodyPattern, func(ops.SearchProgress), func(mqwatch.Summary)) (ops.SearchProgress, error)
	})
	if !ok {
		return ops.SearchProgress{}, errNotOffered
	}
	return s.SearchBodies(ctx, qmgr, queue, p, progress, found)
}

var _ ui.FixPlanner = recordedOps{}

func (o recordedOps) PlanFix(ctx context.Context, qmgr string, p actions.FixPlan, user string) (ops.FixResult, error) {
	fx, ok := o.Operations.(ui.FixPlanner)
	if !ok {
		return ops.FixResult{Plan: p}, errNotOffered
	}
	return fx.PlanFix(ctx, qmgr, p, user)
}
