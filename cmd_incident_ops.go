package main

import (
	"context"
	"errors"

	"github.com/poisonwatch/poisonwatch/actions"
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

func (o recordedOps) ApplyFix(ctx context.Context, qmgr string, p actions.FixPlan, user string) (actions.FixResult, error) {
	fx, ok := o.Operations.(ui.FixOps)
	if !ok {
		return actions.FixResult{Plan: p}, errNotOffered
	}
	return fx.ApplyFix(ctx, qmgr, p, user)
}

func (o recordedOps) SetInhibit(ctx context.Context, qmgr string, q mqwatch.QueueInfo, attr string, disable bool, user string) (actions.FixResult, error) {
	fx, ok := o.Operations.(ui.FixOps)
	if !ok {
		return actions.FixResult{}, errNotOffered
	}
	return fx.SetInhibit(ctx, qmgr, q, attr, disable, user)
}

type editor interface {
	PlanEdit(ctx context.Context, req actions.EditRequest) (actions.EditPlan, error)
	Edit(ctx context.Context, req actions.EditRequest) (actions.EditResult, error)
}

func (o recordedOps) PlanEdit(ctx context.Context, req actions.EditRequest) (actions.EditPlan, error) {
	ed, ok := o.Operations.(editor)
	if !ok {
		return actions.EditPlan{Request: req}, errNotOffered
	}
	return ed.PlanEdit(ctx, req)
}

func (o recordedOps) Edit(ctx context.Context, req actions.EditRequest) (actions.EditResult, error) {
	ed, ok := o.Operations.(editor)
	if !ok {
		return actions.EditResult{Plan: actions.EditPlan{Request: req}}, errNotOffered
	}
	return ed.Edit(ctx, req)
}

func (o recordedOps) SearchBodies(ctx context.Context, qmgr, queue string, p *actions.BodyPattern, progress func(actions.SearchProgress), found func(mqwatch.Summary)) (actions.SearchProgress, error) {
	s, ok := o.Operations.(interface {
		SearchBodies(context.Context, string, string, *actions.BodyPattern, func(actions.SearchProgress), func(mqwatch.Summary)) (actions.SearchProgress, error)
	})
	if !ok {
		return actions.SearchProgress{}, errNotOffered
	}
	return s.SearchBodies(ctx, qmgr, queue, p, progress, found)
}
