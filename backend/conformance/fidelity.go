package conformance

import (
	"github.com/poisonwatch/poisonwatch/codec/mqfmt"
	"github.com/poisonwatch/poisonwatch/mqwatch"
)

// Behaviours an operator's requeue depends on that are easy to get subtly
// wrong: queue manager aliases, priorities above MAXPRTY, and browse marks
// across a backout.

// qQMgrAlias is a queue manager alias (a QREMOTE with RNAME(' ')) to
// CONFQM2 through CONF.XMITQ, with defaults of its own.
const qQMgrAlias = "CONFQM4"

// A QREMOTE with a blank RNAME is a queue manager alias (IBM MQ "Name
// resolution"): named as ObjectQMgrName it routes the message to its RQMNAME
// through its XMITQ. MQPRI_PRIORITY_AS_Q_DEF and MQPER_PERSISTENCE_AS_Q_DEF
// take the first definition's DEFPRTY and DEFPSIST: the alias's, not the
// transmission queue's (IBM MQ "MQMD Priority").
func testQMgrAliasRoutesWithItsDefaults(e *env) {
	q := e.openDesc(e.admin(), mqwatch.ObjectDesc{Name: qRemoteName, QMgr: qQMgrAlias}, ooOut)
	md := e.put(q, "via-qmgr-alias", mqwatch.PutOptions{NewMsgId: true},
		func(md *mqfmt.MQMD) { md.Priority = -1; md.Persistence = mqfmt.PerPersistenceAsDef })
	if md.Priority != 4 || md.Persistence != mqfmt.PerPersistent {
		e.t.Errorf("MQPUT returned Priority %d Persistence %d, want the alias's DEFPRTY(4) DEFPSIST(YES)", md.Priority, md.Persistence)
	}
	_, h := e.xmitMessage(qXmit)
	if mqfmt.Trim(h.RemoteQName) != qRemoteName || mqfmt.Trim(h.RemoteQMgrName) != remoteQMgr {
		e.t.Errorf("MQXQH names %q on %q, want %q on the alias's RQMNAME %q", h.RemoteQName, h.RemoteQMgrName, qRemoteName, remoteQMgr)
	}
	if h.MsgDesc.Priority != 4 || h.MsgDesc.Persistence != mqfmt.PerPersistent {
		e.t.Errorf("embedded MQMD Priority %d Persistence %d, want 4 and 1 from the queue manager alias", h.MsgDesc.Priority, h.MsgDesc.Persistence)
	}
}

// A Priority above MAXPRTY (9) is accepted: the message is queued at MAXPRTY,
// MQPUT completes with MQCC_WARNING and MQRC_PRIORITY_EXCEEDS_MAXIMUM (2049),
// and the caller's MQMD keeps the value it gave (IBM MQ "MQMD Priority").
// Queued at 9, it follows a priority-9 message put before it.
func testPriorityAboveMaxPriority(e *env) {
	q := e.open(e.admin(), qMain, ooAll)
	e.put(q, "nine", mqwatch.PutOptions{NewMsgId: true}, withPriority(9))
	md := newMD(withPriority(12))
	err := q.Put(e.ctx, &md, []byte("twelve"), mqwatch.PutOptions{NewMsgId: true})
	if !mqwatch.IsWarning(err) || !mqwatch.IsReason(err, 2049) {
		e.t.Errorf("put with Priority 12: %s, want MQCC_WARNING with MQRC_PRIORITY_EXCEEDS_MAXIMUM (2049)", errText(err))
	}
	if md.Priority != 12 || md.MsgId == ([24]byte{}) {
		e.t.Errorf("caller's MQMD after the put: Priority %d MsgId %x, want 12 kept and the generated MsgId", md.Priority, md.MsgId)
	}
	e.wantBodies(qMain, "nine", "twelve")
}

// A message got under syncpoint at the position a marking browser reached,
// then backed out, comes back unmarked: the next unmarked browse returns it,
// with its BackoutCount raised.
func testBackedOutAtMarkPosition(e *env) {
	b := e.open(e.admin(), qMain, ooBrowse)
	e.putTo(qMain, "a")
	e.wantBrowse(b, unmarked, "a", "first unmarked")
	c := e.admin()
	e.get(e.open(c, qMain, ooIn), syncGet)
	e.wantNoErr(c.Backout(e.ctx), "backout")
	e.putTo(qMain, "b")
	m := e.wantBrowse(b, unmarked, "a", "the backed-out message, unmarked again")
	if m.MD.BackoutCount != 1 {
		e.t.Errorf("rebrowsed message BackoutCount %d, want 1", m.MD.BackoutCount)
	}
	e.wantBrowse(b, unmarked, "b", "then the new arrival")
	e.wantBrowseEnd(b, unmarked, "all marked")
}
