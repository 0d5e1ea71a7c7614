package warroom

import (
	"context"
	"errors"
	"fmt"

	"github.com/poisonwatch/poisonwatch/actions/ops"
	"github.com/poisonwatch/poisonwatch/codec/mqfmt"
	"github.com/poisonwatch/poisonwatch/mqwatch"
)

// editEngines is what edit and resend (R10i) needs of the engines behind
// the room; serve's engines have it.
type editEngines interface {
	PlanEdit(ctx context.Context, req ops.EditRequest) (ops.EditPlan, error)
	Edit(ctx context.Context, req ops.EditRequest) (ops.EditResult, error)
}

// errNoEdits: the engines behind the room cannot edit messages.
var errNoEdits = errors.New("this server's engines do not edit messages")

// PlanEdit is the plan of edit and resend for the room's driver, who edits
// in the dashboard's textarea (there is no terminal of theirs to hand to
// $EDITOR): refused to viewers and while another session acts on the queue.
func (o *SessionOps) PlanEdit(ctx context.Context, req ops.EditRequest) (ops.EditPlan, error) {
	ed, op, err := o.editing(&req)
	if err != nil {
		return ops.EditPlan{Request: req}, err
	}
	if err := o.Locks.check(op); err != nil {
		return ops.EditPlan{Request: req}, err
	}
	return ed.PlanEdit(ctx, req)
}

// Edit puts the edited copy and removes the original under the queue's
// lock, audited with the SSH identity and announced to the room.
func (o *SessionOps) Edit(ctx context.Context, req ops.EditRequest) (ops.EditResult, error) {
	ed, op, err := o.editing(&req)
	if err != nil {
		return ops.EditResult{Plan: ops.EditPlan{Request: req}}, err
	}
	if req.DryRun {
		return ed.Edit(ctx, req)
	}
	who := o.Seat.Who()
	if err := o.Locks.acquire(op, who); err != nil {
		return ops.EditResult{Plan: ops.EditPlan{Request: req}}, err
	}
	defer o.Locks.release(op)
	res, err := ed.Edit(ctx, req)
	if res.Entry == 0 && err != nil {
		// Refused before the engine wrote anything: the journal has no
		// word of it, so the room is told here.
		o.Seat.room.Announce(o.Seat.ID(), editSentence(who.User, req, res, err), nil)
	}
	return res, err
}

// editing checks the role and stamps the request with who acts and the
// archive file the session may name.
func (o *SessionOps) editing(req *ops.EditRequest) (editEngines, ops.OpRequest, error) {
	op := ops.OpRequest{QMgr: req.QMgr, Queue: req.Queue, File: req.File}
	if err := o.allowed(&op); err != nil {
		return nil, op, err
	}
	req.User, req.File = op.User, op.File
	ed, ok := o.Engines.(editEngines)
	if !ok {
		return nil, op, errNoEdits
	}
	return ed, op, nil
}

// editSentence is the flash every session sees when an edit ends.
func editSentence(user string, req ops.EditRequest, res ops.EditResult, err error) string {
	what := fmt.Sprintf("edit and resend of %X on %s", req.Msg.MsgId[:], queueName(ops.OpRequest{QMgr: req.QMgr, Queue: req.Queue}))
	if err != nil {
		return fmt.Sprintf("%s: %s failed: %s", user, what, ops.DescribeReason(err))
	}
	to := res.Plan.Target
	if to == "" {
		to = req.Queue
	}
	return fmt.Sprintf("%s: %s: %s → %s", user, what, mqfmt.Sanitize(res.Text), mqfmt.Sanitize(to))
}

// bodySearcher is ctrl+f's body search (#28 §5) on the engines.
type bodySearcher interface {
	SearchBodies(ctx context.Context, qmgr, queue string, p *ops.BodyPattern, progress func(ops.SearchProgress), found func(mqwatch.Summary)) (ops.SearchProgress, error)
}

// SearchBodies searches every body of a queue for an operator. Viewers
// are refused: their bodies are masked, and which messages match a text
// would tell what the mask hides. It only browses, so it takes no lock.
func (o *SessionOps) SearchBodies(ctx context.Context, qmgr, queue string, p *ops.BodyPattern, progress func(ops.SearchProgress), found func(mqwatch.Summary)) (ops.SearchProgress, error) {
	if o.Seat.Who().Role != Operator {
		return ops.SearchProgress{}, ErrViewer
	}
	s, ok := o.Engines.(bodySearcher)
	if !ok {
		return ops.SearchProgress{}, errors.New("this server's engines do not search bodies")
	}
	return s.SearchBodies(ctx, qmgr, queue, p, progress, found)
}
