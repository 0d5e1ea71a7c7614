package embedded

import (
	"strings"

	"github.com/poisonwatch/poisonwatch/codec/mqsc"
)

func (qm *QMgr) applyTopicCommand(c *mqsc.Command) Result {
	existing := qm.topics[c.Name]
	switch c.Verb {
	case "DELETE":
		if existing == nil || strings.HasPrefix(c.Name, "SYSTEM.") {
			return failed(msgNotFound, c.Name)
		}
		delete(qm.topics, c.Name)
		if p, ok := c.Param("AUTHREC"); !ok || p.Value() != "NO" {
			qm.auth.removeProfile(otTopic, c.Name)
		}
		return applied("IBM MQ topic deleted.")
	case "ALTER":
		if existing == nil {
			return failed(msgNotFound, c.Name)
		}
		if c.Has("TOPICSTR") {
			return failed("TOPICSTR of topic %s cannot be altered.", c.Name)
		}
		t := *existing
		applyTopicParams(&t, c)
		*existing = t
		return applied("AMQ8691I: IBM MQ topic changed.")
	}
	if existing != nil && !c.Has("REPLACE") {
		return failed(msgObjectExists)
	}
	base := qm.topics["SYSTEM.DEFAULT.TOPIC"]
	if p, ok := c.Param("LIKE"); ok {
		if base = qm.topics[p.Value()]; base == nil {
			return failed(msgNotFound, p.Value())
		}
	}
	t := topic{defPrty: -1}
	if base != nil {
		t = *base
	}
	t.name, t.topicStr = c.Name, ""
	if existing != nil {
		t.topicStr = existing.topicStr
	}
	applyTopicParams(&t, c)
	if t.topicStr == "" {
		return failed("TOPICSTR is required to define topic %s.", c.Name)
	}
	for _, other := range qm.topics {
		if other.name != c.Name && other.topicStr == t.topicStr && other.name != "SYSTEM.BASE.TOPIC" {
			return failed("Topic string %q is already the topic string of topic %s.", t.topicStr, other.name)
		}
	}
	qm.topics[c.Name] = &t
	return applied("AMQ8690I: IBM MQ topic created.")
}

func applyTopicParams(t *topic, c *mqsc.Command) {
	tri := map[string]inherit{"ENABLED": yes, "YES": yes, "DISABLED": no, "NO": no, "ASPARENT": asParent}
	for _, p := range c.Params {
		v := p.Value()
		switch p.Key {
		case "TOPICSTR":
			t.topicStr = v
		case "DESCR":
			t.descr = v
		case "MDURMDL":
			t.durModel = v
		case "MNDURMDL":
			t.ndurModel = v
		case "PUB":
			t.pub = tri[v]
		case "SUB":
			t.sub = tri[v]
		case "DEFPSIST":
			t.defPsist = tri[v]
		case "DEFPRTY":
			if v == "ASPARENT" {
				t.defPrty = -1
			} else {
				t.defPrty = atoi32(v)
			}
		}
	}
}

// alterQMgr applies ALTER QMGR.
func (qm *QMgr) alterQMgr(c *mqsc.Command) Result {
	a := qm.attrs
	for _, p := range c.Params {
		v := p.Value()
		switch p.Key {
		case "DEADQ":
			a.deadQ = objName(v) // DEADQ(' ') removes the dead-letter queue
		case "DEFXMITQ":
			a.defXmitQ = objName(v)
		case "MAXMSGL":
			a.maxMsgLen = atoi32(v)
		case "MAXUMSGS":
			a.maxUMsgs = atoi32(v)
		case "DESCR":
			a.descr = v
		case "CCSID":
			a.ccsid = atoi32(v)
		case "MONQ":
			a.monQ = map[string]qmgrMonQ{"OFF": qmMonOff, "NONE": qmMonNone, "LOW": qmMonLow,
				"MEDIUM": qmMonMedium, "HIGH": qmMonHigh}[v]
		}
	}
	qm.attrs = a
	return applied("AMQ8005I: IBM MQ queue manager changed.")
}

// applyAuthRec applies SET AUTHREC and DELETE AUTHREC for the object types
// the model checks (QMGR, QUEUE, TOPIC); other types are not modelled.
func (qm *QMgr) applyAuthRec(c *mqsc.Command) Result {
	otp, ok := c.Param("OBJTYPE")
	if !ok {
		return failed("OBJTYPE is required.")
	}
	ot := objType(otp.Value())
	if ot != otQMgr && ot != otQueue && ot != otTopic {
		return Result{Outcome: NotModelled, Message: "Accepted: authority records for OBJTYPE(" + string(ot) + ") are not modelled."}
	}
	pp, hasPrincipal := c.Param("PRINCIPAL")
	gp, hasGroup := c.Param("GROUP")
	if hasPrincipal == hasGroup {
		return failed("Give exactly one of PRINCIPAL and GROUP.")
	}
	entity, group := pp.Value(), false
	if hasGroup {
		entity, group = gp.Value(), true
	}
	profile := qm.name
	if p, ok := c.Param("PROFILE"); ok {
		profile = p.Value()
	} else if ot != otQMgr {
		return failed("PROFILE is required for OBJTYPE(%s).", ot)
	}
	if c.Verb == "DELETE" {
		if !qm.auth.remove(ot, profile, entity, group) {
			return failed("No authority record for %s on profile %s.", entity, profile)
		}
		return applied("IBM MQ authority record deleted.")
	}
	if err := qm.auth.set(ot, profile, entity, group, authOf(c, "AUTHADD"), authOf(c, "AUTHRMV")); err != nil {
		return failed("%v", err)
	}
	return applied("AMQ8862I: IBM MQ authority record set.")
}

func authOf(c *mqsc.Command, key string) authSet {
	p, _ := c.Param(key)
	var s authSet
	for _, v := range p.Values {
		s |= authNames[strings.ToUpper(v)]
	}
	return s
}
