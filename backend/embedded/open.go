package embedded

import (
	"context"
	"strings"

	"github.com/poisonwatch/poisonwatch/codec/mqfmt"
	"github.com/poisonwatch/poisonwatch/mqwatch"
)

// Open opens a queue or topic (MQOPEN), resolving alias, remote, model and
// queue-manager-routed names as the queue manager does. Authority is checked on
// the first definition met while resolving the name, as IBM's OAM does.
func (c *conn) Open(ctx context.Context, od mqwatch.ObjectDesc, opts mqwatch.OpenOptions) (mqwatch.Queue, error) {
	object := od.Name
	if object == "" {
		object = od.Topic
	}
	end, err := c.begin(ctx, VerbOpen, "MQOPEN", object)
	if err != nil {
		return nil, err
	}
	qm := c.qm
	qm.mu.Lock()
	h, rc := qm.openLocked(c, od, opts)
	qm.mu.Unlock()
	if rc != 0 {
		err = mqwatch.NewError("MQOPEN", object, rc)
		end(err, 0)
		return nil, err
	}
	end(nil, 0)
	return h, nil
}

func (qm *QMgr) openLocked(c *conn, od mqwatch.ObjectDesc, opts mqwatch.OpenOptions) (*handle, mqfmt.Reason) {
	if rc := c.stateLocked(); rc != 0 {
		return nil, rc
	}
	if rc := checkOpenOptions(opts); rc != 0 {
		return nil, rc
	}
	h := &handle{c: c, name: od.Name, opts: opts, altUser: od.AlternateUserId}
	var rc mqfmt.Reason
	switch {
	case od.Topic != "" || (od.Name != "" && qm.queues[od.Name] == nil && qm.topics[od.Name] != nil):
		rc = qm.openTopic(h, od.Name, od.Topic)
	case od.QMgr != "" && od.QMgr != qm.name:
		rc = qm.openRouted(h, od)
	default:
		rc = qm.openQueue(h, od)
	}
	if rc != 0 {
		return nil, rc
	}
	if h.q != nil {
		if rc := qm.claimInput(h); rc != 0 {
			return nil, rc
		}
		h.q.handles[h] = struct{}{}
	}
	c.handles[h] = struct{}{}
	return h, 0
}

// checkOpenOptions applies the MQOO rules the port can express: some access
// is needed, and context options need MQOO_OUTPUT.
func checkOpenOptions(o mqwatch.OpenOptions) mqfmt.Reason {
	if !o.Input && !o.Browse && !o.Output && !o.Inquire {
		return mqfmt.RCOptionsError
	}
	if (o.PassAllContext || o.SetAllContext) && !o.Output {
		return mqfmt.RCOptionsError
	}
	return 0
}

// openQueue resolves a queue name on this queue manager.
func (qm *QMgr) openQueue(h *handle, od mqwatch.ObjectDesc) mqfmt.Reason {
	obj := qm.queues[od.Name]
	if obj == nil {
		return mqfmt.RCUnknownObjectName
	}
	if rc := qm.checkOpenAuth(h, otQueue, obj.name); rc != 0 {
		return rc
	}
	h.obj, h.defPrio, h.defPsist = obj, obj.attrs.DefPriority, obj.attrs.DefPersistent
	switch obj.typ {
	case mqwatch.QLocal:
		h.kind, h.q = hkLocal, obj
		return 0
	case mqwatch.QModel:
		return qm.openModel(h, obj, od.DynamicName)
	case mqwatch.QRemote:
		return qm.openRemoteDef(h, obj)
	case mqwatch.QAlias:
		return qm.openAlias(h, obj)
	}
	return mqfmt.RCUnknownObjectName
}

