package conformance

import (
	"github.com/poisonwatch/poisonwatch/codec/mqfmt"
	"github.com/poisonwatch/poisonwatch/mqwatch"
)

// Name resolution on MQOPEN (IBM MQ "Name resolution"): aliases to their base
// queue, remote queue definitions and queue manager names to a transmission
// queue, where the message waits with an MQXQH in front of it.
func resolveCases() []testCase {
	return []testCase{
		{"alias_put_and_get_reach_the_base_queue", testAliasReachesBase},
		{"alias_inquire_answers_for_the_alias_base_holds_bothresh", testAliasInquire},
		{"remote_definition_puts_xqh_on_its_xmitq", testRemoteDefinition},
		{"qmgr_name_routes_to_the_xmitq_of_that_name", testQMgrNameRouting},
		{"unknown_remote_qmgr_2087", testUnknownRemoteQMgr},
		{"local_qmgr_name_resolves_locally", testLocalQMgrName},
		{"qmgr_alias_blank_rname_routes_with_its_defaults", testQMgrAliasRoutesWithItsDefaults},
	}
}

func testAliasReachesBase(e *env) {
	c := e.connect(UserAdmin, "conf-alias")
	a := e.open(c, qAlias, ooAll)
	if a.Name() != qAlias {
		e.t.Errorf("alias handle Name() %q, want %q", a.Name(), qAlias)
	}
	e.put(a, "via-alias", mqwatch.PutOptions{NewMsgId: true})
	e.wantBodies(qBase, "via-alias")
	e.wantBrowse(a, bFirst, "via-alias", "browse through the alias")
	if s := e.status(qBase); s.OpenInput != 1 || s.OpenOutput != 1 {
		e.t.Errorf("base queue IPPROCS %d OPPROCS %d with one alias handle open for both, want 1 and 1", s.OpenInput, s.OpenOutput)
	}
	e.get(a, syncGet)
	e.wantNoErr(c.Backout(e.ctx), "backout")
	m := e.browse(e.open(e.admin(), qBase, ooBrowse), bFirst)
	if m.MD.BackoutCount != 1 {
		e.t.Errorf("base queue message BackoutCount %d after a backout through the alias, want 1", m.MD.BackoutCount)
	}
	e.wantBody(e.get(a, mqwatch.GetOptions{}), "via-alias", "get through the alias")
	e.wantBodies(qBase)
}

// MQINQ on an alias handle answers for the alias, which has no BOTHRESH or
// BOQNAME: a consumer (and the tool) must read them from the base queue
// (docs/poison-rules.md vocabulary, "Input queue").
func testAliasInquire(e *env) {
	info, err := e.open(e.admin(), qAlias, mqwatch.OpenOptions{Inquire: true}).Inquire(e.ctx)
	e.wantNoErr(err, "inquire the alias")
	if info.Type != mqwatch.QAlias || info.Target != qBase {
		e.t.Errorf("alias inquire: type %v target %q, want QALIAS and %q", info.Type, info.Target, qBase)
	}
	if info.BackoutThresh != 0 || info.BackoutQName != "" {
		e.t.Errorf("alias inquire reported BOTHRESH %d BOQNAME %q: those belong to the base queue",
			info.BackoutThresh, info.BackoutQName)
	}
	base, err := e.open(e.admin(), info.Target, mqwatch.OpenOptions{Inquire: true}).Inquire(e.ctx)
	e.wantNoErr(err, "inquire the base queue")
	if base.Type != mqwatch.QLocal || base.BackoutThresh != 3 || base.BackoutQName != qBOQ {
		e.t.Errorf("base inquire: type %v BOTHRESH %d BOQNAME %q, want QLOCAL 3 %q",
			base.Type, base.BackoutThresh, base.BackoutQName, qBOQ)
	}
}

