//go:build ibmmq

package ibmmq

import (
	"context"
	"errors"
	"fmt"
	"time"

	mq "github.com/ibm-messaging/mq-golang/v5/ibmmq"

	"github.com/poisonwatch/poisonwatch/codec/mqfmt"
	"github.com/poisonwatch/poisonwatch/mqwatch"
	"github.com/poisonwatch/poisonwatch/mqwatch/pcf"
)

// initialDataBuffer is the first buffer for a Browse or Get that asked for the
// whole message; a larger message is read again with its full length.
const initialDataBuffer = 64 << 10

// queue is an open object handle. Its calls run on the connection that opened
// it and share that connection's one-call-at-a-time lock.
type queue struct {
	c      *conn
	obj    mq.MQObject
	name   string
	sub    *mq.MQObject // the subscription handle, for a subscription's queue
	closed bool
}

var _ mqwatch.Queue = (*queue)(nil)

func (q *queue) Name() string { return q.name }

func (q *queue) enter(ctx context.Context, verb string) (func(), error) {
	unlock, err := q.c.enter(ctx, verb, q.name)
	if err != nil {
		return nil, err
	}
	if q.closed {
		unlock()
		return nil, mqwatch.NewError(verb, q.name, mqfmt.RCHobjError)
	}
	return unlock, nil
}

// Browse reads one message without removing it. With MaxBytes 0 the whole
// message is returned: it is browsed with a 64 KB buffer accepting truncation,
// and a longer message is read again under the browse cursor with a buffer of
// its full length (so the cursor moves exactly once per Browse).
func (q *queue) Browse(ctx context.Context, o mqwatch.BrowseOptions) (mqwatch.Message, error) {
	unlock, err := q.enter(ctx, "MQGET")
	if err != nil {
		return mqwatch.Message{}, err
	}
	defer unlock()
	auto := o.MaxBytes <= 0
	if auto {
		o.MaxBytes = initialDataBuffer // browse accepting truncation, then re-read below
	}
	m, err := q.waitSliced(ctx, o.Wait, func(ms int32) (mqwatch.Message, error) {
		return q.get(browseGMO(o, ms), getSel{o.MsgId, o.CorrelId, o.Segment}, o.MaxBytes)
	})
	if err != nil || !auto || !m.Truncated() {
		return m, err
	}
	full, err := growBuffer(m.Length, q.c.maxMsgLen())
	if err != nil {
		return mqwatch.Message{}, fmt.Errorf("MQGET %s: %w", q.name, err)
	}
	return q.get(rebrowseGMO(), getSel{}, full)
}

// Get removes one message. With MaxBytes 0 the whole message is returned: a
// get that fails with MQRC_TRUNCATED_MSG_FAILED leaves the message on the
// queue and is retried once with a buffer of its full length.
func (q *queue) Get(ctx context.Context, o mqwatch.GetOptions) (mqwatch.Message, error) {
	unlock, err := q.enter(ctx, "MQGET")
	if err != nil {
		return mqwatch.Message{}, err
	}
	defer unlock()
	auto := o.MaxBytes <= 0
	size := o.MaxBytes
	if auto {
		size = initialDataBuffer
		o.AcceptTruncated = false // the whole message was asked for: never lose data
	}
	m, err := q.waitSliced(ctx, o.Wait, func(ms int32) (mqwatch.Message, error) {
		return q.get(getGMO(o, ms), getSel{o.MsgId, o.CorrelId, o.Segment}, size)
	})
	if !auto || mqwatch.ReasonOf(err) != rcTruncatedFailed {
		return m, err
	}
	full, gerr := growBuffer(m.Length, q.c.maxMsgLen())
	if gerr != nil {
		return mqwatch.Message{}, fmt.Errorf("MQGET %s: %w", q.name, gerr)
	}
	return q.get(getGMO(o, 0), getSel{o.MsgId, o.CorrelId, o.Segment}, full)
}

// waitSlice bounds one MQGET's wait: MQGET cannot be interrupted, so a long
// wait runs as several short ones with the context checked in between, and a
// cancelled context ends it within a slice even without a deadline.
const waitSlice = time.Second

// waitSliced runs get (an MQGET waiting ms milliseconds) until it returns
// something other than 2033, the wait has passed, or ctx ends.
func (q *queue) waitSliced(ctx context.Context, want time.Duration, get func(ms int32) (mqwatch.Message, error)) (mqwatch.Message, error) {
	end := time.Now().Add(want)
	for {
		ms, err := waitMillis(ctx, min(time.Until(end), waitSlice))
		if err != nil {
			return mqwatch.Message{}, fmt.Errorf("MQGET %s: %w", q.name, err)
		}
		m, err := get(ms)
		if mqwatch.ReasonOf(err) != rcNoMsgAvailable || time.Until(end) <= 0 {
			return m, err
		}
	}
}

