package ui

import (
	"context"
	"fmt"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/poisonwatch/poisonwatch/actions/dlqrules"
	"github.com/poisonwatch/poisonwatch/model"
	"github.com/poisonwatch/poisonwatch/mqwatch"
)

// RulesOps predicts what a rules table would do to messages of a queue as
// `poisonwatch rules preview` does (the rule each meets, its action
// resolved, the outcome the engine's dry run and a probe of the target
// predict). main wires it to the engines; nothing changes on a queue.
type RulesOps interface {
	// PredictRules predicts messages one by one (dlqrules.Predict): the
	// message screen's, read whole.
	PredictRules(ctx context.Context, qmgr, queue string, t *dlqrules.Table, msgs []dlqrules.Subject) ([]dlqrules.Verdict, error)
	// PredictQueue predicts every message of a queue's inventory as
	// PredictRules would each, kind by kind (dlqrules.PredictInventory): a
	// million messages are neither copied nor planned one by one.
	PredictQueue(ctx context.Context, qmgr, queue string, t *dlqrules.Table, inv *mqwatch.Inventory) (*dlqrules.Verdicts, error)
}

// predictedMsg brings a prediction back to the table that asked for it.
type predictedMsg struct {
	tab *dlqrules.Table
	q   model.QueueRef
	ans *model.Answer
}

// predict starts a prediction of the queue's messages when the table has
// none for its current inventory and none is under way (at most one per
// model.PredictEvery while the messages change). It returns nil when there is
// nothing to start. The prediction awaits its answer in the session's
// watching list, whatever is on view when it comes: an answer dropped would
// leave it under way for good. Everything that reads the messages (the
// prediction, the answer's index of them) runs in the command, off the
// update loop; Begin and Finish touch none of them.
func (r *rulesTable) predict(c common, qm, queue string, inv *mqwatch.Inventory) tea.Cmd {
	opt := c.Opts()
	if r == nil || opt.Rules == nil {
		return nil
	}
	q := model.QueueRef{QMgr: qm, Queue: queue}
	if !r.pred.Begin(q, inv, opt.Now()) {
		return nil
	}
	c.Session().watch(&predicting{r: r, q: q})
	ops, ctx, tab := opt.Rules, opt.Ctx, r.t
	return func() tea.Msg {
		vs, err := ops.PredictQueue(ctx, qm, queue, tab, inv)
		return predictedMsg{tab: tab, q: q, ans: model.NewAnswer(inv, vs, err)}
	}
}

// predicting is a queue's prediction under way for the table that asked.
type predicting struct {
	r    *rulesTable
	q    model.QueueRef
	done bool
}

func (p *predicting) awaiting() bool { return !p.done }

// receive keeps the prediction's verdicts; one for a table since replaced
// is dropped.
func (p *predicting) receive(c common, msg tea.Msg) (tea.Cmd, bool) {
	m, ok := msg.(predictedMsg)
	if !ok || m.tab != p.r.t || m.q != p.q {
		return nil, false
	}
	p.done = true
	if c.Session().rules != p.r {
		return nil, true
	}
	p.r.pred.Finish(m.q, m.ans, c.Opts().Now())
	return c.Refresh(), true
}

// verdictOf is the latest prediction's verdict for a message, nil when it
// has none yet.
func (r *rulesTable) verdictOf(qm, queue string, s *mqwatch.Summary) *dlqrules.Verdict {
	if r == nil {
		return nil
	}
	return r.pred.Verdict(model.QueueRef{QMgr: qm, Queue: queue}, s)
}

// messageVerdictMsg is the prediction for one message read whole.
type messageVerdictMsg struct {
	seq int
	tab *dlqrules.Table
	v   *dlqrules.Verdict
	err error
}

// predictMessage asks for the verdict of the message on screen from all of
// its fields, when the queue's prediction (made from summaries) is not sure
// of its rule or names another one than the whole message meets.
func (r *rulesTable) predictMessage(c common, d *detailScreen) tea.Cmd {
	opt := c.Opts()
	if r == nil || opt.Rules == nil || d.msg == nil || !onDeadQ(c.State(), d) {
		return nil
	}
	sub := dlqrules.SubjectOfMessage(d.msg, &d.sum)
	m := r.t.Match(&sub.Facts)
	if v := r.verdictOf(d.loc.QMgr, d.loc.Queue, &d.sum); v != nil && v.Certain && v.Rule == m.Rule {
		return nil
	}
	ops, ctx, tab, seq, qm, queue := opt.Rules, opt.Ctx, r.t, d.seq, d.loc.QMgr, d.loc.Queue
	return func() tea.Msg {
		vs, err := ops.PredictRules(ctx, qm, queue, tab, []dlqrules.Subject{sub})
		if err == nil && len(vs) != 1 {
			err = fmt.Errorf("the prediction returned %d verdicts for one message", len(vs))
		}
		if err != nil {
			return messageVerdictMsg{seq: seq, tab: tab, err: err}
		}
		return messageVerdictMsg{seq: seq, tab: tab, v: &vs[0]}
	}
}

// onDeadQ reports whether the message on screen is a dead letter on a DEADQ.
func onDeadQ(state *model.State, d *detailScreen) bool {
	q := state.QMgr(d.loc.QMgr)
	return d.sum.HasDLH && q.Snap != nil && q.Groups[d.loc.Queue] != nil && q.Groups[d.loc.Queue].IsDLQ
}

// messageRule names the loaded table's rule for the message on screen and
// what it would do, in the preview's words: from the queue's prediction
// until the message is read, then from all of its fields; fails when the
// engine predicts a failure. "" without a table or off the DEADQ.
func (r *rulesTable) messageRule(c common, d *detailScreen) (string, bool) {
	if r == nil || !onDeadQ(c.State(), d) {
		return "", false
	}
	t := r.t
	f := dlqrules.FactsOfSummary(&d.sum)
	if d.msg != nil {
		f = dlqrules.FactsOfMessage(d.msg)
	}
	m := t.Match(&f)
	v := d.verdict
	if q := r.verdictOf(d.loc.QMgr, d.loc.Queue, &d.sum); v == nil && q != nil && q.Rule == m.Rule && (d.msg == nil || q.Certain) {
		v = q
	}
	switch {
	case m.Rule < 0:
		return "rules table: " + m.Why, false
	case v != nil:
		return "rules table: " + t.ExplainVerdictFull(v), v.Fails()
	}
	return "rules table: " + t.Rules[m.Rule].Name() + ": " + pendingOutcome(c.Opts(), d.verdictErr, r.predictionOf(d.loc.QMgr, d.loc.Queue)), false
}

// predictionOf is the queue's prediction, nil when none was asked for.
func (r *rulesTable) predictionOf(qm, queue string) *model.Prediction {
	if r == nil {
		return nil
	}
	return r.pred.Of(model.QueueRef{QMgr: qm, Queue: queue})
}

// pendingOutcome says why a rule's outcome is not shown yet.
func pendingOutcome(opt *Options, err error, p *model.Prediction) string {
	switch {
	case opt.Rules == nil:
		return "its outcome is not predicted (no connection for a dry run)"
	case err != nil:
		return "cannot predict what it would do: " + err.Error()
	case p != nil && p.Err != nil:
		return "cannot predict what it would do: " + p.Err.Error()
	}
	return "predicting what it would do…"
}
