package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/poisonwatch/poisonwatch/actions"
	"github.com/poisonwatch/poisonwatch/actions/ops"
	"github.com/poisonwatch/poisonwatch/backend/embedded"
	"github.com/poisonwatch/poisonwatch/codec/mqfmt"
	"github.com/poisonwatch/poisonwatch/mqwatch"
)

// --create-like is the dashboard's ctrl+n in a target input, for move and
// requeue: park the messages on a queue that does not exist yet. The queue
// is defined LIKE another (the DEADQ, usually) through the command server
// (MQCMD_COPY_Q, actions.ParkPlan, audited as a fix, R10h) before the first
// message moves; a target that exists already is refused, so no existing
// queue is taken for a new one.

// parkFlags are --create-like and --maxdepth.
type parkFlags struct {
	like     string
	maxDepth int
}

func (p *parkFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&p.like, "create-like", "", "`QUEUE`: define the --to queue first, LIKE this one (DEFINE QLOCAL LIKE through the command server, audited); refused when --to exists")
	fs.IntVar(&p.maxDepth, "maxdepth", 0, "with --create-like: MAXDEPTH of the new queue (default: the LIKE queue's)")
}

// checkPark refuses --create-like where it cannot mean anything.
func (a *actionFlags) checkPark() error {
	p := &a.park
	switch {
	case p.like == "" && p.maxDepth != 0:
		return errors.New("--maxdepth goes with --create-like")
	case p.like == "":
		return nil
	case a.to == "":
		return errors.New("--create-like defines the --to queue: give --to")
	case a.toQMgr != "":
		return errors.New("--create-like defines the queue on --qmgr; --to-qmgr names another queue manager")
	case p.maxDepth < 0:
		return fmt.Errorf("--maxdepth %d: want 1 or more", p.maxDepth)
	}
	return nil
}

// parked is the define --create-like planned and, unless a dry run, applied.
type parked struct {
	Plan   actions.FixPlan   `json:"plan"`
	Result ops.FixResult     `json:"result"`
	queue  mqwatch.QueueInfo // the queue as it will be: LIKE's attributes, the MAXDEPTH, empty
}

// planPark is the define --create-like asks for, checked against the queue
// manager as it is now: the target must not exist, the LIKE queue must be
// a local queue. The target's name is made upper case, as MQSC makes an
// unquoted name, and the request moves to it.
func planPark(ctx context.Context, conn mqwatch.Connector, a *actionFlags) (*parked, error) {
	c, err := conn.Connect(ctx, mqwatch.ConnectOptions{ApplName: "poisonwatch"})
	if err != nil {
		return nil, err
	}
	defer c.Close()
	qmi, err := c.QMgr(ctx)
	if err != nil {
		return nil, err
	}
	qs, err := c.Queues(ctx, "*")
	if err != nil {
		return nil, err
	}
	name, like := strings.TrimSpace(a.to), strings.TrimSpace(a.park.like)
	var likeQ mqwatch.QueueInfo
	for _, q := range qs {
		switch q.Name {
		case name:
			return nil, fmt.Errorf("--create-like: %s already exists on %s: nothing is defined; drop --create-like to %s to it", name, qmi.Name, a.req.Op)
		case like:
			likeQ = q
		}
	}
	depth := a.park.maxDepth
	if depth == 0 {
		depth = positiveOr(int(likeQ.MaxDepth), 5000) // 5000: IBM MQ's default for a new local queue
	}
	plan, err := actions.ParkPlan(actions.ParkInput{QMgr: qmi, Queues: qs, Name: name, Like: like, MaxDepth: depth})
	if err != nil {
		return nil, fmt.Errorf("--create-like: %w", err)
	}
	a.req.Target = name
	q := likeQ
	q.Name, q.MaxDepth = name, int32(depth)
	return &parked{Plan: plan, queue: q}, nil
}

func positiveOr(v, otherwise int) int {
	if v > 0 {
		return v
	}
	return otherwise
}

