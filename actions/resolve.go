package actions

import (
	"fmt"

	"github.com/poisonwatch/poisonwatch/mqwatch"
)

// Default model queues of the managed queues behind subscriptions, used when
// the topic's MDURMDL/MNDURMDL resolve to nothing more specific.
const (
	DefaultDurableModelQ    = "SYSTEM.DURABLE.MODEL.QUEUE"
	DefaultNonDurableModelQ = "SYSTEM.NDURABLE.MODEL.QUEUE"
)

// QueueIndex indexes a queue manager's queues and their status, to resolve
// input queues and answer facts about put targets. It assumes the lists are
// complete ("*"): a name it does not hold does not exist.
type QueueIndex struct {
	QMgr      mqwatch.QMgrInfo
	queues    map[string]mqwatch.QueueInfo
	status    map[string]mqwatch.QueueStatus
	clustered map[string]bool
}

// NewQueueIndex indexes queues and status. DISPLAY QUEUE lists a clustered
// local queue twice (QLOCAL and QCLUSTER); the local definition is kept and
// the name remembered as clustered.
func NewQueueIndex(qm mqwatch.QMgrInfo, queues []mqwatch.QueueInfo, status []mqwatch.QueueStatus) *QueueIndex {
	inv := &QueueIndex{QMgr: qm,
		queues:    make(map[string]mqwatch.QueueInfo, len(queues)),
		status:    make(map[string]mqwatch.QueueStatus, len(status)),
		clustered: map[string]bool{}}
	for _, q := range queues {
		if q.Type == mqwatch.QCluster {
			inv.clustered[q.Name] = true
			if _, ok := inv.queues[q.Name]; ok {
				continue
			}
		}
		inv.queues[q.Name] = q
	}
	for _, s := range status {
		inv.status[s.Name] = s
	}
	return inv
}

// Queue returns a queue's definition.
func (inv *QueueIndex) Queue(name string) (mqwatch.QueueInfo, bool) {
	q, ok := inv.queues[name]
	return q, ok
}

// Facts describes name as a put target. An alias answers with its base local
// queue's depth and limits, and its own PUT(DISABLED) on top.
func (inv *QueueIndex) Facts(name string) QueueFacts {
	q, ok := inv.queues[name]
	if !ok {
		return QueueFacts{Known: true}
	}
	f := QueueFacts{Known: true, Exists: true, Type: q.Type, PutInhibited: q.InhibitPut}
	if q.Type == mqwatch.QAlias {
		base, ok := inv.queues[q.Target]
		if !ok {
			f.BaseMissing = true
			return f
		}
		f.PutInhibited = f.PutInhibited || base.InhibitPut
		q = base
	}
	if q.Type != mqwatch.QLocal {
		return f
	}
	f.Resolved, f.MaxMsgLen, f.MaxDepth = q.Name, q.MaxMsgLen, q.MaxDepth
	if s, ok := inv.status[q.Name]; ok {
		f.Depth = s.Depth
		f.Full = s.Depth >= q.MaxDepth
	}
	return f
}

// ResolveInput resolves the queue a point-to-point consumer opens to the local
// queue whose BOTHRESH and BOQNAME JMS inquires: the queue itself, an alias's
// base queue, or a cluster queue's local instance.
func (inv *QueueIndex) ResolveInput(name string) (InputQueue, error) {
	q, ok := inv.queues[name]
	if !ok {
		return InputQueue{}, fmt.Errorf("resolve input queue %s: no such queue", name)
	}
	in := InputQueue{Name: name}
	if q.Type == mqwatch.QAlias {
		base, ok := inv.queues[q.Target]
		if !ok {
			return InputQueue{}, fmt.Errorf("resolve input queue %s: alias base %s does not exist", name, q.Target)
		}
		in.Path = append(in.Path, "alias "+name)
		q = base
	}
	switch q.Type {
	case mqwatch.QLocal:
	case mqwatch.QCluster:
		return InputQueue{}, fmt.Errorf("resolve input queue %s: cluster queue %s has no local instance here to get from", name, q.Name)
	default:
		return InputQueue{}, fmt.Errorf("resolve input queue %s: %s is a %s, which a consumer cannot get from", name, q.Name, q.Type)
	}
	in.Cluster = inv.clustered[q.Name]
	if in.Cluster {
		in.Path = append(in.Path, "local instance of cluster queue "+q.Name)
	} else if len(in.Path) > 0 {
		in.Path = append(in.Path, "base queue "+q.Name)
	}
	fill(&in, q)
	return in, nil
}

// Subscription names the managed queue a pub/sub consumer reads.
type Subscription struct {
	Topic   string // topic string or object, for the explanation
	Durable bool
	// ModelQ is the topic's MDURMDL (durable) or MNDURMDL (non-durable) as
	// resolved through the topic tree; "" = the default model queue.
	ModelQ string
	// ManagedQ is the managed queue's name when known (DISPLAY SBSTATUS).
	ManagedQ string
}

// ResolveSubscription resolves a subscription's managed queue. The managed
// queue inherits BOTHRESH and BOQNAME from the model queue when it is created;
// once it exists, its own attributes are what JMS inquires, so an existing
// managed queue wins over the model.
func (inv *QueueIndex) ResolveSubscription(sub Subscription) (InputQueue, error) {
	model := sub.ModelQ
	if model == "" {
		model = DefaultNonDurableModelQ
		if sub.Durable {
			model = DefaultDurableModelQ
		}
	}
	kind := "non-durable"
	if sub.Durable {
		kind = "durable"
	}
	in := InputQueue{Name: sub.Topic, Base: sub.ManagedQ}
	if q, ok := inv.queues[sub.ManagedQ]; ok && sub.ManagedQ != "" && q.Type == mqwatch.QLocal {
		in.Path = []string{kind + " subscription on " + sub.Topic, "managed queue " + q.Name + " created from model " + model}
		fill(&in, q)
		return in, nil
	}
	m, ok := inv.queues[model]
	if !ok || m.Type != mqwatch.QModel {
		return InputQueue{}, fmt.Errorf("resolve subscription %s: model queue %s is not defined as a model queue", sub.Topic, model)
	}
	if in.Base == "" {
		in.Base = "managed queue from " + model
	}
	in.Path = []string{kind + " subscription on " + sub.Topic, "attributes of model queue " + model}
	base := in.Base
	fill(&in, m)
	in.Base = base
	return in, nil
}

func fill(in *InputQueue, q mqwatch.QueueInfo) {
	in.Base = q.Name
	in.BackoutThresh = q.BackoutThresh
	in.BackoutQName = q.BackoutQName
	in.DefPersistent = q.DefPersistent
	in.MaxMsgLen = q.MaxMsgLen
}
