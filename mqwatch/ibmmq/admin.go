//go:build ibmmq

package ibmmq

import (
	"context"
	"errors"
	"fmt"
	"time"

	mq "github.com/ibm-messaging/mq-golang/v5/ibmmq"

	"github.com/poisonwatch/poisonwatch/mqwatch"
	"github.com/poisonwatch/poisonwatch/mqwatch/mqfmt"
)

// zosCommandQueue is where z/OS's command server reads PCF.
const zosCommandQueue = "SYSTEM.COMMAND.INPUT"

// initialReplyBuffer fits most PCF replies; a larger one is read again with a
// buffer of its full length (a reply larger than the buffer must not be cut:
// mq-golang issue #209).
const initialReplyBuffer = 64 << 10

// adminQueues are the handles of the PCF conversation: the command queue and a
// temporary dynamic reply queue created from the model queue. Closing the
// reply queue deletes it.
type adminQueues struct {
	cmd   mq.MQObject
	reply mq.MQObject
}

func (a *adminQueues) close(c *conn) error {
	var errs []error
	if err := a.reply.Close(coNone); err != nil {
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
	od = mq.NewMQOD()
	od.ObjectType = otQ
	od.ObjectName = c.b.s.ReplyModel
	od.DynamicQName = "POISONWATCH.*"
	reply, err := c.qm.Open(od, ooInputExclusive|ooFailIfQuiescing)
	if err != nil {
		_ = cmd.Close(coNone)
		return nil, c.fail("MQOPEN", c.b.s.ReplyModel, err)
	}
	c.admin = &adminQueues{cmd: cmd, reply: reply}
	return c.admin, nil
}

// pcf sends one PCF command and collects its replies. verb names the command
// in errors; empty lists the reasons that mean "nothing found".
func (c *conn) pcf(ctx context.Context, verb, object string, command int32, params []pcfParam, empty []int32) ([]pcfMessage, error) {
	unlock, err := c.enter(ctx, verb, object)
	if err != nil {
		return nil, err
	}
	defer unlock()
	a, err := c.adminLocked()
	if err != nil {
		return nil, err
	}
	deadline := time.Now().Add(c.b.s.CommandWait)
	if dl, ok := ctx.Deadline(); ok && dl.Before(deadline) {
		deadline = dl
	}
	msgID, err := c.putCommand(a, verb, object, command, params)
	if err != nil {
		return nil, err
	}
	set := replySet{verb: verb, object: object}
	for !set.done {
		m, err := c.getReply(ctx, a, msgID, deadline, verb, object)
		if err != nil {
			return nil, err
		}
		set.add(m)
	}
	return set.result(empty...)
}

// putCommand puts the command as a request whose replies come to the reply
// queue with the command's MsgId as CorrelId. It expires, and asks its replies
// to expire, after the command wait: an answer nobody waits for any more must
// not pile up.
func (c *conn) putCommand(a *adminQueues, verb, object string, command int32, params []pcfParam) ([]byte, error) {
	enc := mqfmt.Encoding(mq.MQENC_NATIVE)
	bo, err := enc.ByteOrder()
	if err != nil {
		return nil, fmt.Errorf("%s %s: %w", verb, object, err)
	}
	data, err := encodeCommand(bo, command, params)
	if err != nil {
		return nil, fmt.Errorf("%s %s: %w", verb, object, err)
	}
	md := mq.NewMQMD()
	md.Format = mq.MQFMT_ADMIN
	md.MsgType = mtRequest
	md.Encoding = int32(enc)
	md.ReplyToQ = a.reply.Name
	md.Report = roPassDiscardAndExpiry
	md.Expiry = int32(c.b.s.CommandWait/(100*time.Millisecond)) + 50
	pmo := mq.NewMQPMO()
	pmo.Options = pmoNoSyncpoint | pmoNewMsgID | pmoNewCorrelID | pmoFailIfQuiescing
	if err := a.cmd.Put(md, pmo, data); err != nil {
		return nil, c.fail("MQPUT", a.cmd.Name, err)
	}
	return md.MsgId, nil
}

// getReply reads the next reply to the command with MsgId msgID, converted to
// UTF-8 and this machine's encoding, and decodes it in the byte order its MQMD
// names (a queue manager that could not convert sends its own).
func (c *conn) getReply(ctx context.Context, a *adminQueues, msgID []byte, deadline time.Time, verb, object string) (pcfMessage, error) {
	wait := time.Until(deadline)
	ms, err := waitMillis(ctx, wait)
	if err != nil || ms <= 0 {
		return pcfMessage{}, fmt.Errorf("%s %s: no reply from the command server within %s: %w", verb, object, c.b.s.CommandWait, orTimeout(err))
	}
	size := initialReplyBuffer
	for range 2 {
		md := mq.NewMQMD()
		md.CorrelId = append([]byte(nil), msgID...)
		md.CodedCharSetId = mqfmt.CCSIDUTF8
		gmo := mq.NewMQGMO()
		gmo.Version = gmoVersion4
		gmo.Options = gmoNoSyncpoint | gmoWait | gmoConvert | gmoFailIfQuiescing
		gmo.MatchOptions = moMatchCorrelID
		gmo.WaitInterval = ms
		buf, full, err := a.reply.GetSlice(md, gmo, make([]byte, 0, size))
		if rc := reasonIn(err); rc == rcTruncatedFailed {
			if size, err = growBuffer(full, c.maxMsgLen()); err != nil {
				return pcfMessage{}, fmt.Errorf("%s %s: reply: %w", verb, object, err)
			}
			continue
		} else if rc == mqfmt.RCNoMsgAvailable {
			return pcfMessage{}, fmt.Errorf("%s %s: no reply from the command server within %s (is it running? strmqcsv): %w",
				verb, object, c.b.s.CommandWait, c.fail("MQGET", a.reply.Name, err))
		} else if rc == rcNotConverted {
			return pcfMessage{}, fmt.Errorf("%s %s: reply in CCSID %d could not be converted to UTF-8: %w",
				verb, object, md.CodedCharSetId, c.fail("MQGET", a.reply.Name, err))
		} else if err != nil {
			return pcfMessage{}, c.fail("MQGET", a.reply.Name, err)
		}
		bo, err := mqfmt.Encoding(md.Encoding).ByteOrder()
		if err != nil {
			return pcfMessage{}, fmt.Errorf("%s %s: reply: %w", verb, object, err)
		}
		m, err := decodePCF(buf, bo)
		if err != nil {
			return pcfMessage{}, fmt.Errorf("%s %s: reply: %w", verb, object, err)
		}
		return m, nil
	}
	return pcfMessage{}, fmt.Errorf("%s %s: reply kept growing while being read", verb, object)
}

func orTimeout(err error) error {
	if err != nil {
		return err
	}
	return context.DeadlineExceeded
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
func (c *conn) Queues(ctx context.Context, pattern string) ([]mqwatch.QueueInfo, error) {
	ms, err := c.pcf(ctx, "MQCMD_INQUIRE_Q", pattern, cmdInquireQ, inquireQueueParams(pattern), emptyReasons(pattern, false))
	if err != nil {
		return nil, err
	}
	out := make([]mqwatch.QueueInfo, 0, len(ms))
	for i := range ms {
		q, err := queueInfoFrom(&ms[i])
		if err != nil {
			return nil, fmt.Errorf("MQCMD_INQUIRE_Q %s: %w", pattern, err)
		}
		out = append(out, q)
	}
	return out, nil
}

// QueueStatus is DISPLAY QSTATUS(pattern) TYPE(QUEUE) (MQCMD_INQUIRE_Q_STATUS).
func (c *conn) QueueStatus(ctx context.Context, pattern string) ([]mqwatch.QueueStatus, error) {
	ms, err := c.pcf(ctx, "MQCMD_INQUIRE_Q_STATUS", pattern, cmdInquireQStatus,
		inquireQueueStatusParams(pattern), emptyReasons(pattern, isGeneric(pattern)))
	if err != nil {
		return nil, err
	}
	out := make([]mqwatch.QueueStatus, 0, len(ms))
	for i := range ms {
		s, err := queueStatusFrom(&ms[i], c.b.loc)
		if err != nil {
			return nil, fmt.Errorf("MQCMD_INQUIRE_Q_STATUS %s: %w", pattern, err)
		}
		out = append(out, s)
	}
	return out, nil
}

// Handles is DISPLAY QSTATUS(queue) TYPE(HANDLE).
func (c *conn) Handles(ctx context.Context, queue string) ([]mqwatch.Handle, error) {
	ms, err := c.pcf(ctx, "MQCMD_INQUIRE_Q_STATUS", queue, cmdInquireQStatus,
		inquireHandlesParams(queue), emptyReasons(queue, true))
	if err != nil {
		return nil, err
	}
	out := make([]mqwatch.Handle, 0, len(ms))
	for i := range ms {
		h, err := handleFrom(&ms[i])
		if err != nil {
			return nil, fmt.Errorf("MQCMD_INQUIRE_Q_STATUS %s TYPE(HANDLE): %w", queue, err)
		}
		out = append(out, h)
	}
	return out, nil
}
