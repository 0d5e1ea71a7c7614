package ops

import (
	"strings"

	"github.com/poisonwatch/poisonwatch/codec/mqfmt"
	"github.com/poisonwatch/poisonwatch/mqwatch"
)

// landing is where a put to a target lands, as the queue manager resolves
// the name at MQOPEN: an alias to its base, a QREMOTE to RNAME on RQMNAME
// through its transmission queue (or locally when RQMNAME is this queue
// manager), a queue manager alias to the queue manager it names. The gate
// decides on this, never on the name typed: an alias of
// SYSTEM.ADMIN.COMMAND.QUEUE is the command queue.
type landing struct {
	// known is false when the queue list could not be read, or the put
	// leaves by a route not listed here (DEFXMITQ, a cluster): then only
	// the name typed is judged.
	known bool
	// dest and destQMgr are the queue the message ends on: a local queue
	// (destQMgr "") or RNAME on another queue manager.
	dest, destQMgr string
	// path says how the name resolved, for the plan: "alias ADMIN.CMD →
	// SYSTEM.ADMIN.COMMAND.QUEUE".
	path []string
	// names are every queue name met on the way, the typed one first.
	names []string
	// Limits of the queue the put writes to (the local queue, or the
	// transmission queue when it leaves) and the failure known now.
	local, xmitq string
	maxMsgLen    int32
	tempDynamic  bool
	rc           mqfmt.Reason
	why          string
}

// key names the destination: "QUEUE" or "QUEUE@QMGR".
func (l landing) key() string { return opTarget{queue: l.dest, qmgr: l.destQMgr}.key() }

// Reasons of MQOPEN the resolution predicts beyond mqfmt's named ones.
const (
	rcXmitQTypeError   mqfmt.Reason = 2091 // MQRC_XMIT_Q_TYPE_ERROR
	rcXmitQUsageError  mqfmt.Reason = 2092 // MQRC_XMIT_Q_USAGE_ERROR
	rcRemoteQNameError mqfmt.Reason = 2184 // MQRC_REMOTE_Q_NAME_ERROR
	rcUnknownXmitQ     mqfmt.Reason = 2196 // MQRC_UNKNOWN_XMIT_Q
)

// maxHops bounds a resolution: an alias of an alias is refused by IBM MQ,
// a QREMOTE back to this queue manager may name an alias; more is a loop.
const maxHops = 4

// land resolves tg as the local queue manager would open it for output.
func (t *opTargets) land(tg opTarget) landing {
	l := landing{dest: tg.queue, destQMgr: tg.qmgr, names: []string{tg.queue}}
	if t.inv == nil || tg.queue == "" {
		return l
	}
	l.known = true
	name := tg.queue
	if tg.qmgr != "" {
		var local bool
		if name, local = t.landQMgr(&l, tg); !local {
			return l
		}
	}
	for hop := 0; hop < maxHops; hop++ {
		q, ok := t.inv.Queue(name)
		switch {
		case !ok && hop == 0:
			l.rc, l.why = mqfmt.RCUnknownObjectName, name+" does not exist"
			return l
		case !ok:
			l.rc, l.why = mqfmt.RCUnknownAliasBaseQ, "the base queue "+name+" of "+strings.Join(l.path, ", ")+" does not exist"
			return l
		}
		if q.InhibitPut && l.rc == 0 {
			l.rc, l.why = mqfmt.RCPutInhibited, name+" is put-inhibited"
		}
		switch q.Type {
		case mqwatch.QAlias:
			l.path = append(l.path, "alias "+name+" → "+q.Target)
			name = q.Target
			l.names = append(l.names, name)
			continue
		case mqwatch.QLocal:
			l.dest, l.destQMgr, l.local = name, "", name
			l.maxMsgLen, l.tempDynamic = q.MaxMsgLen, q.DefType == mqwatch.TemporaryDynamic
			return l
		case mqwatch.QRemote:
			if next, again := t.landRemote(&l, q); again {
				name = next
				continue
			}
			return l
		}
		l.known = false // a cluster queue hosted elsewhere, a model: not predicted
		l.dest = name
		return l
	}
	l.known, l.dest = false, name
	return l
}

// landRemote follows a QREMOTE definition q: back to a local name when it
// names this queue manager with no transmission queue, else out through its
// transmission queue.
func (t *opTargets) landRemote(l *landing, q mqwatch.QueueInfo) (string, bool) {
	rname, rqm := strings.TrimSpace(q.RemoteName), strings.TrimSpace(q.RemoteQMgr)
	if rname == "" {
		l.rc, l.why = rcRemoteQNameError, q.Name+" is a queue manager alias, not a queue"
		return "", false
	}
	l.path = append(l.path, "remote "+q.Name+" → "+opTarget{queue: rname, qmgr: rqm}.key())
	l.names = append(l.names, rname)
	if (rqm == "" || rqm == t.qmName) && strings.TrimSpace(q.XmitQ) == "" {
		return rname, true
	}
	l.dest, l.destQMgr = rname, rqm
	t.landXmitQ(l, q.XmitQ, rqm, true)
	return "", false
}

// landQMgr resolves the queue manager a target names: a queue manager
// alias (a QREMOTE with a blank RNAME) first, as MQOPEN does. It reports
// the queue name and whether the put stays on this queue manager.
func (t *opTargets) landQMgr(l *landing, tg opTarget) (string, bool) {
	rqm, xq := tg.qmgr, ""
	if a, ok := t.inv.Queue(tg.qmgr); ok && a.Type == mqwatch.QRemote && strings.TrimSpace(a.RemoteName) == "" {
		if r := strings.TrimSpace(a.RemoteQMgr); r != "" {
			rqm = r
		}
		xq = a.XmitQ
		l.path = append(l.path, "queue manager alias "+tg.qmgr+" → "+rqm)
		if a.InhibitPut {
			l.rc, l.why = mqfmt.RCPutInhibited, tg.qmgr+" is put-inhibited"
		}
		if rqm == t.qmName {
			l.destQMgr = ""
			return tg.queue, true
		}
	}
	l.destQMgr = rqm
	t.landXmitQ(l, xq, rqm, false)
	return tg.queue, false
}

// landXmitQ finds the transmission queue a put leaving for rqm goes
// through: xq when given, else the one named after rqm. Neither listed
// means DEFXMITQ or a cluster, which the gate does not predict.
func (t *opTargets) landXmitQ(l *landing, xq, rqm string, explicit bool) {
	xq = strings.TrimSpace(xq)
	named := xq != ""
	if !named {
		xq = rqm
	}
	x, ok := t.inv.Queue(xq)
	switch {
	case !ok && named && explicit:
		l.rc, l.why = rcUnknownXmitQ, "its transmission queue "+xq+" does not exist"
		return
	case !ok:
		l.known = false
		return
	case !named && (x.Type != mqwatch.QLocal || x.Usage != mqwatch.UsageXmitQ):
		l.known = false // not the transmission queue: DEFXMITQ or a cluster
		return
	case x.Type != mqwatch.QLocal:
		l.rc, l.why = rcXmitQTypeError, "its transmission queue "+xq+" is not a local queue"
		return
	case x.Usage != mqwatch.UsageXmitQ:
		l.rc, l.why = rcXmitQUsageError, "its transmission queue "+xq+" is not USAGE(XMITQ)"
		return
	}
	l.path = append(l.path, "through transmission queue "+xq)
	l.xmitq, l.maxMsgLen = xq, x.MaxMsgLen
	if x.InhibitPut && l.rc == 0 {
		l.rc, l.why = mqfmt.RCPutInhibited, "transmission queue "+xq+" is put-inhibited"
	}
}
