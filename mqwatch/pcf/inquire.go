package pcf

import (
	"context"
	"fmt"

	"github.com/poisonwatch/poisonwatch/mqwatch"
)

// Queues is DISPLAY QUEUE(pattern) (MQCMD_INQUIRE_Q). Objects the command
// server could not report on come back as an *mqwatch.PartialError beside
// the queues it did report.
func (c *Client) Queues(ctx context.Context, pattern string) ([]mqwatch.QueueInfo, error) {
	const verb = "MQCMD_INQUIRE_Q"
	ms, objs, err := c.Run(ctx, verb, pattern, cmdInquireQ, inquireQueueParams(pattern), emptyReasons(pattern, false))
	if err != nil {
		return nil, err
	}
	out := make([]mqwatch.QueueInfo, 0, len(ms))
	for i := range ms {
		q, err := QueueInfoFrom(&ms[i])
		if err != nil {
			return nil, fmt.Errorf("%s %s: %w", verb, pattern, err)
		}
		out = append(out, q)
	}
	return out, partial(verb, pattern, objs)
}

// QueueStatus is DISPLAY QSTATUS(pattern) TYPE(QUEUE) (MQCMD_INQUIRE_Q_STATUS).
func (c *Client) QueueStatus(ctx context.Context, pattern string) ([]mqwatch.QueueStatus, error) {
	const verb = "MQCMD_INQUIRE_Q_STATUS"
	ms, objs, err := c.Run(ctx, verb, pattern, cmdInquireQStatus,
		inquireQueueStatusParams(pattern), emptyReasons(pattern, isGeneric(pattern)))
	if err != nil {
		return nil, err
	}
	out := make([]mqwatch.QueueStatus, 0, len(ms))
	for i := range ms {
		s, err := queueStatusFrom(&ms[i], c.Loc)
		if err != nil {
			return nil, fmt.Errorf("%s %s: %w", verb, pattern, err)
		}
		out = append(out, s)
	}
	return out, partial(verb, pattern, objs)
}

// Handles is DISPLAY QSTATUS(queue) TYPE(HANDLE). The connection id and the
// start of the unit of work are not handle status: they come from one
// DISPLAY CONN(*) TYPE(CONN) (MQCMD_INQUIRE_CONNECTION) when some handle is
// open, and stay unknown when that fails (it needs display authority on the
// queue manager) or a handle's connection cannot be told apart.
func (c *Client) Handles(ctx context.Context, queue string) ([]mqwatch.Handle, error) {
	const verb = "MQCMD_INQUIRE_Q_STATUS"
	ms, objs, err := c.Run(ctx, verb, queue, cmdInquireQStatus, HandleRequest(queue, c.ZOS), emptyReasons(queue, true))
	if err != nil {
		return nil, err
	}
	rows := make([]handleRow, 0, len(ms))
	for i := range ms {
		h, err := handleFrom(&ms[i])
		if err != nil {
			return nil, fmt.Errorf("%s %s TYPE(HANDLE): %w", verb, queue, err)
		}
		rows = append(rows, h)
	}
	if len(rows) > 0 {
		conns, err := c.Connections(ctx)
		if _, err = mqwatch.SplitPartial(err); err != nil && (ctx.Err() != nil || mqwatch.ConnectionLost(mqwatch.ReasonOf(err))) {
			return nil, err
		}
		attachConnections(rows, conns) // after any other failure the fields stay unknown
	}
	out := make([]mqwatch.Handle, len(rows))
	for i := range rows {
		out[i] = rows[i].Handle
	}
	return out, partial(verb, queue, objs)
}

// Connections is DISPLAY CONN(*) TYPE(CONN) with the fields that tie a
// connection to its handles.
func (c *Client) Connections(ctx context.Context) ([]Connection, error) {
	const verb = "MQCMD_INQUIRE_CONNECTION"
	ms, objs, err := c.Run(ctx, verb, "*", cmdInquireConnection, ConnectionRequest(c.ZOS), []int32{rccfNoneFound})
	if err != nil {
		return nil, err
	}
	out := make([]Connection, 0, len(ms))
	for i := range ms {
		if conn, ok := connectionFrom(&ms[i], c.Loc); ok {
			out = append(out, conn)
		}
	}
	return out, partial(verb, "*", objs)
}

// QMgr is DISPLAY QMGR (MQCMD_INQUIRE_Q_MGR) for the facts the port keeps.
func (c *Client) QMgr(ctx context.Context) (mqwatch.QMgrInfo, error) {
	const verb = "MQCMD_INQUIRE_Q_MGR"
	ms, _, err := c.Run(ctx, verb, "", cmdInquireQMgr, []Param{IntList(iacfQMgrAttrs, QMgrSelectors...)}, nil)
	if err != nil {
		return mqwatch.QMgrInfo{}, err
	}
	if len(ms) == 0 {
		return mqwatch.QMgrInfo{}, fmt.Errorf("%s: the command server answered with no queue manager", verb)
	}
	return QMgrInfoFrom(&ms[0])
}
