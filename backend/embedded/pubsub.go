package embedded

import (
	"context"
	"strings"

	"github.com/poisonwatch/poisonwatch/codec/mqfmt"
	"github.com/poisonwatch/poisonwatch/mqwatch"
)

// subscription is an MQSUB subscription delivering to a managed queue.
type subscription struct {
	name     string
	topicStr string
	durable  bool
	q        *queue
	correlId [24]byte
}

// ancestors returns the topic objects that are administrative nodes at or
// above topicStr, nearest first, ending with SYSTEM.BASE.TOPIC. Caller holds mu.
func (qm *QMgr) ancestors(topicStr string) []*topic {
	var out []*topic
	for s := topicStr; s != ""; {
		for _, t := range qm.topics {
			if t.topicStr == s && t.name != "SYSTEM.DEFAULT.TOPIC" && t.name != "SYSTEM.BASE.TOPIC" {
				out = append(out, t)
			}
		}
		if i := strings.LastIndexByte(s, '/'); i >= 0 {
			s = s[:i]
		} else {
			s = ""
		}
	}
	return append(out, qm.topics["SYSTEM.BASE.TOPIC"])
}

// resolved returns topic attributes with ASPARENT and blanks resolved up the tree.
type resolvedTopic struct {
	pub, sub            bool
	durModel, ndurModel string
	defPsist            bool
	defPrty             int32
}

func (qm *QMgr) resolveTopic(topicStr string) resolvedTopic {
	var r resolvedTopic
	var havePub, haveSub, havePsist, havePrty bool
	for _, t := range qm.ancestors(topicStr) {
		if !havePub && t.pub != asParent {
			r.pub, havePub = t.pub == yes, true
		}
		if !haveSub && t.sub != asParent {
			r.sub, haveSub = t.sub == yes, true
		}
		if !havePsist && t.defPsist != asParent {
			r.defPsist, havePsist = t.defPsist == yes, true
		}
		if !havePrty && t.defPrty >= 0 {
			r.defPrty, havePrty = t.defPrty, true
		}
		if r.durModel == "" {
			r.durModel = t.durModel
		}
		if r.ndurModel == "" {
			r.ndurModel = t.ndurModel
		}
	}
	return r
}

// topicAuth checks authority on a topic string: IBM grants it when the user
// has it at the closest administrative node or at any node above it.
func (qm *QMgr) topicAuth(user, topicStr string, need authSet) bool {
	for _, t := range qm.ancestors(topicStr) {
		if qm.auth.check(user, otTopic, t.name, need) {
			return true
		}
	}
	return false
}

// fullTopic joins a topic object's string and a topic string, as MQOD and
// MQSD combine ObjectName and ObjectString.
func (qm *QMgr) fullTopic(objName, topicStr string) (string, mqfmt.Reason) {
	if objName == "" {
		if topicStr == "" {
			return "", rcTopicStringError
		}
		return topicStr, 0
	}
	t := qm.topics[objName]
	if t == nil {
		return "", mqfmt.RCUnknownObjectName
	}
	switch {
	case topicStr == "":
		return t.topicStr, 0
	case t.topicStr == "":
		return topicStr, 0
	}
	return t.topicStr + "/" + topicStr, 0
}

// openTopic opens a topic for publishing.
func (qm *QMgr) openTopic(h *handle, objName, topicStr string) mqfmt.Reason {
	full, rc := qm.fullTopic(objName, topicStr)
	if rc != 0 {
		return rc
	}
	if h.name == "" {
		h.name = topicStr
	}
	return qm.bindTopic(h, full, true)
}

// bindTopic makes h a publishing handle on topicStr, checking pub authority
// on the topic tree unless an alias already passed the check.
func (qm *QMgr) bindTopic(h *handle, topicStr string, checkAuth bool) mqfmt.Reason {
	if h.opts.Input || h.opts.Browse {
		return rcOptionNotValidForType
	}
	if checkAuth && h.opts.Output && !qm.topicAuth(h.c.user, topicStr, authPub) {
		return mqfmt.RCNotAuthorized
	}
	r := qm.resolveTopic(topicStr)
	h.kind, h.topicStr, h.defPrio, h.defPsist = hkTopic, topicStr, r.defPrty, r.defPsist
	return 0
}

