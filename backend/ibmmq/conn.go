//go:build ibmmq

package ibmmq

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"

	mq "github.com/ibm-messaging/mq-golang/v5/ibmmq"

	"github.com/poisonwatch/poisonwatch/codec/mqfmt"
	"github.com/poisonwatch/poisonwatch/mqwatch"
	"github.com/poisonwatch/poisonwatch/mqwatch/pcf"
)

// conn is one MQI connection. Its mutex enforces the MQI's one call at a time:
// a call that finds it held fails at once with MQRC_CALL_IN_PROGRESS, which is
// what MQ itself answers on a handle-sharing, non-blocking connection
// (mq-golang's MQCNO_HANDLE_SHARE_NO_BLOCK), and it keeps the Go-side state
// (admin handles, cached facts) free of races.
type conn struct {
	b  *Backend
	mu sync.Mutex // held for the duration of every MQI call on this connection

	qm     mq.MQQueueManager
	broken bool // a reason code said the connection is gone
	closed bool

	qmgrObj  *mq.MQObject // MQOT_Q_MGR opened for inquire, on first use
	qmgrInfo *mqwatch.QMgrInfo
	admin    *adminQueues // PCF command and reply queues, on first use
}

var _ mqwatch.Conn = (*conn)(nil)

func newConn(b *Backend, qm mq.MQQueueManager) *conn { return &conn{b: b, qm: qm} }

// enter starts an MQI call: it fails fast when ctx has ended, when another
// call is in progress, or when the connection is closed or known broken
// (every call would fail, and MQ would answer with a less helpful 2018).
func (c *conn) enter(ctx context.Context, verb, object string) (func(), error) {
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("%s %s: %w", verb, object, err)
	}
	if !c.mu.TryLock() {
		return nil, mqwatch.NewError(verb, object, mqfmt.RCCallInProgress)
	}
	switch {
	case c.closed:
		c.mu.Unlock()
		return nil, mqwatch.NewError(verb, object, mqfmt.RCHconnError)
	case c.broken:
		c.mu.Unlock()
		return nil, mqwatch.NewError(verb, object, mqfmt.RCConnectionBroken)
	}
	return c.mu.Unlock, nil
}

// fail converts an mq-golang error into the port's error and notes a lost
// connection. Called with c.mu held.
func (c *conn) fail(verb, object string, err error) error {
	var rc *mq.MQReturn
	if !errors.As(err, &rc) {
		return fmt.Errorf("%s %s: %w", verb, object, err)
	}
	e := mqErr(verb, object, rc.MQCC, rc.MQRC)
	if mqwatch.ConnectionLost(e.RC) {
		c.broken = true
	}
	return e
}

// QMgr inquires the queue manager object (MQINQ) and caches the answer: its
// name, DEADQ, MAXMSGL, command level and platform change only by ALTER QMGR,
// and a fresh read on every poll would cost a round trip for nothing.
func (c *conn) QMgr(ctx context.Context) (mqwatch.QMgrInfo, error) {
	unlock, err := c.enter(ctx, "MQINQ", c.b.s.QMgr)
	if err != nil {
		return mqwatch.QMgrInfo{}, err
	}
	defer unlock()
	return c.qmgrLocked()
}

func (c *conn) qmgrLocked() (mqwatch.QMgrInfo, error) {
	if c.qmgrInfo != nil {
		return *c.qmgrInfo, nil
	}
	if c.qmgrObj == nil {
		od := mq.NewMQOD()
		od.ObjectType = otQMgr
		obj, err := c.qm.Open(od, ooInquire|ooFailIfQuiescing)
		if err != nil {
			return mqwatch.QMgrInfo{}, c.fail("MQOPEN", c.b.s.QMgr, err)
		}
		c.qmgrObj = &obj
	}
	vals, err := c.qmgrObj.Inq(pcf.QMgrSelectors)
	if err != nil {
		return mqwatch.QMgrInfo{}, c.fail("MQINQ", c.b.s.QMgr, err)
	}
	info, err := pcf.QMgrInfoFrom(pcf.InqAttrs(vals))
	if err != nil {
		return mqwatch.QMgrInfo{}, fmt.Errorf("MQINQ %s: %w", c.b.s.QMgr, err)
	}
	c.qmgrInfo = &info
	return info, nil
}

// maxMsgLen bounds every buffer the connection allocates: the queue manager's
// MAXMSGL when it could be inquired, else MQ's 100 MB ceiling.
func (c *conn) maxMsgLen() int {
	if c.qmgrInfo != nil && c.qmgrInfo.MaxMsgLen > 0 {
		return int(c.qmgrInfo.MaxMsgLen)
	}
	return maxMsgLength
}

// Commit is MQCMIT.
func (c *conn) Commit(ctx context.Context) error {
	unlock, err := c.enter(ctx, "MQCMIT", "")
	if err != nil {
		return err
	}
	defer unlock()
	if err := c.qm.Cmit(); err != nil {
		return c.fail("MQCMIT", "", err)
	}
	return nil
}

