//go:build ibmmq

package ibmmq

import (
	"context"
	"fmt"
	"time"

	"github.com/poisonwatch/poisonwatch/codec/mqfmt"
	"github.com/poisonwatch/poisonwatch/mqwatch"
	"github.com/poisonwatch/poisonwatch/mqwatch/pcf"
)

// DoctorAdmin gives `poisonwatch doctor` a PCF client on an IBM MQ
// connection. Each MQPUT and MQGET takes the connection's lock for itself
// only, so the doctor's MQOPEN probes on the same connection run between
// its commands; the admin queues close with the connection.
func DoctorAdmin(ctx context.Context, mc mqwatch.Conn) (*pcf.Client, func() error, error) {
	c, ok := mc.(*conn)
	if !ok {
		return nil, nil, fmt.Errorf("doctor: %T is not an IBM MQ connection", mc)
	}
	t := lockedTransport{c: c}
	if _, err := t.admin(ctx); err != nil {
		return nil, nil, err
	}
	return &pcf.Client{T: t, Wait: c.b.s.CommandWait, Loc: c.b.loc, MaxMsgLen: c.maxMsgLen(), ZOS: c.isZOS()}, func() error { return nil }, nil
}

// lockedTransport is transport with the lock taken per call.
type lockedTransport struct{ c *conn }

func (t lockedTransport) admin(ctx context.Context) (func(), error) {
	unlock, err := t.c.enter(ctx, "MQOPEN", t.c.b.s.CommandQueue)
	if err != nil {
		return nil, err
	}
	if _, err := t.c.adminLocked(); err != nil {
		unlock()
		return nil, err
	}
	return unlock, nil
}

func (t lockedTransport) ReplyQueue() string {
	if t.c.admin == nil {
		return ""
	}
	return t.c.admin.reply.Name
}

func (t lockedTransport) Put(ctx context.Context, md *mqfmt.MQMD, data []byte) error {
	unlock, err := t.admin(ctx)
	if err != nil {
		return err
	}
	defer unlock()
	return transport{c: t.c, a: t.c.admin}.Put(ctx, md, data)
}

func (t lockedTransport) Get(ctx context.Context, correlID [24]byte, wait time.Duration, size int) (mqwatch.Message, error) {
	unlock, err := t.admin(ctx)
	if err != nil {
		return mqwatch.Message{}, err
	}
	defer unlock()
	return transport{c: t.c, a: t.c.admin}.Get(ctx, correlID, wait, size)
}