// publish copies a publication to every matching subscription's queue.
// Persistent publications must reach durable subscribers (PMSGDLV(ALLDUR),
// IBM's default); other failed deliveries are skipped (NPMSGDLV(ALLAVAIL)).
func (qm *QMgr) publish(h *handle, md mqfmt.MQMD, data []byte, u *uow) mqfmt.Reason {
	if !qm.resolveTopic(h.topicStr).pub {
		return mqfmt.RCPutInhibited
	}
	for sub := range qm.subs {
		if !TopicMatches(sub.topicStr, h.topicStr) {
			continue
		}
		cp := md
		cp.MsgId = qm.nextMsgId()
		cp.CorrelId = sub.correlId
		if _, rc := qm.putMessage(sub.q, cp, data, u); rc != 0 && sub.durable && md.Persistence == mqfmt.PerPersistent {
			return rc
		}
	}
	return 0
}

// TopicMatches matches a subscription's topic string, with topic-based
// wildcards ("#" any number of levels, "+" one level), against a publication's.
func TopicMatches(sub, pub string) bool {
	if !strings.ContainsAny(sub, "#+") {
		return sub == pub
	}
	return matchLevels(strings.Split(sub, "/"), strings.Split(pub, "/"))
}

func matchLevels(s, p []string) bool {
	for i, lvl := range s {
		switch lvl {
		case "#":
			for j := i; j <= len(p); j++ {
				if matchLevels(s[i+1:], p[j:]) {
					return true
				}
			}
			return false
		case "+":
			if len(p) <= i {
				return false
			}
		default:
			if len(p) <= i || p[i] != lvl {
				return false
			}
		}
	}
	return len(s) == len(p)
}

// Subscribe creates or resumes a subscription (MQSUB with MQSO_MANAGED) and
// returns the managed queue, opened for input and browse, that its
// publications arrive on.
func (c *conn) Subscribe(ctx context.Context, sd mqwatch.SubDesc) (mqwatch.Queue, error) {
	object := sd.TopicObject
	if object == "" {
		object = sd.TopicString
	}
	end, err := c.begin(ctx, VerbSubscribe, "MQSUB", object)
	if err != nil {
		return nil, err
	}
	qm := c.qm
	qm.mu.Lock()
	h, rc := qm.subscribeLocked(c, sd)
	qm.mu.Unlock()
	if rc != 0 {
		err = mqwatch.NewError("MQSUB", object, rc)
		end(err, 0)
		return nil, err
	}
	end(nil, 0)
	return h, nil
}

func (qm *QMgr) subscribeLocked(c *conn, sd mqwatch.SubDesc) (*handle, mqfmt.Reason) {
	if rc := c.stateLocked(); rc != 0 {
		return nil, rc
	}
	if sd.Durable && sd.Name == "" {
		return nil, rcSubNameError
	}
	var sub *subscription
	if sd.Name != "" {
		for s := range qm.subs {
			if s.name == sd.Name {
				sub = s
			}
		}
	}
	switch {
	case sub != nil && !sd.Resume:
		return nil, rcSubAlreadyExists
	case sub == nil && sd.Resume:
		return nil, rcNoSubscription
	case sub == nil:
		full, rc := qm.fullTopic(sd.TopicObject, sd.TopicString)
		if rc != 0 {
			return nil, rc
		}
		if sub, rc = qm.newSubscription(c, sd, full); rc != 0 {
			return nil, rc
		}
	}
	h := &handle{c: c, name: sub.q.name, kind: hkLocal, q: sub.q, obj: sub.q, sub: sub,
		opts: mqwatch.OpenOptions{Input: true, Browse: true, Inquire: true}}
	sub.q.handles[h] = struct{}{}
	c.handles[h] = struct{}{}
	return h, 0
}

func (qm *QMgr) newSubscription(c *conn, sd mqwatch.SubDesc, full string) (*subscription, mqfmt.Reason) {
	if !qm.topicAuth(c.user, full, authSub) {
		return nil, mqfmt.RCNotAuthorized
	}
	r := qm.resolveTopic(full)
	if !r.sub {
		return nil, rcSubInhibited
	}
	modelName, prefix := r.ndurModel, "SYSTEM.MANAGED.NDURABLE."
	if sd.Durable {
		modelName, prefix = r.durModel, "SYSTEM.MANAGED.DURABLE."
	}
	model := qm.queues[modelName]
	if model == nil || model.typ != mqwatch.QModel {
		return nil, mqfmt.RCUnknownObjectName
	}
	name := prefix + qm.uniqueSuffix()
	q := newQueue(name, mqwatch.QLocal, model.attrs, qm.now())
	q.internal = true
	qm.queues[name] = q
	sub := &subscription{name: sd.Name, topicStr: full, durable: sd.Durable, q: q, correlId: qm.nextMsgId()}
	qm.subs[sub] = struct{}{}
	return sub, 0
}

// endSubscription removes a non-durable subscription and its managed queue.
// Caller holds mu.
func (qm *QMgr) endSubscription(sub *subscription) {
	delete(qm.subs, sub)
	qm.deleteQueue(sub.q)
}