// definePark plans the define and, unless a dry run, sends it through the
// command server (the embedded queue manager's is started for it, as fix
// starts it). A dry run's engine sees the queue as it will be
// (plannedConnector), so its plan is the move's once the queue exists.
func definePark(ctx context.Context, a *actionFlags, conn mqwatch.Connector, qm *embedded.QMgr) (mqwatch.Connector, *parked, error) {
	if a.park.like == "" {
		return conn, nil, nil
	}
	p, err := planPark(ctx, conn, a)
	if err != nil {
		return conn, nil, err
	}
	if qm != nil {
		srv, err := qm.StartCommandServer()
		if err != nil {
			return conn, p, fmt.Errorf("command server: %w", err)
		}
		defer func() { _ = srv.Stop() }()
	}
	eng, err := ops.NewEngine(ops.EngineOptions{Connector: conn, QMgr: a.backend.qmgr, AuditPath: a.auditPath,
		ReadOnly: a.readOnly, Connect: mqwatch.ConnectOptions{ApplName: "poisonwatch " + string(a.req.Op)}})
	if err == nil {
		// The change gate: its dry run predicts the define's answer.
		p.Result, err = eng.ApplyFix(ctx, p.Plan, "", a.req.DryRun)
	}
	if err == nil && a.req.DryRun && !p.Result.WouldApply() {
		return conn, p, fmt.Errorf("--create-like: %s would not be defined: %s", p.queue.Name, firstRefusal(p.Result))
	}
	if err == nil && a.req.DryRun {
		return plannedConnector{Connector: conn, q: p.queue, like: strings.TrimSpace(a.park.like)}, p, nil
	}
	if err != nil {
		return conn, p, fmt.Errorf("--create-like: %s not defined: %s", p.queue.Name, ops.DescribeReason(err))
	}
	return conn, p, nil
}

// writeParked says what --create-like did before the move's own result.
func writeParked(w io.Writer, p *parked) {
	if p == nil {
		return
	}
	verb := "defined"
	if p.Result.DryRun {
		verb = "would define"
	}
	for i, st := range p.Plan.Steps {
		fmt.Fprintf(w, "%s: %s (%s, %s)\n", verb, mqfmt.Sanitize(st.MQSC), st.PCF, mqfmt.Sanitize(st.Authority))
		if p.Result.DryRun && i < len(p.Result.Steps) {
			fmt.Fprintf(w, "  the command server would answer: %s\n", mqfmt.Sanitize(p.Result.Steps[i].Prediction))
		}
	}
	if p.Result.DryRun {
		fmt.Fprintf(w, "the dry run below is of the queue as it will be once defined: %s, empty, MAXDEPTH %d\n", mqfmt.Sanitize(p.queue.Name), p.queue.MaxDepth)
	}
}

// plannedConnector shows a dry run the queue --create-like would define:
// listed with the LIKE queue's attributes, its MAXDEPTH and no messages,
// and opened (the plan's one open of each target) as the LIKE queue, whose
// PUT and authority the new queue copies.
type plannedConnector struct {
	mqwatch.Connector
	q    mqwatch.QueueInfo
	like string
}

func (p plannedConnector) Connect(ctx context.Context, o mqwatch.ConnectOptions) (mqwatch.Conn, error) {
	c, err := p.Connector.Connect(ctx, o)
	if err != nil {
		return nil, err
	}
	return plannedConn{Conn: c, q: p.q, like: p.like}, nil
}

type plannedConn struct {
	mqwatch.Conn
	q    mqwatch.QueueInfo
	like string
}

func (c plannedConn) Queues(ctx context.Context, pattern string) ([]mqwatch.QueueInfo, error) {
	qs, err := c.Conn.Queues(ctx, pattern)
	if err == nil && mqwatch.MatchName(pattern, c.q.Name) {
		qs = append(qs, c.q)
	}
	return qs, err
}

func (c plannedConn) QueueStatus(ctx context.Context, pattern string) ([]mqwatch.QueueStatus, error) {
	st, err := c.Conn.QueueStatus(ctx, pattern)
	if err == nil && mqwatch.MatchName(pattern, c.q.Name) {
		st = append(st, mqwatch.QueueStatus{Name: c.q.Name})
	}
	return st, err
}

func (c plannedConn) Open(ctx context.Context, od mqwatch.ObjectDesc, o mqwatch.OpenOptions) (mqwatch.Queue, error) {
	if od.Name == c.q.Name && !o.Input && !o.Browse {
		od.Name = c.like
	}
	return c.Conn.Open(ctx, od, o)
}

// firstRefusal is the first step a dry run predicts refused.
func firstRefusal(r ops.FixResult) string {
	for _, s := range r.Steps {
		if s.Predicted != 0 {
			return mqfmt.Sanitize(s.Prediction)
		}
	}
	return "no step would be applied"
}