// openAlias resolves an alias to its base queue or topic. The alias's own
// PUT/GET inhibits apply too; they are checked at put and get time.
func (qm *QMgr) openAlias(h *handle, alias *queue) mqfmt.Reason {
	if alias.attrs.TargetTopic {
		t := qm.topics[alias.attrs.Target]
		if t == nil {
			return mqfmt.RCUnknownAliasBaseQ
		}
		// Authority was checked on the alias, the first definition met.
		return qm.bindTopic(h, t.topicStr, false)
	}
	base := qm.queues[alias.attrs.Target]
	if base == nil {
		return mqfmt.RCUnknownAliasBaseQ
	}
	switch base.typ {
	case mqwatch.QLocal:
		h.kind, h.q = hkLocal, base
		return 0
	case mqwatch.QRemote:
		obj := h.obj
		rc := qm.openRemoteDef(h, base)
		h.obj = obj
		return rc
	}
	return mqfmt.RCAliasBaseQTypeError
}

// openRemoteDef resolves a QREMOTE: RNAME on RQMNAME through XMITQ (or the
// transmission queue named after RQMNAME).
func (qm *QMgr) openRemoteDef(h *handle, def *queue) mqfmt.Reason {
	a := def.attrs
	if h.opts.Input || h.opts.Browse {
		return rcOptionNotValidForType
	}
	if a.RemoteName == "" {
		// A queue manager alias names a queue manager, not a queue.
		return rcRemoteQNameError
	}
	if a.RemoteQMgr == qm.name && a.XmitQ == "" {
		local := qm.queues[a.RemoteName]
		if local == nil || local.typ != mqwatch.QLocal {
			return mqfmt.RCUnknownObjectName
		}
		h.kind, h.q = hkLocal, local
		return 0
	}
	xq := a.XmitQ
	if xq == "" {
		xq = a.RemoteQMgr
	}
	x := qm.queues[xq]
	if x == nil {
		return rcUnknownXmitQ
	}
	if rc := xmitQCheck(x, false); rc != 0 {
		return rc
	}
	h.kind, h.q, h.remoteQ, h.remoteQMgr = hkRemote, x, a.RemoteName, a.RemoteQMgr
	return 0
}

// openRouted resolves an MQOD whose ObjectQMgrName names another queue
// manager: a queue manager alias (a QREMOTE with a blank RNAME), else the
// transmission queue of that name, else DEFXMITQ; authority is checked on
// whichever definition is used. Default priority and persistence come from
// the first definition in the resolution path (IBM: MQMD Priority), which is
// the queue manager alias when there is one.
func (qm *QMgr) openRouted(h *handle, od mqwatch.ObjectDesc) mqfmt.Reason {
	if h.opts.Input || h.opts.Browse {
		return rcOptionNotValidForType
	}
	rqm, xq := od.QMgr, od.QMgr
	alias := qm.queues[od.QMgr]
	switch {
	case alias == nil || alias.typ != mqwatch.QRemote:
		alias = nil
	case alias.attrs.RemoteName != "":
		// A QREMOTE named as a queue manager must be a queue manager alias.
		return mqfmt.RCUnknownRemoteQMgr
	default:
		if rc := qm.checkOpenAuth(h, otQueue, alias.name); rc != 0 {
			return rc
		}
		if alias.attrs.RemoteQMgr != "" {
			rqm = alias.attrs.RemoteQMgr
		}
		xq = alias.attrs.XmitQ
		if xq == "" {
			xq = rqm
		}
		if rqm == qm.name {
			rc := qm.openQueue(h, mqwatch.ObjectDesc{Name: od.Name})
			h.defPrio, h.defPsist = alias.attrs.DefPriority, alias.attrs.DefPersistent
			return rc
		}
	}
	x, viaDefault := qm.queues[xq], false
	if x == nil && qm.attrs.defXmitQ != "" {
		if x, viaDefault = qm.queues[qm.attrs.defXmitQ], true; x == nil {
			return rcUnknownDefXmitQ
		}
	}
	if x == nil {
		return mqfmt.RCUnknownRemoteQMgr
	}
	if rc := xmitQCheck(x, viaDefault); rc != 0 {
		return rc
	}
	if rc := qm.checkOpenAuth(h, otQueue, x.name); rc != 0 {
		return rc
	}
	first := x
	if alias != nil {
		first = alias
	}
	h.obj, h.defPrio, h.defPsist = x, first.attrs.DefPriority, first.attrs.DefPersistent
	h.kind, h.q, h.remoteQ, h.remoteQMgr = hkRemote, x, od.Name, rqm
	return 0
}

