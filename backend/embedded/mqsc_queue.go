package embedded

import (
	"strconv"
	"strings"

	"github.com/poisonwatch/poisonwatch/codec/mqsc"
	"github.com/poisonwatch/poisonwatch/mqwatch"
)

var queueTypes = map[string]mqwatch.QueueType{
	"QLOCAL": mqwatch.QLocal, "QALIAS": mqwatch.QAlias, "QREMOTE": mqwatch.QRemote, "QMODEL": mqwatch.QModel,
}

// defaultObject is the SYSTEM.DEFAULT object a DEFINE without LIKE copies, so
// that altering it changes later definitions, as on IBM MQ.
var defaultObject = map[mqwatch.QueueType]string{
	mqwatch.QLocal:  "SYSTEM.DEFAULT.LOCAL.QUEUE",
	mqwatch.QAlias:  "SYSTEM.DEFAULT.ALIAS.QUEUE",
	mqwatch.QRemote: "SYSTEM.DEFAULT.REMOTE.QUEUE",
	mqwatch.QModel:  "SYSTEM.DEFAULT.MODEL.QUEUE",
}

const (
	msgObjectExists = "AMQ8150E: IBM MQ object already exists."
	msgNotFound     = "AMQ8147E: IBM MQ object %s not found."
	msgInUse        = "AMQ8148E: IBM MQ object in use."
)

func (qm *QMgr) applyQueueCommand(c *mqsc.Command) Result {
	typ := queueTypes[c.Object]
	switch c.Verb {
	case "DEFINE":
		return qm.defineQueue(c, typ)
	case "ALTER":
		q := qm.queues[c.Name]
		if q == nil || q.typ != typ {
			return failed(msgNotFound, c.Name)
		}
		a := q.attrs
		if r, ok := applyQueueParams(&a, typ, c); !ok {
			return r
		}
		q.attrs = a
		q.wake()
		return applied("AMQ8008I: IBM MQ queue changed.")
	case "DELETE":
		return qm.deleteQueueCmd(c, typ)
	case "CLEAR":
		return qm.clearQueue(c)
	}
	return Result{Outcome: NotModelled, Message: c.Kind() + " is not modelled."}
}

func (qm *QMgr) defineQueue(c *mqsc.Command, typ mqwatch.QueueType) Result {
	existing := qm.queues[c.Name]
	if existing != nil && (!c.Has("REPLACE") || existing.typ != typ) {
		return failed(msgObjectExists)
	}
	a := defaultLocalAttrs()
	switch {
	case c.Has("LIKE"):
		p, _ := c.Param("LIKE")
		like := qm.queues[p.Value()]
		if like == nil || like.typ != typ {
			return failed(msgNotFound, p.Value())
		}
		a = like.attrs
	case qm.queues[defaultObject[typ]] != nil:
		a = qm.queues[defaultObject[typ]].attrs
	case typ == mqwatch.QModel:
		a.DefType = mqwatch.TemporaryDynamic
	}
	if typ == mqwatch.QLocal {
		a.DefType = mqwatch.Predefined
	}
	if r, ok := applyQueueParams(&a, typ, c); !ok {
		return r
	}
	if existing != nil {
		// DEFINE ... REPLACE: every attribute not given takes its default
		// again; messages stay.
		existing.attrs = a
		existing.wake()
	} else {
		qm.queues[c.Name] = newQueue(c.Name, typ, a, qm.now())
	}
	return applied("AMQ8006I: IBM MQ queue created.")
}