// get is one MQGET with a fresh MQMD and a buffer of size bytes. A message
// truncated under MQGMO_ACCEPT_TRUNCATED_MSG comes back from mq-golang as an
// MQRC_TRUNCATED_MSG_ACCEPTED error although the data is valid (mq-golang
// issue #205): that is a success here, with Length the full length. After
// MQRC_TRUNCATED_MSG_FAILED the message's Length is still filled in, so the
// caller can retry with the right buffer.
func (q *queue) get(w gmoWords, sel getSel, size int) (mqwatch.Message, error) {
	md := mq.MQMD(freshGetMD(sel))
	gmo := mq.NewMQGMO()
	gmo.Version = gmoVersion4
	gmo.Options = w.Options
	gmo.MatchOptions = w.MatchOptions
	gmo.WaitInterval = w.WaitInterval
	data, full, err := q.obj.GetSlice(&md, gmo, make([]byte, 0, size))
	switch reasonIn(err) {
	case 0:
		if err != nil {
			return mqwatch.Message{}, q.c.fail("MQGET", q.name, err)
		}
	case rcTruncatedAccept:
	case rcTruncatedFailed:
		return mqwatch.Message{Length: full}, q.c.fail("MQGET", q.name, err)
	default:
		return mqwatch.Message{}, q.c.fail("MQGET", q.name, err)
	}
	wm := wireMD(md)
	return mqwatch.Message{MD: fromWireMD(&wm), Data: data, Length: full}, nil
}

// Put is MQPUT. Whenever the message was put, on MQCC_OK and on MQCC_WARNING
// (2049 at MAXPRTY and the like, returned as an error mqwatch.IsWarning
// recognises), md is updated as MQPUT updates the caller's MQMD (MsgId with
// NewMsgId, and the context the queue manager filled in): see putWriteBack.
func (q *queue) Put(ctx context.Context, md *mqfmt.MQMD, data []byte, o mqwatch.PutOptions) error {
	unlock, err := q.enter(ctx, "MQPUT")
	if err != nil {
		return err
	}
	defer unlock()
	opts, err := putPMO(o)
	if err != nil {
		return err
	}
	pmo := mq.NewMQPMO()
	pmo.Options = opts
	if o.Context == mqwatch.ContextPassAll {
		// The context handle must be a handle of this very connection: an hobj
		// number from another connection could name an unrelated object here.
		src, ok := o.ContextFrom.(*queue)
		if !ok || src.c != q.c || src.closed {
			return mqwatch.NewError("MQPUT", q.name, mqfmt.RCContextHandleError)
		}
		pmo.Context = &src.obj
	}
	w := mq.MQMD(toWireMD(md))
	err = q.obj.Put(&w, pmo, data)
	putWriteBack(md, wireMD(w), completionIn(err))
	if err != nil {
		return q.c.fail("MQPUT", q.name, err)
	}
	return nil
}

// Inquire is MQINQ: first the queue type, then the attributes valid for that
// type (see inqSelectors). MONQ is not available through MQINQ: Monitoring
// reads MonQMgr here; Conn.Queues reports the real value.
func (q *queue) Inquire(ctx context.Context) (mqwatch.QueueInfo, error) {
	unlock, err := q.enter(ctx, "MQINQ")
	if err != nil {
		return mqwatch.QueueInfo{}, err
	}
	defer unlock()
	vals, err := q.obj.Inq([]int32{pcf.SelQType})
	if err != nil {
		return mqwatch.QueueInfo{}, q.c.fail("MQINQ", q.name, err)
	}
	if vals, err = q.obj.Inq(pcf.InqSelectors(pcf.QTypeOf(pcf.InqAttrs(vals)))); err != nil {
		return mqwatch.QueueInfo{}, q.c.fail("MQINQ", q.name, err)
	}
	info, err := pcf.QueueInfoFrom(pcf.InqAttrs(vals))
	if err != nil {
		return mqwatch.QueueInfo{}, fmt.Errorf("MQINQ %s: %w", q.name, err)
	}
	return info, nil
}

// Close is MQCLOSE; for a subscription's queue the subscription handle is
// closed first (MQCO_NONE keeps a durable subscription, ends a non-durable
// one). Closing a temporary dynamic queue deletes it, as MQ does.
func (q *queue) Close(ctx context.Context) error {
	unlock, err := q.enter(ctx, "MQCLOSE")
	if err != nil {
		return err
	}
	defer unlock()
	q.closed = true
	var sub objectCloser
	if q.sub != nil {
		sub = q.sub
	}
	subErr, queueErr := closeSubscription(sub, &q.obj)
	var errs []error
	for _, err := range []error{subErr, queueErr} {
		if err != nil {
			errs = append(errs, q.c.fail("MQCLOSE", q.name, err))
		}
	}
	return errors.Join(errs...)
}
