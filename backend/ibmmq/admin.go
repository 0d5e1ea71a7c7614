//go:build ibmmq

package ibmmq

import (
	"context"
	"errors"
	"time"

	mq "github.com/ibm-messaging/mq-golang/v5/ibmmq"

	"github.com/poisonwatch/poisonwatch/codec/mqfmt"
	"github.com/poisonwatch/poisonwatch/mqwatch"
	"github.com/poisonwatch/poisonwatch/mqwatch/pcf"
)

// zosCommandQueue is where z/OS's command server reads PCF.
const zosCommandQueue = "SYSTEM.COMMAND.INPUT"

// adminQueues are the handles of the PCF conversation: the command queue and
// a dynamic reply queue created from the model queue. Every decision about
// them (request descriptor, reply aggregation, waits, conversion) is in
// package pcf; this file only makes the MQI calls.
type adminQueues struct {
	cmd   mq.MQObject
	reply mq.MQObject
	// replyClose is MQCO_NONE for a temporary dynamic reply queue (MQCLOSE
	// deletes it) and MQCO_DELETE_PURGE for a permanent dynamic one.
	replyClose int32
}

func (a *adminQueues) close(c *conn) error {
	var errs []error
	if err := a.reply.Close(a.replyClose); err != nil {
		errs = append(errs, c.fail("MQCLOSE", a.reply.Name, err))
	}
	if err := a.cmd.Close(coNone); err != nil {
		errs = append(errs, c.fail("MQCLOSE", a.cmd.Name, err))
	}
	return errors.Join(errs...)
}

// adminLocked opens the admin queues on first use. Called with c.mu held.
func (c *conn) adminLocked() (*adminQueues, error) {
	if c.admin != nil {
		return c.admin, nil
	}
	cmdName := c.b.s.CommandQueue
	if info, err := c.qmgrLocked(); err == nil && info.Platform == "ZOS" && cmdName == DefaultCommandQueue {
		cmdName = zosCommandQueue
	} else if err != nil && c.broken {
		return nil, err
	}
	od := mq.NewMQOD()
	od.ObjectType = otQ
	od.ObjectName = cmdName
	cmd, err := c.qm.Open(od, ooOutput|ooFailIfQuiescing)
	if err != nil {
		return nil, c.fail("MQOPEN", cmdName, err)
	}
	reply, closeOpts, err := c.openReplyQueue()
	if err != nil {
		_ = cmd.Close(coNone)
		return nil, err
	}
	c.admin = &adminQueues{cmd: cmd, reply: reply, replyClose: closeOpts}
	return c.admin, nil
}

// openReplyQueue creates the reply queue from the model and reads its
// definition type, which decides how it is closed (pcf.ReplyModelPolicy).
func (c *conn) openReplyQueue() (mq.MQObject, int32, error) {
	model := c.b.s.ReplyModel
	od := mq.NewMQOD()
	od.ObjectType = otQ
	od.ObjectName = model
	od.DynamicQName = pcf.ReplyQueuePattern
	reply, err := c.qm.Open(od, ooInputExclusive|ooInquire|ooFailIfQuiescing)
	if err != nil {
		return reply, 0, c.fail("MQOPEN", model, err)
	}
	vals, err := reply.Inq(pcf.DefTypeSelectors)
	if err != nil {
		_ = reply.Close(coNone)
		return reply, 0, c.fail("MQINQ", reply.Name, err)
	}
	purge, err := pcf.ReplyModelPolicy(model, pcf.DefTypeOf(pcf.InqAttrs(vals)), true)
	if err != nil {
		_ = reply.Close(coNone)
		return reply, 0, err
	}
	if purge {
		return reply, coDeletePurge, nil
	}
	return reply, coNone, nil
}

// transport is the PCF conversation's MQPUT and MQGET, called with c.mu held.
type transport struct {
	c *conn
	a *adminQueues
}

var _ pcf.Transport = transport{}

func (t transport) ReplyQueue() string { return t.a.reply.Name }