// Backout is MQBACK.
func (c *conn) Backout(ctx context.Context) error {
	unlock, err := c.enter(ctx, "MQBACK", "")
	if err != nil {
		return err
	}
	defer unlock()
	if err := c.qm.Back(); err != nil {
		return c.fail("MQBACK", "", err)
	}
	return nil
}

// AsyncStatus is MQSTAT(MQSTAT_TYPE_ASYNC_ERROR); the queue manager resets
// the counts it returns.
func (c *conn) AsyncStatus(ctx context.Context) (mqwatch.AsyncStatus, error) {
	unlock, err := c.enter(ctx, "MQSTAT", "")
	if err != nil {
		return mqwatch.AsyncStatus{}, err
	}
	defer unlock()
	sts := mq.NewMQSTS()
	if err := c.qm.Stat(statTypeAsyncError, sts); err != nil {
		return mqwatch.AsyncStatus{}, c.fail("MQSTAT", "", err)
	}
	s := mqwatch.AsyncStatus{Succeeded: int(sts.PutSuccessCount), Warnings: int(sts.PutWarningCount),
		Failed: int(sts.PutFailureCount)}
	if sts.Reason != 0 {
		s.Reason, s.Object = mqfmt.Reason(sts.Reason), strings.TrimRight(sts.ObjectName, " ")
	}
	return s, nil
}

// Close backs out any open unit of work, closes the admin handles (deleting
// the temporary reply queue) and disconnects. The explicit MQBACK matters:
// on IBM MQ for Multiplatforms a plain MQDISC commits pending work, while the
// port promises a back-out, so that a batch interrupted mid-way is never half
// committed. Close waits for a call in progress to end rather than failing it.
func (c *conn) Close() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.closed {
		return nil
	}
	c.closed = true
	if c.broken {
		_ = c.qm.Disc() // frees the library's resources; the reason is known already
		return nil
	}
	var errs []error
	if err := c.qm.Back(); err != nil {
		ferr := c.fail("MQBACK", "", err)
		if !c.broken {
			// MQDISC would commit what MQBACK could not back out (MQDISC
			// commits on Multiplatforms). Leave the connection, held by the
			// backend, which retries the back-out before connecting again
			// and opens no more while maxAbandoned are held.
			c.b.abandoned.add(&c.qm, ferr)
			return fmt.Errorf("%w (%d held): %w", errAbandoned, c.b.abandoned.held(), ferr)
		}
		errs = append(errs, ferr)
	}
	if c.admin != nil {
		errs = append(errs, c.admin.close(c))
	}
	if c.qmgrObj != nil {
		if err := c.qmgrObj.Close(coNone); err != nil {
			errs = append(errs, c.fail("MQCLOSE", c.b.s.QMgr, err))
		}
	}
	if err := c.qm.Disc(); err != nil {
		errs = append(errs, c.fail("MQDISC", c.b.s.QMgr, err))
	}
	return errors.Join(errs...)
}

// Open is MQOPEN.
func (c *conn) Open(ctx context.Context, od mqwatch.ObjectDesc, opts mqwatch.OpenOptions) (mqwatch.Queue, error) {
	name := od.Name
	if od.Topic != "" {
		name = od.Topic
	}
	unlock, err := c.enter(ctx, "MQOPEN", name)
	if err != nil {
		return nil, err
	}
	defer unlock()
	mqod := mq.NewMQOD()
	mqod.ObjectType = otQ
	mqod.ObjectName = od.Name
	mqod.ObjectQMgrName = od.QMgr
	if od.DynamicName != "" {
		mqod.DynamicQName = od.DynamicName
	}
	if opts.AlternateUserAuthority {
		mqod.AlternateUserId = od.AlternateUserId
	}
	if od.Topic != "" {
		mqod.ObjectType = otTopic
		mqod.ObjectString = od.Topic
	}
	obj, err := c.qm.Open(mqod, openOptions(opts))
	if err != nil {
		return nil, c.fail("MQOPEN", name, err)
	}
	// A model queue opens as the dynamic queue it creates: mq-golang reports
	// that queue's name, which is the one every later call must use.
	return &queue{c: c, obj: obj, name: obj.Name}, nil
}

// Subscribe is MQSUB with a managed queue; the returned Queue reads the
// publications and, when closed, closes the subscription handle too (a
// durable subscription stays; a non-durable one ends).
func (c *conn) Subscribe(ctx context.Context, sd mqwatch.SubDesc) (mqwatch.Queue, error) {
	name := sd.TopicString
	if name == "" {
		name = sd.TopicObject
	}
	unlock, err := c.enter(ctx, "MQSUB", name)
	if err != nil {
		return nil, err
	}
	defer unlock()
	mqsd := mq.NewMQSD()
	mqsd.Options = subOptions(sd)
	mqsd.ObjectName = sd.TopicObject
	mqsd.ObjectString = sd.TopicString
	mqsd.SubName = sd.Name
	var managed mq.MQObject // MQHO_NONE: the queue manager opens the managed queue
	sub, err := c.qm.Sub(mqsd, &managed)
	if err != nil {
		return nil, c.fail("MQSUB", name, err)
	}
	return &queue{c: c, obj: managed, name: name, sub: &sub}, nil
}
