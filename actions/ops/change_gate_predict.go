package ops

import (
	"cmp"
	"context"
	"fmt"

	"github.com/poisonwatch/poisonwatch/actions"
	"github.com/poisonwatch/poisonwatch/codec/mqfmt"
	"github.com/poisonwatch/poisonwatch/mqwatch"
	"github.com/poisonwatch/poisonwatch/mqwatch/pcf"
)

// Plan is the change gate's dry run: it connects, reads the queue manager
// and every queue the steps name again, and predicts per step what the
// command server will answer, in the order IBM MQ's command server checks:
// 2035 (MQRC_NOT_AUTHORIZED) from the user's authorities as DISPLAY ENTAUTH
// gives them (pcf.ChangeAuthorities), 2085 (MQRC_UNKNOWN_OBJECT_NAME) for a
// queue that is missing, 4001 (MQRCCF_OBJECT_ALREADY_EXISTS) for a define
// of one that exists, 4002 and 4003 for the wrong type. A step predicted
// to apply counts for the next (a define makes the queue a later step
// names). Nothing is sent but inquiries; it is allowed read-only.
func (g *ChangeGate) Plan(ctx context.Context, p actions.FixPlan, op Op, user string) (FixResult, error) {
	e := g.e
	res := FixResult{Plan: p, DryRun: true, Op: op, User: cmp.Or(user, e.opts.User)}
	if err := checkPlan(p); err != nil {
		return res, err
	}
	s, err := e.connect(ctx)
	if err != nil {
		return res, err
	}
	defer s.close()
	qm, err := s.conn.QMgr(ctx)
	if err != nil {
		return res, fmt.Errorf("DISPLAY QMGR: %w", err)
	}
	sim, err := readObjects(ctx, s.conn, qm, p)
	if err != nil {
		return res, err
	}
	auth := newAuthView(ctx, e, s.conn, qm.Name)
	defer auth.close(ctx)
	for _, st := range p.Steps {
		st.Diff = st.DiffNow(qm, sim.list())
		r := FixStepResult{MQSC: st.MQSC}
		r.Before, r.After = diffWords(st.Diff)
		if satisfied(st) {
			r.Skipped, r.Prediction = true, "already set: nothing would be sent"
			res.Steps = append(res.Steps, r)
			continue
		}
		rc, why, unknown := sim.predict(ctx, st.Change, auth)
		r.Predicted, r.Uncertain = rc, unknown
		r.Prediction = predictionText(rc, why)
		if rc == 0 {
			sim.apply(st.Change)
		}
		res.Steps = append(res.Steps, r)
	}
	return res, nil
}

// predictionText says a predicted answer: "would apply", or the reason as
// "MQRC_NAME (code): explanation" and why.
func predictionText(rc int32, why string) string {
	if rc == 0 {
		if why != "" {
			return "would apply (" + why + ")"
		}
		return "would apply"
	}
	d := pcf.ReasonName(rc)
	if d == "" {
		d = mqfmt.Reason(rc).Describe()
	}
	if why != "" {
		d += "; " + why
	}
	return d
}

func reasonOf(err error) int32 { return int32(mqwatch.ReasonOf(err)) }

// objects are the queues the plan's steps name, as read now and as the
// steps predicted to apply leave them.
type objects struct {
	qmgr   string
	queues map[string]mqwatch.QueueInfo
	// unread are the queues the user may not display (2035): whether they
	// exist, and their type, cannot be told.
	unread map[string]bool
}

// readObjects reads each queue a step changes, defines or copies (and
// the SYSTEM.DEFAULT.* queue a define copies): missing ones are absent.
func readObjects(ctx context.Context, c mqwatch.Conn, qm mqwatch.QMgrInfo, p actions.FixPlan) (*objects, error) {
	o := &objects{qmgr: qm.Name, queues: map[string]mqwatch.QueueInfo{}, unread: map[string]bool{}}
	for _, st := range p.Steps {
		for _, name := range []string{st.Change.Queue, st.Change.Like} {
			if _, seen := o.queues[name]; seen || o.unread[name] || name == "" {
				continue
			}
			qs, err := c.Queues(ctx, name)
			if mqwatch.IsReason(err, mqfmt.RCNotAuthorized) {
				o.unread[name] = true
				continue
			}
			if err != nil && !mqwatch.IsReason(err, mqfmt.RCUnknownObjectName) {
				return nil, fmt.Errorf("DISPLAY QUEUE(%s): %w", name, err)
			}
			for _, q := range qs {
				if q.Name == name {
					o.queues[name] = q
				}
			}
		}
	}
	return o, nil
}

