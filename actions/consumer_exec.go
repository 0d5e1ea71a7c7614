package actions

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/poisonwatch/poisonwatch/codec/mqfmt"
	"github.com/poisonwatch/poisonwatch/mqwatch"
)

// rcMissingReplyToQ is MQRC_MISSING_REPLY_TO_Q: the reason a report that has
// no ReplyToQ is dead-lettered with.
const rcMissingReplyToQ mqfmt.Reason = 2027

// execute carries out a decision inside the unit of work of the get, walking
// to the fallback whenever a put fails, and ends the unit of work.
func (c *Consumer) execute(ctx context.Context, h Handler, m *mqwatch.Message, d *Decision, res *Handled) error {
	for {
		res.Why = append(res.Why, d.Why...)
		res.Fate, res.Queue, res.Reason = d.Fate, d.Queue, d.Reason
		switch d.Fate {
		case Deliver, LoopForever:
			return c.deliver(ctx, h, m, res)
		case DependsOnOutcome:
			d = c.outcomeCase(d)
			continue
		case Discard:
			c.report(ctx, m, d.Report, res)
			return c.finish(ctx)
		case ReturnToInput:
			return c.conn.Backout(ctx)
		case PauseConsumer:
			c.paused = true
			return errors.Join(ErrPaused, c.conn.Backout(ctx))
		case StopConsumers:
			c.stopped = true
			return errors.Join(ErrStopped, c.conn.Backout(ctx))
		}
		rc, err := c.move(ctx, m, d)
		if err != nil && rc == 0 {
			return c.abandon(ctx, err) // not a put failure the rules cover
		}
		if err == nil {
			c.report(ctx, m, d.Report, res)
			return c.finish(ctx)
		}
		if d.OnFailure == nil {
			return c.abandon(ctx, err)
		}
		res.Why = append(res.Why, line(failRule(d.Fate, c.opts.Style), "the put to %s failed: %s", orNone(d.Queue), rc.Describe()))
		d = withReason(d.OnFailure, rc)
	}
}

// withReason fills the reason a fallback records (the MQDLH Reason, the
// report's Feedback) when it is the failed put's, unknown until now.
func withReason(d *Decision, rc mqfmt.Reason) *Decision {
	if d.Reason != 0 || (d.Fate != MoveToDeadQ && d.Report == nil) {
		return d
	}
	next := *d
	next.Reason = rc
	if next.Report != nil {
		rep := *next.Report
		rep.Feedback = rc
		next.Report = &rep
	}
	return &next
}

func (c *Consumer) outcomeCase(d *Decision) *Decision {
	for _, cs := range d.Cases {
		if cs.Outcome == c.opts.Outcome {
			return cs.Decision
		}
	}
	return d.Cases[0].Decision
}

// finish ends the unit of work of a handled poison message. A
// sync-transacted application that rolls back undoes the move with its
// transaction (R3a); every other style commits.
func (c *Consumer) finish(ctx context.Context) error {
	if c.opts.Style == SyncTransacted && c.opts.Outcome == OutcomeRollback {
		return c.conn.Backout(ctx)
	}
	return c.conn.Commit(ctx)
}

// deliver hands the message to the application: commit on success, back out
// (BackoutCount + 1) on failure.
func (c *Consumer) deliver(ctx context.Context, h Handler, m *mqwatch.Message, res *Handled) error {
	if err := h(ctx, m); err != nil {
		res.HandlerErr = err
		c.failures++
		p := c.opts.Policy
		if c.opts.Style == DeliveryCount && p.MaxDeliveryFailures > 0 && c.failures >= p.MaxDeliveryFailures {
			c.paused = true // R9c: the next poll finds the MDB paused
		}
		if c.mdbPauses() {
			c.paused = true // R6i
		}
		return c.conn.Backout(ctx)
	}
	c.failures = 0
	return c.conn.Commit(ctx)
}

