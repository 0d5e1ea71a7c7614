package embedded

import (
	"strings"
	"time"

	"github.com/poisonwatch/poisonwatch/mqwatch"
)

// queueAttrs holds every queue attribute the model acts on. One struct serves
// all queue types, as IBM's DEFINE ... LIKE copies attributes between objects
// of one type; attributes that do not apply to a type stay at their zero value.
type queueAttrs struct {
	Descr         string
	PutInhibited  bool
	GetInhibited  bool
	DefPriority   int32
	DefPersistent bool
	MaxDepth      int32
	MaxMsgLen     int32
	BackoutThresh int32
	BackoutQName  string
	HardenBackout bool
	Usage         mqwatch.Usage
	Monitoring    mqwatch.Monitoring
	Shareable     bool
	DefSOptExcl   bool // DEFSOPT(EXCL)
	FIFO          bool // MSGDLVSQ(FIFO): priority is kept but ignored for order
	DefType       mqwatch.DefType
	Target        string // QALIAS TARGET
	TargetTopic   bool   // QALIAS TARGTYPE(TOPIC)
	RemoteName    string // QREMOTE RNAME
	RemoteQMgr    string // QREMOTE RQMNAME
	XmitQ         string // QREMOTE XMITQ
	Trigger       bool   // TRIGGER (NOTRIGGER is the default)
	InitQ         string // INITQ
	Process       string // PROCESS
	TrigType      string // TRIGTYPE; FIRST by default
}

// defaultLocalAttrs are SYSTEM.DEFAULT.LOCAL.QUEUE's attributes on a freshly
// created IBM MQ queue manager (DISPLAY QLOCAL of a new queue): MAXDEPTH(5000)
// MAXMSGL(4194304) BOTHRESH(0) HARDENBO SHARE DEFSOPT(SHARED) DEFPSIST(NO)
// DEFPRTY(0) MSGDLVSQ(PRIORITY) USAGE(NORMAL) MONQ(QMGR).
func defaultLocalAttrs() queueAttrs {
	return queueAttrs{
		MaxDepth:      5000,
		MaxMsgLen:     4194304,
		HardenBackout: true,
		Shareable:     true,
		Usage:         mqwatch.UsageNormal,
		Monitoring:    mqwatch.MonQMgr,
		DefType:       mqwatch.Predefined,
		TrigType:      "FIRST",
	}
}

// queue is one queue object: local (with its messages), alias, remote or model.
type queue struct {
	name  string
	typ   mqwatch.QueueType
	attrs queueAttrs
	// Local queues only.
	store    *store
	handles  map[*handle]struct{}
	lastPut  time.Time
	lastGet  time.Time
	notify   chan struct{} // closed and replaced whenever a message may have become available
	waiters  int           // calls waiting on notify; no one to wake means no new channel
	creator  *handle       // the handle that created a temporary dynamic queue
	deleted  bool
	created  time.Time
	internal bool // created by the queue manager for a subscription
}

func newQueue(name string, typ mqwatch.QueueType, a queueAttrs, now time.Time) *queue {
	q := &queue{name: name, typ: typ, attrs: a, created: now}
	if typ == mqwatch.QLocal {
		q.store = newStore()
		q.handles = map[*handle]struct{}{}
		q.notify = make(chan struct{})
	}
	return q
}

// wake tells waiting getters and browsers to look again.
func (q *queue) wake() {
	if q.notify == nil || q.waiters == 0 {
		return
	}
	close(q.notify)
	q.notify = make(chan struct{})
}

// info returns the attributes as DISPLAY QUEUE shows them.
func (q *queue) info() mqwatch.QueueInfo {
	a := q.attrs
	qi := mqwatch.QueueInfo{
		Name:          q.name,
		Type:          q.typ,
		Description:   a.Descr,
		InhibitPut:    a.PutInhibited,
		DefPersistent: a.DefPersistent,
		DefPriority:   a.DefPriority,
	}
	switch q.typ {
	case mqwatch.QAlias:
		qi.Target = a.Target
		qi.InhibitGet = a.GetInhibited
	case mqwatch.QRemote:
		qi.RemoteName, qi.RemoteQMgr, qi.XmitQ = a.RemoteName, a.RemoteQMgr, a.XmitQ
	case mqwatch.QLocal, mqwatch.QModel:
		qi.InhibitGet = a.GetInhibited
		qi.MaxDepth, qi.MaxMsgLen = a.MaxDepth, a.MaxMsgLen
		qi.BackoutThresh, qi.BackoutQName = a.BackoutThresh, a.BackoutQName
		qi.HardenBackout = a.HardenBackout
		qi.Usage, qi.Monitoring = a.Usage, a.Monitoring
		qi.DefType, qi.Shareable = a.DefType, a.Shareable
		qi.Trigger, qi.InitQ, qi.Process, qi.TriggerType = a.Trigger, a.InitQ, a.Process, a.TrigType
	}
	return qi
}

// topic is a TOPIC administrative object. Attributes left blank or ASPARENT
// are inherited from the closest ancestor in the topic tree, as IBM resolves
// them, ending at SYSTEM.BASE.TOPIC.
type topic struct {
	name      string
	topicStr  string
	descr     string
	durModel  string // MDURMDL; "" = as parent
	ndurModel string // MNDURMDL; "" = as parent
	pub       inherit
	sub       inherit
	defPsist  inherit
	defPrty   int32 // -1 = ASPARENT
}

// inherit is an ENABLED/DISABLED/ASPARENT (or YES/NO/ASPARENT) attribute.
type inherit int

const (
	asParent inherit = iota
	yes
	no
)

// matchGeneric reports whether name matches an MQSC generic name: a trailing
// "*" matches any suffix, "*" alone matches everything.
func matchGeneric(pattern, name string) bool {
	if p, ok := strings.CutSuffix(pattern, "*"); ok {
		return strings.HasPrefix(name, p)
	}
	return pattern == name
}