func (o *objects) list() []mqwatch.QueueInfo {
	out := make([]mqwatch.QueueInfo, 0, len(o.queues))
	for _, q := range o.queues {
		out = append(out, q)
	}
	return out
}

// predict is what the command server answers to ch, in the order the
// embedded queue manager's command server (as IBM's) checks.
func (o *objects) predict(ctx context.Context, ch pcf.Change, auth *authView) (rc int32, why string, unknown bool) {
	needs := pcf.ChangeAuthorities(ch)
	if rc, why, unknown = auth.check(ctx, needs[:1]); rc != 0 {
		return rc, why, unknown
	}
	q, exists := o.queues[ch.Queue]
	if o.unread[ch.Queue] || o.unread[ch.Like] {
		// Not displayable: existence and type cannot be told; only the
		// authorities are predicted.
		rc, why, _ := auth.check(ctx, needs[1:])
		if rc == 0 {
			why = "cannot display " + ch.Queue + " (2035): whether it exists is not known"
		}
		return rc, why, true
	}
	switch ch.Command {
	case pcf.CmdChangeQ:
		switch {
		case !exists:
			return int32(mqfmt.RCUnknownObjectName), "no queue " + ch.Queue, unknown
		case q.Type != ch.Type:
			return pcf.ReasonObjectWrongType, fmt.Sprintf("%s is a %s, the step changes a %s", ch.Queue, q.Type, ch.Type), unknown
		}
	case pcf.CmdCreateQ, pcf.CmdCopyQ:
		if rc, why, u := auth.check(ctx, needs[1:]); rc != 0 {
			return rc, why, u || unknown
		}
		return o.predictDefine(ch, exists, unknown)
	}
	rc, why, u := auth.check(ctx, needs[1:])
	return rc, why, u || unknown
}

// predictDefine is a define's answer once its authority is checked.
func (o *objects) predictDefine(ch pcf.Change, exists, unknown bool) (int32, string, bool) {
	if exists {
		return pcf.ReasonObjectAlreadyExists, ch.Queue + " exists", unknown
	}
	if ch.Command != pcf.CmdCopyQ {
		return 0, "", unknown
	}
	like, ok := o.queues[ch.Like]
	switch {
	case !ok:
		return int32(mqfmt.RCUnknownObjectName), "no queue " + ch.Like + " to copy (LIKE)", unknown
	case like.Type != ch.Type:
		return pcf.ReasonLikeWrongType, fmt.Sprintf("%s is a %s", ch.Like, like.Type), unknown
	case like.Trigger && !setsTrigger(ch):
		return pcf.ReasonCommandFailed, errTriggerCopied(ch).Error(), unknown
	}
	return 0, "", unknown
}

// apply records a step predicted to apply, for the steps after it.
func (o *objects) apply(ch pcf.Change) {
	if ch.Command != pcf.CmdCreateQ && ch.Command != pcf.CmdCopyQ {
		return
	}
	q := o.queues[ch.Like]
	q.Name, q.Type = ch.Queue, ch.Type
	o.queues[ch.Queue] = q
}

// setsTrigger reports whether a change sets TRIGGER or NOTRIGGER itself.
func setsTrigger(ch pcf.Change) bool {
	for _, a := range ch.Attrs {
		if a.Keyword == "TRIGGER" {
			return true
		}
	}
	return false
}

func errTriggerCopied(ch pcf.Change) error {
	return fmt.Errorf("not sent: %s has TRIGGER, which DEFINE LIKE would copy to %s (parked messages would start its trigger monitor); plan the define again, it adds NOTRIGGER", ch.Like, ch.Queue)
}

// copiesTrigger refuses, just before it is sent, a define LIKE a queue that
// now has TRIGGER when the define does not set NOTRIGGER: the plan was
// made when the LIKE queue did not trigger (R10h parking).
func copiesTrigger(ctx context.Context, c mqwatch.Conn, ch pcf.Change) error {
	if ch.Command != pcf.CmdCopyQ || setsTrigger(ch) {
		return nil
	}
	qs, err := c.Queues(ctx, ch.Like)
	if err != nil {
		return nil // the command server answers for a LIKE queue it cannot find
	}
	for _, q := range qs {
		if q.Name == ch.Like && q.Trigger {
			return errTriggerCopied(ch)
		}
	}
	return nil
}
