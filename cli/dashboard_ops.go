package cli

import (
	"context"
	"fmt"

	"github.com/poisonwatch/poisonwatch/incident/journal"

	"github.com/poisonwatch/poisonwatch/actions/dlqrules"
	"github.com/poisonwatch/poisonwatch/actions/ops"
	"github.com/poisonwatch/poisonwatch/mqwatch"
)

// engineOps routes the dashboard's reads and actions to the engine of the
// queue manager they concern. Each engine opens its own connections: the
// watchers' connections serve one call at a time and stay theirs.
type engineOps struct {
	engines map[string]*ops.Engine
	conns   map[string]mqwatch.Connector // for the rules predictions' probes
}

func newEngineOps(qmgrs []qmgrConn, readOnly bool, user, auditPath string, j *journal.Journal) (*engineOps, error) {
	o := &engineOps{engines: map[string]*ops.Engine{}, conns: map[string]mqwatch.Connector{}}
	for _, q := range qmgrs {
		o.conns[q.name] = q.conn
		e, err := ops.NewEngine(ops.EngineOptions{Connector: q.conn, QMgr: q.name, ReadOnly: readOnly,
			User: user, AuditPath: auditPath, Connect: mqwatch.ConnectOptions{ApplName: "poisonwatch"}, Journal: j})
		if err != nil {
			return nil, fmt.Errorf("action engine for %s: %w", q.name, err)
		}
		o.engines[q.name] = e
	}
	return o, nil
}

func (o *engineOps) engine(qmgr string) (*ops.Engine, error) {
	e := o.engines[qmgr]
	if e == nil {
		return nil, fmt.Errorf("no action engine for queue manager %q", qmgr)
	}
	return e, nil
}

func (o *engineOps) Fetch(ctx context.Context, qmgr, queue string, s mqwatch.Summary) (mqwatch.Message, error) {
	e, err := o.engine(qmgr)
	if err != nil {
		return mqwatch.Message{}, err
	}
	return e.Fetch(ctx, queue, s)
}

func (o *engineOps) Plan(ctx context.Context, req ops.OpRequest) (ops.OpPlan, error) {
	e, err := o.engine(req.QMgr)
	if err != nil {
		return ops.OpPlan{}, err
	}
	return e.Plan(ctx, req)
}

func (o *engineOps) Run(ctx context.Context, req ops.OpRequest, progress func(ops.OpProgress)) (ops.OpResult, error) {
	e, err := o.engine(req.QMgr)
	if err != nil {
		return ops.OpResult{}, err
	}
	return e.Run(ctx, req, progress)
}

// PredictRules is the rules preview's prediction for messages the dashboard
// lists, on a connection of its own (the watchers' serve one call at a
// time): the same code as `poisonwatch rules preview`, changing nothing.
func (o *engineOps) PredictRules(ctx context.Context, qmgr, queue string, t *dlqrules.Table, msgs []dlqrules.Subject) ([]dlqrules.Verdict, error) {
	src, done, err := o.rulesSource(ctx, qmgr)
	if err != nil {
		return nil, err
	}
	defer done()
	return dlqrules.Predict(ctx, src, t, queue, msgs)
}

// PredictQueue is PredictRules for every message of the queue's inventory,
// kind by kind (dlqrules.PredictInventory), on a connection of its own.
func (o *engineOps) PredictQueue(ctx context.Context, qmgr, queue string, t *dlqrules.Table, inv *mqwatch.Inventory) (*dlqrules.Verdicts, error) {
	src, done, err := o.rulesSource(ctx, qmgr)
	if err != nil {
		return nil, err
	}
	defer done()
	return dlqrules.PredictInventory(ctx, src, t, queue, inv)
}

// rulesSource is qmgr's engine on a connection of the prediction's own,
// and what closes it.
func (o *engineOps) rulesSource(ctx context.Context, qmgr string) (dlqrules.Source, func(), error) {
	e, err := o.engine(qmgr)
	if err != nil {
		return dlqrules.Source{}, nil, err
	}
	c, err := o.conns[qmgr].Connect(ctx, mqwatch.ConnectOptions{ApplName: "poisonwatch rules"})
	if err != nil {
		return dlqrules.Source{}, nil, fmt.Errorf("rules prediction on %s: connect: %w", qmgr, err)
	}
	return dlqrules.Source{Conn: c, Engine: e}, func() { c.Close() }, nil
}
