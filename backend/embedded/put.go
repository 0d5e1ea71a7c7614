package embedded

import (
	"context"
	"fmt"
	"time"

	"github.com/poisonwatch/poisonwatch/codec/mqfmt"
	"github.com/poisonwatch/poisonwatch/mqwatch"
)

// Put puts one message (MQPUT). md is updated as MQPUT updates the caller's
// MQMD: the generated MsgId, the resolved priority and persistence, and the
// context the queue manager filled in.
func (h *handle) Put(ctx context.Context, md *mqfmt.MQMD, data []byte, opts mqwatch.PutOptions) error {
	end, err := h.c.beginCall(ctx, VerbPut, "MQPUT", h.objectName(), opts.AsyncResponse)
	if err != nil {
		if rc := mqwatch.ReasonOf(err); opts.AsyncResponse && rc != 0 && !connReason(rc) {
			// An injected failure of an asynchronous put is the queue
			// manager's: the client hears of it from MQSTAT.
			h.c.qm.mu.Lock()
			h.c.noteAsync(h.objectName(), rc)
			h.c.qm.mu.Unlock()
			return nil
		}
		return err
	}
	if md == nil {
		err = fmt.Errorf("MQPUT %s: nil message descriptor", h.objectName())
		end(err, 0)
		return err
	}
	qm := h.c.qm
	qm.mu.Lock()
	out, rc := qm.putLocked(h, *md, data, opts)
	if opts.AsyncResponse && !connReason(rc) {
		h.c.noteAsync(h.objectName(), rc)
		rc = 0
	}
	qm.mu.Unlock()
	if rc != 0 {
		err = mqwatch.NewError("MQPUT", h.objectName(), rc)
		end(err, 0)
		return err
	}
	end(nil, 0)
	asked := md.Priority
	*md = out
	if asked > maxPriority {
		// IBM (MQMD Priority): queued at MAXPRTY, MQCC_WARNING with
		// MQRC_PRIORITY_EXCEEDS_MAXIMUM, and the caller's Priority field
		// keeps the value the application gave.
		md.Priority = asked
		return &mqwatch.Error{Verb: "MQPUT", Object: h.objectName(), CC: mqfmt.CCWarning, RC: rcPriorityExceedsMaximum}
	}
	return nil
}

// maxPriority is the queue manager's MAXPRTY: 9 on every platform but z/OS
// (also 9 there).
const maxPriority = 9

func (qm *QMgr) putLocked(h *handle, md mqfmt.MQMD, data []byte, opts mqwatch.PutOptions) (mqfmt.MQMD, mqfmt.Reason) {
	if rc := h.check(); rc != 0 {
		return md, rc
	}
	if !h.opts.Output {
		return md, mqfmt.RCNotOpenForOutput
	}
	if h.obj != nil && h.obj.attrs.PutInhibited {
		return md, mqfmt.RCPutInhibited
	}
	if rc := qm.prepareMD(h, &md, opts); rc != 0 {
		return md, rc
	}
	var u *uow
	if opts.Syncpoint {
		if rc := qm.checkUOWRoom(h.c); rc != 0 {
			return md, rc
		}
		u = &h.c.uow
	}
	switch h.kind {
	case hkTopic:
		return md, qm.publish(h, md, data, u)
	case hkRemote:
		xmd, payload := qm.wrapXmit(md, data, h.remoteQ, h.remoteQMgr)
		_, rc := qm.putMessage(h.q, xmd, payload, u)
		return md, rc
	}
	_, rc := qm.putMessage(h.q, md, data, u)
	return md, rc
}

// putMessage puts a ready message onto local queue q, under u when not nil,
// enforcing the queue's limits. Caller holds mu. data is copied.
func (qm *QMgr) putMessage(q *queue, md mqfmt.MQMD, data []byte, u *uow) (*message, mqfmt.Reason) {
	a := q.attrs
	switch {
	case q.deleted:
		return nil, rcQDeleted
	case a.PutInhibited:
		return nil, mqfmt.RCPutInhibited
	case len(data) > int(qm.attrs.maxMsgLen):
		return nil, mqfmt.RCMsgTooBigForQMgr
	case len(data) > int(a.MaxMsgLen):
		return nil, mqfmt.RCMsgTooBigForQ
	case q.store.depth >= int(a.MaxDepth):
		return nil, mqfmt.RCQFull
	case md.Persistence == mqfmt.PerPersistent && a.DefType == mqwatch.TemporaryDynamic:
		return nil, mqfmt.RCPersistentNotAllowed
	}
	now := qm.now()
	m := &message{md: md, data: append([]byte(nil), data...), enq: now}
	if !a.FIFO {
		m.prio = min(int(md.Priority), maxPriority)
	}
	if md.Expiry > 0 {
		m.expireAt = now.Add(time.Duration(md.Expiry) * 100 * time.Millisecond)
	}
	qm.seq++
	m.seq = qm.seq
	if u != nil {
		m.state, m.owner = stPutPending, u
		u.ops = append(u.ops, uowOp{q: q, m: m, put: true})
	}
	q.store.add(m)
	q.lastPut = now
	if u == nil {
		qm.becameVisible(q, m)
	}
	return m, 0
}