// xmitQCheck checks that x can be a transmission queue: a local queue
// (MQRC_XMIT_Q_TYPE_ERROR otherwise) with USAGE(XMITQ) (MQRC_XMIT_Q_USAGE_ERROR);
// the DEF_XMIT_Q variants when x came from DEFXMITQ.
func xmitQCheck(x *queue, viaDefault bool) mqfmt.Reason {
	switch {
	case x.typ != mqwatch.QLocal && viaDefault:
		return rcDefXmitQTypeError
	case x.typ != mqwatch.QLocal:
		return rcXmitQTypeError
	case x.attrs.Usage != mqwatch.UsageXmitQ && viaDefault:
		return rcDefXmitQUsageError
	case x.attrs.Usage != mqwatch.UsageXmitQ:
		return rcXmitQUsageError
	}
	return 0
}

// openModel creates a dynamic queue from a model (MQOPEN of a QMODEL). A
// DynamicName ending in "*" gets IBM-style unique characters in its place; the
// creator is granted all authority on the new queue.
func (qm *QMgr) openModel(h *handle, model *queue, dynName string) mqfmt.Reason {
	if dynName == "" {
		dynName = "AMQ.*"
	}
	name := dynName
	if p, ok := strings.CutSuffix(dynName, "*"); ok {
		name = p + qm.uniqueSuffix()
		if len(name) > 48 {
			name = name[:48]
		}
	}
	if qm.queues[name] != nil {
		return rcObjectAlreadyExists
	}
	a := model.attrs
	q := newQueue(name, mqwatch.QLocal, a, qm.now())
	if a.DefType == mqwatch.TemporaryDynamic {
		q.creator = h
	}
	qm.queues[name] = q
	qm.auth.grantCreator(h.c.user, name)
	h.kind, h.q, h.obj, h.name = hkLocal, q, q, name
	return 0
}

// claimInput enforces exclusive input: NOSHARE or DEFSOPT(EXCL) queues admit
// one input handle, and an exclusive holder keeps others out (2042).
func (qm *QMgr) claimInput(h *handle) mqfmt.Reason {
	if !h.opts.Input || h.kind != hkLocal {
		return 0
	}
	q := h.q
	h.exclusive = !q.attrs.Shareable || q.attrs.DefSOptExcl
	for other := range q.handles {
		if other.opts.Input && (h.exclusive || other.exclusive) {
			return mqfmt.RCObjectInUse
		}
	}
	return 0
}

// checkOpenAuth checks each access the open options ask for on the named
// object; setall needs the authority on the queue manager too.
func (qm *QMgr) checkOpenAuth(h *handle, ot objType, name string) mqfmt.Reason {
	need := authSet(0)
	o := h.opts
	if o.Input {
		need |= authGet
	}
	if o.Browse {
		need |= authBrowse
	}
	if o.Output {
		need |= authPut
	}
	if o.Inquire {
		need |= authInq
	}
	if o.PassAllContext {
		need |= authPassAll
	}
	if o.SetAllContext {
		need |= authSetAll
	}
	// With alternate user authority the access is checked for that user;
	// the context checks stay with the connecting user (IBM: MQOD
	// AlternateUserId), who needs altusr authority on the queue manager.
	user, ctxNeed := h.c.user, need&(authPassAll|authSetAll)
	if o.AlternateUserAuthority {
		if !qm.auth.check(user, otQMgr, qm.name, authAltUsr) || !qm.auth.check(user, ot, name, ctxNeed) {
			return mqfmt.RCNotAuthorized
		}
		user, need = strings.TrimSpace(h.altUser), need&^ctxNeed
		if user == "" && need != 0 {
			return mqfmt.RCNotAuthorized // a blank AlternateUserId passes only where no authority is needed
		}
	}
	if !qm.auth.check(user, ot, name, need) {
		return mqfmt.RCNotAuthorized
	}
	if o.SetAllContext && !qm.auth.check(h.c.user, otQMgr, qm.name, authSetAll) {
		return mqfmt.RCNotAuthorized
	}
	return 0
}
