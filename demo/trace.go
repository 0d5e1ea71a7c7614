package demo

import (
	"context"

	"github.com/poisonwatch/poisonwatch/codec/mqfmt"
	"github.com/poisonwatch/poisonwatch/mqwatch"
)

// got is what the last destructive get of a poll returned, for accounting:
// the engine's Handled names the MsgId, but a publication copy's MsgId is
// made by the queue manager, so accounting follows ApplIdentityData instead.
type got struct {
	ok    bool
	msgID [24]byte
	ident string
}

// watchedConn is a consumer's connection that remembers the last message a
// get on it returned. It changes nothing the engine sees.
type watchedConn struct {
	mqwatch.Conn
	last got
}

func (c *watchedConn) Open(ctx context.Context, od mqwatch.ObjectDesc, opts mqwatch.OpenOptions) (mqwatch.Queue, error) {
	q, err := c.Conn.Open(ctx, od, opts)
	if err != nil {
		return nil, err
	}
	return &watchedQueue{Queue: q, conn: c}, nil
}

func (c *watchedConn) Subscribe(ctx context.Context, sd mqwatch.SubDesc) (mqwatch.Queue, error) {
	q, err := c.Conn.Subscribe(ctx, sd)
	if err != nil {
		return nil, err
	}
	return &watchedQueue{Queue: q, conn: c}, nil
}

type watchedQueue struct {
	mqwatch.Queue
	conn *watchedConn
}

func (q *watchedQueue) Get(ctx context.Context, opts mqwatch.GetOptions) (mqwatch.Message, error) {
	m, err := q.Queue.Get(ctx, opts)
	if err == nil {
		q.conn.last = got{ok: true, msgID: m.MD.MsgId, ident: mqfmt.Trim(m.MD.ApplIdentityData)}
	}
	return m, err
}

// Put hands the backend its own handle for ContextFrom: passing context
// needs the handle the message was got on, not this wrapper.
func (q *watchedQueue) Put(ctx context.Context, md *mqfmt.MQMD, data []byte, opts mqwatch.PutOptions) error {
	if w, ok := opts.ContextFrom.(*watchedQueue); ok {
		opts.ContextFrom = w.Queue
	}
	return q.Queue.Put(ctx, md, data, opts)
}