func (t transport) Put(_ context.Context, md *mqfmt.MQMD, data []byte) error {
	w := mq.MQMD(toWireMD(md))
	pmo := mq.NewMQPMO()
	pmo.Options = commandPMO
	err := t.a.cmd.Put(&w, pmo, data)
	putWriteBack(md, wireMD(w), completionIn(err))
	if err != nil {
		return t.c.fail("MQPUT", t.a.cmd.Name, err)
	}
	return nil
}

// Get is one MQGET of a reply. A warning (2119, 2120) comes back with the
// unconverted message, which pcf reads by its own Encoding and CCSID.
func (t transport) Get(ctx context.Context, correlID [24]byte, wait time.Duration, size int) (mqwatch.Message, error) {
	ms, err := waitMillis(ctx, wait)
	if err != nil {
		return mqwatch.Message{}, err
	}
	md := mq.MQMD(freshGetMD(getSel{correlID: &correlID}))
	md.CodedCharSetId = mqfmt.CCSIDUTF8
	w := replyGMO(ms)
	gmo := mq.NewMQGMO()
	gmo.Version = gmoVersion4
	gmo.Options, gmo.MatchOptions, gmo.WaitInterval = w.Options, w.MatchOptions, w.WaitInterval
	data, full, err := t.a.reply.GetSlice(&md, gmo, make([]byte, 0, size))
	back := wireMD(md)
	m := mqwatch.Message{MD: fromWireMD(&back), Data: data, Length: full}
	if err != nil {
		return m, t.c.fail("MQGET", t.a.reply.Name, err)
	}
	return m, nil
}

// client runs fn with a PCF client on this connection, holding its lock for
// the whole conversation.
func (c *conn) client(ctx context.Context, verb, object string, fn func(*pcf.Client) error) error {
	unlock, err := c.enter(ctx, verb, object)
	if err != nil {
		return err
	}
	defer unlock()
	a, err := c.adminLocked()
	if err != nil {
		return err
	}
	return fn(&pcf.Client{T: transport{c: c, a: a}, Wait: c.b.s.CommandWait, Loc: c.b.loc, MaxMsgLen: c.maxMsgLen(), ZOS: c.isZOS()})
}

// isZOS reports a z/OS queue manager (known once the queue manager was
// inquired, which adminLocked does first).
func (c *conn) isZOS() bool { return c.qmgrInfo != nil && c.qmgrInfo.Platform == "ZOS" }

// completionIn returns the completion code of an mq-golang call's error:
// MQCC_OK for none, MQCC_FAILED for an error that carries no MQ codes.
func completionIn(err error) int32 {
	var rc *mq.MQReturn
	switch {
	case err == nil:
		return ccOK
	case errors.As(err, &rc):
		return rc.MQCC
	}
	return ccFailed
}

// reasonIn returns the reason code of an mq-golang error, or 0.
func reasonIn(err error) mqfmt.Reason {
	var rc *mq.MQReturn
	if errors.As(err, &rc) {
		return mqfmt.Reason(rc.MQRC)
	}
	return 0
}

// Queues is DISPLAY QUEUE(pattern) through PCF (MQCMD_INQUIRE_Q).
func (c *conn) Queues(ctx context.Context, pattern string) (out []mqwatch.QueueInfo, err error) {
	err = c.client(ctx, "MQCMD_INQUIRE_Q", pattern, func(cl *pcf.Client) (e error) {
		out, e = cl.Queues(ctx, pattern)
		return e
	})
	return out, err
}

// QueueStatus is DISPLAY QSTATUS(pattern) TYPE(QUEUE) (MQCMD_INQUIRE_Q_STATUS).
func (c *conn) QueueStatus(ctx context.Context, pattern string) (out []mqwatch.QueueStatus, err error) {
	err = c.client(ctx, "MQCMD_INQUIRE_Q_STATUS", pattern, func(cl *pcf.Client) (e error) {
		out, e = cl.QueueStatus(ctx, pattern)
		return e
	})
	return out, err
}

// Handles is DISPLAY QSTATUS(queue) TYPE(HANDLE), completed from DISPLAY CONN.
func (c *conn) Handles(ctx context.Context, queue string) (out []mqwatch.Handle, err error) {
	err = c.client(ctx, "MQCMD_INQUIRE_Q_STATUS", queue, func(cl *pcf.Client) (e error) {
		out, e = cl.Handles(ctx, queue)
		return e
	})
	return out, err
}