// applyQueueParams sets the attributes a command gives. It returns false and a
// failed Result for values the model cannot take.
func applyQueueParams(a *queueAttrs, typ mqwatch.QueueType, c *mqsc.Command) (Result, bool) {
	for _, p := range c.Params {
		v := p.Value()
		switch p.Key {
		case "DESCR":
			a.Descr = v
		case "PUT":
			a.PutInhibited = v == "DISABLED"
		case "GET":
			a.GetInhibited = v == "DISABLED"
		case "DEFPRTY":
			a.DefPriority = atoi32(v)
		case "DEFPSIST":
			a.DefPersistent = v == "YES"
		case "MAXDEPTH":
			a.MaxDepth = atoi32(v)
		case "MAXMSGL":
			a.MaxMsgLen = atoi32(v)
		case "BOTHRESH":
			a.BackoutThresh = atoi32(v)
		case "BOQNAME":
			a.BackoutQName = objName(v)
		case "HARDENBO", "NOHARDENBO":
			a.HardenBackout = p.Key == "HARDENBO"
		case "TRIGGER", "NOTRIGGER":
			a.Trigger = p.Key == "TRIGGER"
		case "INITQ":
			a.InitQ = objName(v)
		case "PROCESS":
			a.Process = objName(v)
		case "TRIGTYPE":
			a.TrigType = v
		case "USAGE":
			a.Usage = map[string]mqwatch.Usage{"NORMAL": mqwatch.UsageNormal, "XMITQ": mqwatch.UsageXmitQ}[v]
		case "MONQ":
			a.Monitoring = map[string]mqwatch.Monitoring{"QMGR": mqwatch.MonQMgr, "OFF": mqwatch.MonOff,
				"LOW": mqwatch.MonLow, "MEDIUM": mqwatch.MonMedium, "HIGH": mqwatch.MonHigh}[v]
		case "SHARE", "NOSHARE":
			a.Shareable = p.Key == "SHARE"
		case "DEFSOPT":
			a.DefSOptExcl = v == "EXCL"
		case "MSGDLVSQ":
			a.FIFO = v == "FIFO"
		case "DEFTYPE":
			if v == "SHAREDYN" {
				return failed("DEFTYPE(SHAREDYN) is valid only on z/OS queue-sharing groups."), false
			}
			a.DefType = map[string]mqwatch.DefType{"PERMDYN": mqwatch.PermanentDynamic, "TEMPDYN": mqwatch.TemporaryDynamic}[v]
		case "TARGET":
			a.Target = objName(v)
		case "TARGTYPE":
			a.TargetTopic = v == "TOPIC"
		case "RNAME":
			a.RemoteName = objName(v)
		case "RQMNAME":
			a.RemoteQMgr = objName(v)
		case "XMITQ":
			a.XmitQ = objName(v)
		}
	}
	return Result{}, true
}

// objName is an object-name attribute as the queue manager holds it: names
// are blank padded, so RNAME(' ') is the blank name, which makes a QREMOTE a
// queue manager alias (IBM: Name resolution).
func objName(v string) string { return strings.TrimRight(v, " ") }

func atoi32(s string) int32 {
	n, _ := strconv.Atoi(s) // the parser checked the range
	return int32(n)
}

func (qm *QMgr) deleteQueueCmd(c *mqsc.Command, typ mqwatch.QueueType) Result {
	q := qm.queues[c.Name]
	if q == nil || q.typ != typ || q.internal {
		return failed(msgNotFound, c.Name)
	}
	if typ == mqwatch.QLocal {
		if len(q.handles) > 0 {
			return failed(msgInUse)
		}
		if q.store.uncommitted > 0 || (q.store.depth > 0 && !c.Has("PURGE")) {
			return failed("AMQ8143E: IBM MQ queue %s not empty.", c.Name)
		}
		qm.deleteQueue(q)
	} else {
		delete(qm.queues, c.Name)
	}
	if p, ok := c.Param("AUTHREC"); !ok || p.Value() != "NO" {
		qm.auth.removeProfile(otQueue, c.Name)
	}
	return applied("AMQ8007I: IBM MQ queue deleted.")
}

// clearQueue removes every message (CLEAR QLOCAL); like IBM MQ it refuses
// while the queue is open or holds uncommitted messages.
func (qm *QMgr) clearQueue(c *mqsc.Command) Result {
	q := qm.queues[c.Name]
	if q == nil || q.typ != mqwatch.QLocal {
		return failed(msgNotFound, c.Name)
	}
	if len(q.handles) > 0 || q.store.uncommitted > 0 {
		return failed(msgInUse)
	}
	s := q.store
	for m := s.first(); m != nil; {
		next := s.after(m)
		s.remove(m)
		m = next
	}
	return applied("AMQ8022I: IBM MQ queue cleared.")
}
