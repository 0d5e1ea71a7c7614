package mqwatch

import (
	"context"

	"github.com/poisonwatch/poisonwatch/codec/mqfmt"
)

// counter tallies what a poll costs: MQI calls and bytes returned. The watcher
// reports it in every snapshot so an operator can see the load it adds.
type counter struct {
	calls int
	bytes int64
}

// countingConn wraps a Conn to count calls and to tell the watcher which
// call is in flight (callWatch). It is used by one goroutine.
type countingConn struct {
	Conn
	c *counter
	w *callWatch
}

func (cc countingConn) QMgr(ctx context.Context) (QMgrInfo, error) {
	cc.c.calls++
	cc.w.begin("MQINQ")
	defer cc.w.end()
	return cc.Conn.QMgr(ctx)
}

func (cc countingConn) Queues(ctx context.Context, pattern string) ([]QueueInfo, error) {
	cc.c.calls++
	cc.w.begin("INQUIRE_Q")
	q, err := cc.Conn.Queues(ctx, pattern)
	cc.w.end()
	cc.c.bytes += int64(len(q)) * pcfQueueBytes
	return q, err
}

func (cc countingConn) QueueStatus(ctx context.Context, pattern string) ([]QueueStatus, error) {
	cc.c.calls++
	cc.w.begin("INQUIRE_Q_STATUS")
	s, err := cc.Conn.QueueStatus(ctx, pattern)
	cc.w.end()
	cc.c.bytes += int64(len(s)) * pcfStatusBytes
	return s, err
}

func (cc countingConn) Handles(ctx context.Context, queue string) ([]Handle, error) {
	cc.c.calls++
	cc.w.begin("INQUIRE_Q_STATUS TYPE(HANDLE)")
	defer cc.w.end()
	return cc.Conn.Handles(ctx, queue)
}

func (cc countingConn) Open(ctx context.Context, od ObjectDesc, opts OpenOptions) (Queue, error) {
	cc.c.calls++
	cc.w.begin("MQOPEN")
	q, err := cc.Conn.Open(ctx, od, opts)
	cc.w.end()
	if err != nil {
		return nil, err
	}
	return countingQueue{Queue: q, c: cc.c, w: cc.w}, nil
}

// Rough sizes of one PCF response group, for the bytes estimate of inquiries.
const (
	pcfQueueBytes  = 600
	pcfStatusBytes = 250
)

type countingQueue struct {
	Queue
	c *counter
	w *callWatch
}

func (cq countingQueue) Browse(ctx context.Context, opts BrowseOptions) (Message, error) {
	cq.c.calls++
	cq.w.begin("MQGET")
	m, err := cq.Queue.Browse(ctx, opts)
	cq.w.end()
	if err == nil {
		cq.c.bytes += int64(mqfmt.MQMDLenV2 + len(m.Data))
	}
	return m, err
}

func (cq countingQueue) Get(ctx context.Context, opts GetOptions) (Message, error) {
	cq.c.calls++
	cq.w.begin("MQGET")
	m, err := cq.Queue.Get(ctx, opts)
	cq.w.end()
	if err == nil {
		cq.c.bytes += int64(mqfmt.MQMDLenV2 + len(m.Data))
	}
	return m, err
}

func (cq countingQueue) Close(ctx context.Context) error {
	cq.c.calls++
	cq.w.begin("MQCLOSE")
	defer cq.w.end()
	return cq.Queue.Close(ctx)
}
