package ops

import (
	"context"
	"strconv"
	"strings"
	"time"

	"github.com/poisonwatch/poisonwatch/actions"
	"github.com/poisonwatch/poisonwatch/codec/mqfmt"
	"github.com/poisonwatch/poisonwatch/mqwatch"
	"github.com/poisonwatch/poisonwatch/mqwatch/pcf"
)

// FixStepResult is what the command server answered to one step.
type FixStepResult struct {
	MQSC    string `json:"mqsc"`
	Applied bool   `json:"applied"`
	Reason  int32  `json:"reason,omitempty"` // MQRC or MQRCCF
	Error   string `json:"error,omitempty"`  // "MQRC_NOT_AUTHORIZED (2035): ..."
	// Skipped: the queue manager already had what the step sets (or, for
	// a limit, more), so nothing was sent.
	Skipped bool `json:"skipped,omitempty"`
	// Before and After are the attributes the step changes, as read from
	// the queue manager just before it ran and as set ("MAXDEPTH(100)"),
	// as its audit line records them.
	Before string `json:"before,omitempty"`
	After  string `json:"after,omitempty"`
	// Predicted is, in a dry run, the reason the command server is
	// expected to answer (0: it would apply the step); Prediction says it
	// as "MQRC_NAME (code): explanation", and why. Uncertain: something
	// could not be read (the user's authorities, a queue the user may not
	// display), so the prediction may be wrong; Prediction says what.
	Predicted  int32  `json:"predicted,omitempty"`
	Prediction string `json:"prediction,omitempty"`
	Uncertain  bool   `json:"uncertain,omitempty"`
}

// FixResult is a fix's outcome, step by step.
type FixResult struct {
	Plan    actions.FixPlan `json:"-"`
	DryRun  bool            `json:"dry_run,omitempty"`
	Steps   []FixStepResult `json:"steps"`
	Stopped string          `json:"stopped,omitempty"` // why the later steps did not run
	// Op is OpFix, or OpInhibit for a GET/PUT inhibit; User is who the
	// audit names.
	Op   Op     `json:"-"`
	User string `json:"-"`
	// Entry is the act's entry in the engine's journal (0: none written).
	Entry uint64 `json:"-"`
}

// Applied reports whether every step was applied.
func (r FixResult) Applied() bool {
	for _, s := range r.Steps {
		if !s.Applied {
			return false
		}
	}
	return len(r.Steps) > 0 && !r.DryRun
}

// WouldApply reports whether a dry run predicts every step applied (or
// skipped as already satisfied).
func (r FixResult) WouldApply() bool {
	for _, s := range r.Steps {
		if s.Predicted != 0 {
			return false
		}
	}
	return r.DryRun && len(r.Steps) > 0
}

// commandWait is how long the command server may take to answer a change.
const commandWait = 10 * time.Second

// ApplyFix sends a plan's changes through the queue manager's command
// server, in order, stopping at the first that fails: a later step may
// depend on it (R8e). Each step is audited with the user, the values
// before and after and the PCF reason. A dry run checks the plan and sends
// nothing.
func (e *Engine) ApplyFix(ctx context.Context, p actions.FixPlan, user string, dryRun bool) (FixResult, error) {
	g := e.ChangeGate()
	if dryRun {
		return g.Plan(ctx, p, OpFix, user)
	}
	return g.Apply(ctx, p, OpFix, user)
}

// SetInhibit sets GET or PUT (attr) of queue to DISABLED or ENABLED
// (R10h): the operator's brake on a poison loop.
func (e *Engine) SetInhibit(ctx context.Context, q mqwatch.QueueInfo, qmName, attr string, disable bool, user string) (FixResult, error) {
	return e.ChangeGate().Apply(ctx, InhibitPlan(q, qmName, attr, disable), OpInhibit, user)
}

// InhibitPlan is GET or PUT (attr) of queue set to DISABLED or ENABLED, as
// a plan of one step the change gate can run or predict.
func InhibitPlan(q mqwatch.QueueInfo, qmName, attr string, disable bool) actions.FixPlan {
	v := "ENABLED"
	if disable {
		v = "DISABLED"
	}
	// The change is built from the queue's name as it is (IBM MQ names are
	// case-sensitive); the MQSC shown and audited quotes it where needed.
	typ := mqwatch.QLocal
	if q.Type == mqwatch.QAlias {
		typ = mqwatch.QAlias
	}
	return actions.PlanChanges(actions.QMgrInfoNamed(qmName), []mqwatch.QueueInfo{q}, attr+":"+q.Name,
		[]pcf.Change{{Command: pcf.CmdChangeQ, Queue: q.Name, Type: typ, Attrs: []pcf.Attr{{Keyword: attr, Value: v}}}})
}

// diffWords writes a step's attributes before and after as MQSC words.
func diffWords(diff []actions.AttrDiff) (before, after string) {
	var b, a []string
	for _, d := range diff {
		b = append(b, d.Keyword+"("+d.Before+")")
		a = append(a, d.Keyword+"("+d.After+")")
	}
	return strings.Join(b, " "), strings.Join(a, " ")
}

func fixAudit(now time.Time, user, qm string, op Op, st actions.FixStep, r FixStepResult) AuditRecord {
	from := st.Change.Queue
	if from == "" {
		from = qm
	}
	out := "applied"
	if !r.Applied {
		out = "failed: " + r.Error
	}
	return AuditRecord{Time: now, User: user, QMgr: qm, Action: op, From: from, Outcome: out, Reason: r.Reason,
		MQSC: st.MQSC, Before: r.Before, After: r.After}
}

// DescribeReason names an MQ or PCF reason with its one-line meaning.
func DescribeReason(err error) string {
	rc := int32(mqwatch.ReasonOf(err))
	if rc == 0 {
		return err.Error()
	}
	if n := pcf.ReasonName(rc); n != "" {
		return n
	}
	return mqfmt.Reason(rc).Describe()
}

// currentDiff reads the values the step changes from the queue manager just
// before it runs, so the audit's "before" is what was there, not what the
// last poll saw; the plan's values stay when the inquiry fails.
func currentDiff(ctx context.Context, c mqwatch.Conn, st actions.FixStep, qmName string) []actions.AttrDiff {
	var qm mqwatch.QMgrInfo
	var queues []mqwatch.QueueInfo
	if st.Change.Command == pcf.CmdChangeQMgr {
		info, err := c.QMgr(ctx)
		if err != nil {
			return st.Diff
		}
		qm = info
	} else {
		qs, err := c.Queues(ctx, st.Change.Queue)
		if err != nil && !mqwatch.IsReason(err, mqfmt.RCUnknownObjectName) {
			return st.Diff
		}
		queues = qs
	}
	qm.Name = qmName
	return st.DiffNow(qm, queues)
}

// satisfied reports whether a change step would change nothing, or would
// only lower a MAXDEPTH or MAXMSGL someone has raised further meanwhile: a
// fix never shrinks a limit as a side effect. A new queue is never
// satisfied (it is refused if it exists).
func satisfied(st actions.FixStep) bool {
	if st.Change.Command != pcf.CmdChangeQ && st.Change.Command != pcf.CmdChangeQMgr {
		return false
	}
	for _, d := range st.Diff {
		if d.Before == d.After {
			continue
		}
		b, err1 := strconv.Atoi(d.Before)
		a, err2 := strconv.Atoi(d.After)
		if (d.Keyword == "MAXDEPTH" || d.Keyword == "MAXMSGL") && err1 == nil && err2 == nil && b >= a {
			continue
		}
		return false
	}
	return len(st.Diff) > 0
}