// move puts the transformed message to the decision's queue under syncpoint,
// passing the original context (R7b). It returns the reason code when the
// open or the put failed with one.
func (c *Consumer) move(ctx context.Context, m *mqwatch.Message, d *Decision) (mqfmt.Reason, error) {
	if d.Queue == "" {
		return mqfmt.RCUnknownObjectName, mqwatch.NewError("MQOPEN", "", mqfmt.RCUnknownObjectName)
	}
	md, data, err := m.MD, m.Data, error(nil)
	switch d.Fate {
	case MoveToBOQ:
		md, data, err = ToBackoutQueue(m.MD, m.Data)
	case MoveToDeadQ:
		md, data, err = ToDeadLetter(m.MD, m.Data, c.deadLetterOptions(d.Reason))
	}
	if err != nil {
		return 0, err
	}
	q, err := c.output(ctx, d.Queue, "", false)
	if err == nil {
		err = q.Put(ctx, &md, data, mqwatch.PutOptions{Syncpoint: true, Context: mqwatch.ContextPassAll, ContextFrom: c.in})
	}
	if mqwatch.IsWarning(err) { // 2049: put, at MAXPRTY
		err = nil
	}
	return mqwatch.ReasonOf(err), err
}

func (c *Consumer) deadLetterOptions(reason mqfmt.Reason) DeadLetterOptions {
	o := DeadLetterOptions{Reason: reason, DestQName: c.opts.Queue, DestQMgrName: c.qmgr.Name}
	if c.opts.Now != nil {
		o.Now = c.opts.Now()
	}
	if c.opts.Style != ASF {
		// IBM documents no PutApplName for these styles; never claim to be
		// the ConnectionConsumer.
		o.PutApplName = c.opts.ApplName
		if o.PutApplName == "" {
			o.PutApplName = c.opts.Style.String()
		}
	}
	return o
}

// report sends the exception report a removal asks for (R6c–R6g), in the
// same unit of work. IBM: a report that cannot be put on the ReplyToQ is put
// on the dead-letter queue instead.
func (c *Consumer) report(ctx context.Context, m *mqwatch.Message, p *ReportPlan, res *Handled) {
	if p == nil {
		return
	}
	r, ok := ExceptionReport(m.MD, m.Data, p.Feedback, time.Time{})
	if !ok {
		return
	}
	reason := rcMissingReplyToQ
	if r.ToQ != "" {
		q, err := c.output(ctx, r.ToQ, r.ToQMgr, true)
		if err == nil {
			md := r.MD
			err = q.Put(ctx, &md, r.Data, mqwatch.PutOptions{Syncpoint: true, NewMsgId: r.NewMsgID, Context: mqwatch.ContextSetAll})
		}
		if err == nil || mqwatch.IsWarning(err) {
			return
		}
		reason = mqwatch.ReasonOf(err)
	}
	md, data, err := ToDeadLetter(r.MD, r.Data, DeadLetterOptions{Reason: reason, DestQName: r.ToQ, DestQMgrName: r.ToQMgr})
	if err == nil {
		var q mqwatch.Queue
		if q, err = c.output(ctx, c.qmgr.DeadQ, "", true); err == nil {
			err = q.Put(ctx, &md, data, mqwatch.PutOptions{Syncpoint: true, NewMsgId: r.NewMsgID, Context: mqwatch.ContextSetAll})
		}
	}
	if err != nil {
		res.ReportErr = fmt.Errorf("report for %x: ReplyToQ %s: %s; DEADQ: %w", m.MD.MsgId, orNone(r.ToQ), reason.Describe(), err)
	}
}

// failRule names the rule a failed put falls back by.
func failRule(a Fate, s Style) string {
	switch {
	case a == MoveToQueue:
		return "R9b"
	case a == MoveToBOQ && s == ASF:
		return "R6"
	case a == MoveToBOQ:
		return "R2b"
	case s == ASF:
		return "R6h"
	}
	return "R4"
}
