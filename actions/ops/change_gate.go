package ops

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/poisonwatch/poisonwatch/actions"
	"github.com/poisonwatch/poisonwatch/mqwatch/pcf"
)

// ChangeGate is the one way poisonwatch changes an object (R10h): an
// alert's fix (`x`, `poisonwatch fix`), GET/PUT inhibit (`I`) and a parking
// queue (`ctrl+n`, `--create-like`) all reach the command server through
// it, and nothing else sends a PCF change (TestR10h_ChangeGateIsTheOnlyCaller
// fails otherwise). Plan is its dry run: it connects, reads the objects
// again and predicts, per step, what the command server will answer;
// Apply sends the steps in order and audits each.
type ChangeGate struct{ e *Engine }

// ChangeGate returns the engine's change gate.
func (e *Engine) ChangeGate() *ChangeGate { return &ChangeGate{e: e} }

// checkPlan refuses a plan that cannot be applied whole.
func checkPlan(p actions.FixPlan) error {
	switch {
	case len(p.CopyOnly) > 0:
		return fmt.Errorf("%w: %s", actions.ErrCopyOnly, strings.Join(p.CopyOnly, "; "))
	case len(p.Steps) == 0:
		return errors.New("the fix has no command to apply")
	}
	return nil
}

// Apply sends a plan's changes through the queue manager's command server,
// in order, stopping at the first that fails: a later step may depend on
// it (R8e). Each step's values are read again just before it is sent; one
// the queue manager already satisfies is skipped. Each step is audited
// with the user, the values before and after and the PCF reason.
func (g *ChangeGate) Apply(ctx context.Context, p actions.FixPlan, op Op, user string) (FixResult, error) {
	res, err := g.apply(ctx, p, op, user)
	if len(res.Steps) > 0 {
		// Only what reached the queue manager (or was found already done)
		// is an act: a plan refused before anything was sent is not.
		res.Entry = g.e.record(FixEntry(&res, g.e.opts.Now())).Seq
	}
	return res, err
}

func (g *ChangeGate) apply(ctx context.Context, p actions.FixPlan, op Op, user string) (FixResult, error) {
	e := g.e
	res := FixResult{Plan: p, Op: op, User: cmp.Or(user, e.opts.User)}
	if err := checkPlan(p); err != nil {
		return res, err
	}
	if e.opts.ReadOnly {
		return res, ErrReadOnly
	}
	s, err := e.connect(ctx)
	if err != nil {
		return res, err
	}
	defer s.close()
	pt, err := pcf.OpenPort(ctx, s.conn, pcf.DefaultCommandQueue, pcf.DefaultReplyModel)
	if err != nil {
		return res, fmt.Errorf("the command server's queue: %w", err)
	}
	defer func() { _ = pt.Close(context.WithoutCancel(ctx)) }()
	audit, _, err := openAudit(e.opts.AuditPath)
	if err != nil {
		return res, err
	}
	defer func() { _ = audit.close() }()
	cl := &pcf.Client{T: pt, Wait: commandWait}
	for i, st := range p.Steps {
		st.Diff = currentDiff(ctx, s.conn, st, p.QMgr)
		r := FixStepResult{MQSC: st.MQSC}
		r.Before, r.After = diffWords(st.Diff)
		if satisfied(st) {
			// Someone got there first (a colleague raised MAXDEPTH
			// further): sending it would only undo their change.
			r.Applied, r.Skipped = true, true
			res.Steps = append(res.Steps, r)
			continue
		}
		err := copiesTrigger(ctx, s.conn, st.Change)
		if err == nil {
			err = cl.Apply(ctx, st.Change)
		}
		r.Applied = err == nil
		if err != nil {
			r.Reason, r.Error = reasonOf(err), DescribeReason(err)
		}
		res.Steps = append(res.Steps, r)
		if aerr := audit.write([]AuditRecord{fixAudit(e.opts.Now(), res.User, p.QMgr, op, st, r)}); aerr != nil {
			return res, aerr
		}
		if err != nil {
			if i < len(p.Steps)-1 {
				res.Stopped = fmt.Sprintf("step %d failed: the %d after it were not sent", i+1, len(p.Steps)-1-i)
			}
			return res, err
		}
	}
	return res, audit.sync()
}
