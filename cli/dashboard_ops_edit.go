package cli

import (
	"context"

	"github.com/poisonwatch/poisonwatch/actions/ops"
	"github.com/poisonwatch/poisonwatch/mqwatch"
)

// PlanEdit is the dashboard's edit and resend plan (R10i) on the engine of
// the request's queue manager.
func (o *engineOps) PlanEdit(ctx context.Context, req ops.EditRequest) (ops.EditPlan, error) {
	e, err := o.engine(req.QMgr)
	if err != nil {
		return ops.EditPlan{Request: req}, err
	}
	return e.PlanEdit(ctx, req)
}

// Edit runs an edit (R10i); a read-only engine refuses it.
func (o *engineOps) Edit(ctx context.Context, req ops.EditRequest) (ops.EditResult, error) {
	e, err := o.engine(req.QMgr)
	if err != nil {
		return ops.EditResult{}, err
	}
	return e.Edit(ctx, req)
}

// SearchBodies searches every body of a queue, on a connection of its own.
func (o *engineOps) SearchBodies(ctx context.Context, qmgr, queue string, p *ops.BodyPattern, progress func(ops.SearchProgress), found func(mqwatch.Summary)) (ops.SearchProgress, error) {
	e, err := o.engine(qmgr)
	if err != nil {
		return ops.SearchProgress{}, err
	}
	return e.SearchBodies(ctx, queue, p, progress, found)
}