// prepareMD resolves the defaults and fills the fields MQPUT sets: MsgId,
// BackoutCount 0, priority and persistence "as queue definition", ReplyToQMgr,
// and the context according to the context option.
func (qm *QMgr) prepareMD(h *handle, md *mqfmt.MQMD, opts mqwatch.PutOptions) mqfmt.Reason {
	switch {
	case md.Priority == -1:
		md.Priority = h.defPrio
	case md.Priority < -1:
		return rcPriorityError
	}
	// A priority above MAXPRTY is kept in the MQMD (IBM: the Priority field
	// retains the application's value); putMessage queues it at MAXPRTY and
	// Put returns the warning.
	switch md.Persistence {
	case mqfmt.PerPersistenceAsDef:
		md.Persistence = mqfmt.PerNotPersistent
		if h.defPsist {
			md.Persistence = mqfmt.PerPersistent
		}
	case mqfmt.PerNotPersistent, mqfmt.PerPersistent:
	default:
		return rcPersistenceError
	}
	if md.Expiry <= 0 && md.Expiry != -1 {
		return mqfmt.RCExpiryError
	}
	if opts.NewMsgId || md.MsgId == ([24]byte{}) {
		md.MsgId = qm.nextMsgId()
	}
	md.BackoutCount = 0
	if md.CodedCharSetId == 0 {
		// MQCCSI_Q_MGR: the queue manager writes its own CCSID in.
		md.CodedCharSetId = qm.attrs.ccsid
	}
	if rc := qm.setContext(h, md, opts); rc != 0 {
		return rc
	}
	if mqfmt.Trim(md.ReplyToQMgr) == "" {
		md.ReplyToQMgr = qm.replyToQMgr(md.ReplyToQ)
	}
	normalizeMD(md)
	return 0
}

// setContext fills identity and origin context: from the connection
// (default), from the message last got on another handle (pass all), or as
// the caller set it (set all).
func (qm *QMgr) setContext(h *handle, md *mqfmt.MQMD, opts mqwatch.PutOptions) mqfmt.Reason {
	switch opts.Context {
	case mqwatch.ContextSetAll:
		if !h.opts.SetAllContext {
			return rcNotOpenForSetAll
		}
		return 0
	case mqwatch.ContextPassAll:
		if !h.opts.PassAllContext {
			return rcNotOpenForPassAll
		}
		from, ok := opts.ContextFrom.(*handle)
		if !ok || from.c != h.c || !from.opts.SaveAllContext || from.closed {
			return mqfmt.RCContextHandleError
		}
		if from.saved == nil {
			// No message got yet with that handle, or its last successful
			// MQGET was a browse.
			return mqfmt.RCNoContextAvailable
		}
		copyContext(md, from.saved)
		return 0
	}
	now := qm.now().UTC()
	md.UserIdentifier = h.c.identity
	md.AccountingToken = accountingToken(h.c.identity)
	md.ApplIdentityData = ""
	md.PutApplType = mqfmt.ATUnix
	md.PutApplName = putApplName(h.c.applName)
	md.PutDate, md.PutTime = putDateTime(now)
	md.ApplOriginData = ""
	return 0
}

// putDateTime formats a time as MQMD PutDate (YYYYMMDD) and PutTime
// (HHMMSSTH, to the hundredth of a second), in GMT as the queue manager does.
func putDateTime(t time.Time) (string, string) {
	t = t.UTC()
	y, mo, d := t.Date()
	var b [16]byte
	digits := func(at, v, n int) {
		for i := at + n - 1; i >= at; i-- {
			b[i] = byte('0' + v%10)
			v /= 10
		}
	}
	digits(0, y, 4)
	digits(4, int(mo), 2)
	digits(6, d, 2)
	digits(8, t.Hour(), 2)
	digits(10, t.Minute(), 2)
	digits(12, t.Second(), 2)
	digits(14, t.Nanosecond()/10_000_000, 2)
	s := string(b[:])
	return s[:8], s[8:]
}

// putApplName keeps the last 28 characters of a program name, as IBM MQ does
// with a long program path.
func putApplName(s string) string {
	if len(s) > 28 {
		return s[len(s)-28:]
	}
	return s
}

// accountingToken builds the token a UNIX queue manager writes: the length of
// the user identifier, the identifier, zeros, and MQACTT_UNIX (6) last.
func accountingToken(user string) [32]byte {
	var t [32]byte
	if len(user) > 30 {
		user = user[:30]
	}
	t[0] = byte(len(user))
	copy(t[1:], user)
	t[31] = 6
	return t
}

func copyContext(dst, src *mqfmt.MQMD) {
	dst.UserIdentifier, dst.AccountingToken, dst.ApplIdentityData = src.UserIdentifier, src.AccountingToken, src.ApplIdentityData
	dst.PutApplType, dst.PutApplName = src.PutApplType, src.PutApplName
	dst.PutDate, dst.PutTime, dst.ApplOriginData = src.PutDate, src.PutTime, src.ApplOriginData
}

// replyToQMgr resolves a blank ReplyToQMgr: the RQMNAME of a remote queue
// definition named ReplyToQ, else this queue manager.
func (qm *QMgr) replyToQMgr(replyToQ string) string {
	if q := qm.queues[mqfmt.Trim(replyToQ)]; q != nil && q.typ == mqwatch.QRemote && q.attrs.RemoteQMgr != "" {
		return q.attrs.RemoteQMgr
	}
	return qm.name
}

// normalizeMD pads character fields to their MQMD lengths, as a message got
// from IBM MQ has them.
func normalizeMD(md *mqfmt.MQMD) {
	md.Format = padName(md.Format, 8)
	md.ReplyToQ = padName(md.ReplyToQ, 48)
	md.ReplyToQMgr = padName(md.ReplyToQMgr, 48)
	md.UserIdentifier = padName(md.UserIdentifier, 12)
	md.ApplIdentityData = padName(md.ApplIdentityData, 32)
	md.PutApplName = padName(md.PutApplName, 28)
	md.PutDate = padName(md.PutDate, 8)
	md.PutTime = padName(md.PutTime, 8)
	md.ApplOriginData = padName(md.ApplOriginData, 4)
	if md.Version == 0 {
		md.Version = 2
	}
}