// xmitMessage gets the one message on a transmission queue and decodes its
// MQXQH in the byte order the message's own MQMD Encoding names.
func (e *env) xmitMessage(xmitq string) (mqwatch.Message, mqfmt.XQH) {
	e.t.Helper()
	m := e.get(e.open(e.admin(), xmitq, ooIn), mqwatch.GetOptions{})
	if m.MD.Format != mqfmt.FmtXmitQHeader {
		e.t.Errorf("message on %s has Format %q, want %q", xmitq, m.MD.Format, mqfmt.FmtXmitQHeader)
	}
	bo, err := m.MD.Encoding.ByteOrder()
	if err != nil {
		e.t.Fatalf("message on %s: %v", xmitq, err)
	}
	h, err := mqfmt.DecodeXQHCCSID(m.Data, 0, bo, m.MD.CodedCharSetId)
	if err != nil {
		e.t.Fatalf("message on %s: %v", xmitq, err)
	}
	return m, h
}

func testRemoteDefinition(e *env) {
	q := e.open(e.admin(), qRemote, ooOut)
	md := e.put(q, "for-qm2", mqwatch.PutOptions{NewMsgId: true}, withIDs("", "RC"), withPriority(3))
	m, h := e.xmitMessage(qXmit)
	if mqfmt.Trim(h.RemoteQName) != qRemoteName || mqfmt.Trim(h.RemoteQMgrName) != remoteQMgr {
		e.t.Errorf("MQXQH names %q on %q, want RNAME %q on RQMNAME %q", h.RemoteQName, h.RemoteQMgrName, qRemoteName, remoteQMgr)
	}
	if h.MsgDesc.Version != 1 {
		e.t.Errorf("embedded MQMD Version %d, want 1 (always version 1 in an MQXQH)", h.MsgDesc.Version)
	}
	if h.MsgDesc.Format != mqfmt.FmtString || h.MsgDesc.MsgId != md.MsgId || h.MsgDesc.CorrelId != id("RC") || h.MsgDesc.Priority != 3 {
		e.t.Errorf("embedded MQMD Format %q MsgId %x CorrelId %q Priority %d, want the application's %q %x RC 3",
			h.MsgDesc.Format, h.MsgDesc.MsgId, h.MsgDesc.CorrelId[:], h.MsgDesc.Priority, mqfmt.FmtString, md.MsgId)
	}
	if body := string(m.Data[mqfmt.XQHLen:]); body != "for-qm2" || m.Length != mqfmt.XQHLen+len("for-qm2") {
		e.t.Errorf("data after the MQXQH %q (length %d), want %q", body, m.Length, "for-qm2")
	}
	e.wantBodies(qXmit)
}

func testQMgrNameRouting(e *env) {
	q := e.openDesc(e.admin(), mqwatch.ObjectDesc{Name: qRemoteName, QMgr: qXmitNamed}, ooOut)
	e.put(q, "via-qmgr-name", mqwatch.PutOptions{NewMsgId: true})
	m, h := e.xmitMessage(qXmitNamed)
	if mqfmt.Trim(h.RemoteQName) != qRemoteName || mqfmt.Trim(h.RemoteQMgrName) != qXmitNamed {
		e.t.Errorf("MQXQH names %q on %q, want %q on %q", h.RemoteQName, h.RemoteQMgrName, qRemoteName, qXmitNamed)
	}
	if body := string(m.Data[mqfmt.XQHLen:]); body != "via-qmgr-name" {
		e.t.Errorf("data after the MQXQH %q", body)
	}
}

// With no transmission queue or queue manager alias of that name and no
// DEFXMITQ (the suite assumes the queue manager has none), the open fails.
func testUnknownRemoteQMgr(e *env) {
	e.wantOpenFails(e.admin(), mqwatch.ObjectDesc{Name: qRemoteName, QMgr: "CONFQM9"}, ooOut,
		mqfmt.RCUnknownRemoteQMgr, "open for a queue manager with no route")
}

// A dead-letter header names the local queue manager as DestQMgrName: a
// requeue to it must land on the local queue (docs/poison-rules.md R10b).
func testLocalQMgrName(e *env) {
	q := e.openDesc(e.admin(), mqwatch.ObjectDesc{Name: qMain, QMgr: e.s.b.QMgrName()}, ooOut)
	e.put(q, "local", mqwatch.PutOptions{NewMsgId: true})
	e.wantBodies(qMain, "local")
}
