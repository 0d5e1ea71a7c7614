package actions

import (
	"context"
	"fmt"
	"strings"

	"github.com/poisonwatch/poisonwatch/codec/mqfmt"
	"github.com/poisonwatch/poisonwatch/mqwatch"
)

// Handled is what a consumer did with one message.
type Handled struct {
	MsgId        [24]byte
	BackoutCount int32 // as the message was got
	Fate         Fate
	Queue        string       // where it went, for moves; the input queue otherwise
	Reason       mqfmt.Reason // the MQDLH Reason or report Feedback used
	Why          []Line       // the explanation of every step taken
	// HandlerErr is the handler's error when the application failed and the
	// message was rolled back.
	HandlerErr error
	// ReportErr is set when a report message could be put neither to the
	// ReplyToQ nor to the DEADQ.
	ReportErr error
}

// Poll gets one message and handles it: delivers it to h, or moves poison as
// the style does (R1–R9). A get that finds nothing returns the MQ error
// (MQRC_NO_MSG_AVAILABLE); ErrStopped and ErrPaused say the consumer will
// not deliver any more.
func (c *Consumer) Poll(ctx context.Context, h Handler) (Handled, error) {
	switch {
	case c.stopped:
		return Handled{}, ErrStopped
	case c.paused:
		return Handled{}, ErrPaused
	}
	m, err := c.in.Get(ctx, mqwatch.GetOptions{Syncpoint: true, Wait: c.opts.Wait})
	if err != nil {
		return Handled{}, fmt.Errorf("%s consumer: %w", c.opts.Style, err)
	}
	if m.MD.BackoutCount > 0 && c.opts.Style.jms() && c.cached == nil {
		if err := c.inquire(ctx); err != nil {
			return Handled{}, c.abandon(ctx, fmt.Errorf("%s consumer: R1b inquire: %w", c.opts.Style, err))
		}
	}
	in := c.routeInput(&m)
	r, err := Route(&in)
	if err != nil {
		return Handled{}, c.abandon(ctx, err)
	}
	res := Handled{MsgId: m.MD.MsgId, BackoutCount: m.MD.BackoutCount}
	err = c.execute(ctx, h, &m, &r.Decision, &res)
	return res, err
}

// abandon backs the get out after an error that left the message unhandled.
func (c *Consumer) abandon(ctx context.Context, err error) error {
	if berr := c.conn.Backout(ctx); berr != nil {
		return fmt.Errorf("%w (and backout: %v)", err, berr)
	}
	return err
}

func (c *Consumer) routeInput(m *mqwatch.Message) RouteInput {
	has, broken := inspect(&m.MD, m.Data)
	return RouteInput{
		Message: RouteMessage{MD: m.MD, HasRFH2: has, Length: m.Length,
			// A header chain that does not decode is a message JMS cannot
			// parse; a ConnectionConsumer removes it (R6, 2364).
			Unparseable: broken},
		Queue: c.base,
		QMgr:  c.qmgr,
		Consumer: ConsumerSpec{Style: c.opts.Style, Outcome: c.opts.Outcome, Cached: c.cached,
			Policy: c.opts.Policy, Failures: &c.failures, PauseAfter: c.opts.PauseAfter},
	}
}

// inspect reports whether the data has an MQRFH2 (R5a) and whether its header
// chain fails to decode.
func inspect(md *mqfmt.MQMD, data []byte) (rfh2, broken bool) {
	_, err := mqfmt.WalkChain(md.Format, md.Encoding, md.CodedCharSetId, data)
	return hasRFH2(md, data), err != nil
}

// inquire does what R1b describes: open the input queue (an alias's base
// queue) for inquire, read BOTHRESH and BOQNAME, close it, and cache them for
// the life of the connection. It needs inquire authority (R7a).
func (c *Consumer) inquire(ctx context.Context) error {
	info, path, err := c.lookup(ctx, c.opts.Queue, func(name string) (mqwatch.QueueInfo, error) {
		q, err := c.conn.Open(ctx, mqwatch.ObjectDesc{Name: name}, mqwatch.OpenOptions{Inquire: true})
		if err != nil {
			return mqwatch.QueueInfo{}, err
		}
		info, err := q.Inquire(ctx)
		if cerr := q.Close(ctx); err == nil {
			err = cerr
		}
		return info, err
	})
	if err != nil {
		return err
	}
	c.setBase(info, path)
	c.cached = &CachedAttrs{BackoutThresh: c.base.BackoutThresh, BackoutQName: c.base.BackoutQName}
	return nil
}

// describe reads the input queue's attributes for explanations only, for
// styles that never inquire them (R1f, R9); failures leave them unknown.
func (c *Consumer) describe(ctx context.Context) {
	info, path, err := c.lookup(ctx, c.opts.Queue, func(name string) (mqwatch.QueueInfo, error) {
		qs, err := c.conn.Queues(ctx, name)
		if err != nil || len(qs) != 1 {
			return mqwatch.QueueInfo{}, fmt.Errorf("display queue %s: %d found: %v", name, len(qs), err)
		}
		return qs[0], nil
	})
	if err == nil {
		c.setBase(info, path)
	}
}

// lookup resolves name through at most one alias, as MQOPEN does (an alias
// cannot name another alias).
func (c *Consumer) lookup(ctx context.Context, name string, get func(string) (mqwatch.QueueInfo, error)) (mqwatch.QueueInfo, []string, error) {
	info, err := get(name)
	if err != nil || info.Type != mqwatch.QAlias {
		return info, nil, err
	}
	path := []string{"alias " + name, "base queue " + info.Target}
	base, err := get(info.Target)
	return base, path, err
}

func (c *Consumer) setBase(info mqwatch.QueueInfo, path []string) {
	c.base = InputQueue{Name: c.opts.Queue, Base: info.Name, Path: path,
		BackoutThresh: info.BackoutThresh, BackoutQName: strings.TrimSpace(info.BackoutQName),
		DefPersistent: info.DefPersistent, MaxMsgLen: info.MaxMsgLen}
}
