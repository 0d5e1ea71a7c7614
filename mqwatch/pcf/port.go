package pcf

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/poisonwatch/poisonwatch/codec/mqfmt"
	"github.com/poisonwatch/poisonwatch/mqwatch"
)

// Default queues of a PCF conversation.
const (
	DefaultCommandQueue = "SYSTEM.ADMIN.COMMAND.QUEUE"
	DefaultReplyModel   = "SYSTEM.DEFAULT.MODEL.QUEUE"
)

// ReplyQueuePattern names the dynamic reply queues this tool creates. The
// watcher recognises its own replies by it (mqwatch.IsToolReply).
const ReplyQueuePattern = mqwatch.ToolReplyQPrefix + "*"

// ReplyModelPolicy is what a reply queue of definition type dt needs when it
// is closed: a temporary dynamic queue is deleted by MQCLOSE itself, a
// permanent dynamic one only with MQCO_DELETE_PURGE (deletePurge), or it
// stays behind, one per connection. canDelete says whether the caller can
// close with MQCO_DELETE_PURGE; when it cannot, a permanent dynamic model is
// refused with an error that says what to use instead.
func ReplyModelPolicy(model string, dt mqwatch.DefType, canDelete bool) (deletePurge bool, err error) {
	switch {
	case dt == mqwatch.TemporaryDynamic:
		return false, nil
	case dt == mqwatch.PermanentDynamic && canDelete:
		return true, nil
	}
	return false, fmt.Errorf("PCF reply model %s creates %s queues that would outlive every connection: "+
		"use a DEFTYPE(TEMPDYN) model such as %s", model, defTypeName(dt), DefaultReplyModel)
}

func defTypeName(dt mqwatch.DefType) string {
	if dt == mqwatch.PermanentDynamic {
		return "DEFTYPE(PERMDYN)"
	}
	return "predefined"
}

// PortTransport is a PCF conversation over a port connection: what lets the
// PCF path run against any mqwatch.Conn, the embedded queue manager's
// command server included.
type PortTransport struct {
	cmd, reply mqwatch.Queue
}

var _ Transport = (*PortTransport)(nil)

// OpenPort opens the command queue for output and a dynamic reply queue from
// model. The port cannot close with MQCO_DELETE_PURGE, so a permanent
// dynamic model is refused.
func OpenPort(ctx context.Context, c mqwatch.Conn, commandQ, model string) (*PortTransport, error) {
	reply, err := c.Open(ctx, mqwatch.ObjectDesc{Name: model, DynamicName: ReplyQueuePattern},
		mqwatch.OpenOptions{Input: true, Inquire: true})
	if err != nil {
		return nil, err
	}
	info, err := reply.Inquire(ctx)
	if err == nil {
		_, err = ReplyModelPolicy(model, info.DefType, false)
	}
	if err != nil {
		return nil, errors.Join(err, reply.Close(ctx))
	}
	cmd, err := c.Open(ctx, mqwatch.ObjectDesc{Name: commandQ}, mqwatch.OpenOptions{Output: true})
	if err != nil {
		return nil, errors.Join(err, reply.Close(ctx))
	}
	return &PortTransport{cmd: cmd, reply: reply}, nil
}

// ReplyQueue names the dynamic reply queue.
func (t *PortTransport) ReplyQueue() string { return t.reply.Name() }

// Put puts a request with a new MsgId.
func (t *PortTransport) Put(ctx context.Context, md *mqfmt.MQMD, data []byte) error {
	return t.cmd.Put(ctx, md, data, mqwatch.PutOptions{NewMsgId: true})
}

// Get gets the reply with CorrelId correlID, whole.
func (t *PortTransport) Get(ctx context.Context, correlID [24]byte, wait time.Duration, _ int) (mqwatch.Message, error) {
	return t.reply.Get(ctx, mqwatch.GetOptions{CorrelId: &correlID, Wait: wait})
}

// Close closes both queues; closing the reply queue deletes it.
func (t *PortTransport) Close(ctx context.Context) error {
	return errors.Join(t.reply.Close(ctx), t.cmd.Close(ctx))
}

// Connector wraps a port Connector so that the inquiries of its connections
// (Queues, QueueStatus, Handles) go through PCF to the queue manager's
// command server, exactly as the IBM MQ backend's do. Used with the embedded
// queue manager's command server, it runs the backend's PCF path end to end.
type Connector struct {
	mqwatch.Connector
	CommandQueue string        // DefaultCommandQueue when ""
	ReplyModel   string        // DefaultReplyModel when ""
	Wait         time.Duration // 5s when 0
	Loc          *time.Location
}

// Connect connects and wraps the connection.
func (p *Connector) Connect(ctx context.Context, opts mqwatch.ConnectOptions) (mqwatch.Conn, error) {
	c, err := p.Connector.Connect(ctx, opts)
	if err != nil {
		return nil, err
	}
	return &Conn{Conn: c, cfg: p}, nil
}

// Conn is a port connection whose inquiries go through PCF. Its transport
// opens on first use and closes with the connection.
type Conn struct {
	mqwatch.Conn
	cfg *Connector
	t   *PortTransport
}

func (c *Conn) client(ctx context.Context) (*Client, error) {
	if c.t == nil {
		cmdQ, model := c.cfg.CommandQueue, c.cfg.ReplyModel
		if cmdQ == "" {
			cmdQ = DefaultCommandQueue
		}
		if model == "" {
			model = DefaultReplyModel
		}
		t, err := OpenPort(ctx, c.Conn, cmdQ, model)
		if err != nil {
			return nil, err
		}
		c.t = t
	}
	wait := c.cfg.Wait
	if wait <= 0 {
		wait = 5 * time.Second
	}
	return &Client{T: c.t, Wait: wait, Loc: c.cfg.Loc}, nil
}

// Queues is DISPLAY QUEUE through PCF.
func (c *Conn) Queues(ctx context.Context, pattern string) ([]mqwatch.QueueInfo, error) {
	cl, err := c.client(ctx)
	if err != nil {
		return nil, err
	}
	return cl.Queues(ctx, pattern)
}

// QueueStatus is DISPLAY QSTATUS TYPE(QUEUE) through PCF.
func (c *Conn) QueueStatus(ctx context.Context, pattern string) ([]mqwatch.QueueStatus, error) {
	cl, err := c.client(ctx)
	if err != nil {
		return nil, err
	}
	return cl.QueueStatus(ctx, pattern)
}

// Handles is DISPLAY QSTATUS TYPE(HANDLE) through PCF.
func (c *Conn) Handles(ctx context.Context, queue string) ([]mqwatch.Handle, error) {
	cl, err := c.client(ctx)
	if err != nil {
		return nil, err
	}
	return cl.Handles(ctx, queue)
}

// Close closes the PCF queues, then the connection.
func (c *Conn) Close() error {
	var errs []error
	if c.t != nil {
		errs = append(errs, c.t.Close(context.Background()))
		c.t = nil
	}
	return errors.Join(append(errs, c.Conn.Close())...)
}
