package conformance

import (
	"strings"
	"time"

	"github.com/poisonwatch/poisonwatch/codec/mqfmt"
	"github.com/poisonwatch/poisonwatch/mqwatch"
)

// Queues the queue manager creates: dynamic queues from a model queue on
// MQOPEN, and managed queues of subscriptions from the topic's MDURMDL or
// MNDURMDL model. They inherit the model's attributes, BOTHRESH and BOQNAME
// included, which is where a JMS subscriber's poison settings come from.
func dynamicCases() []testCase {
	return []testCase{
		{"model_open_creates_temporary_dynamic_queue", testModelQueue},
		{"durable_subscription_managed_queue_from_mdurmdl", testDurableSub},
		{"nondurable_subscription_managed_queue_from_mndurmdl", testNonDurableSub},
	}
}

// rcSubAlreadyExists is MQRC_SUB_ALREADY_EXISTS: a durable subscription left
// by an earlier run against a real queue manager (the port cannot remove one).
const rcSubAlreadyExists mqfmt.Reason = 2432

// queueInfo returns the attributes of one queue found by exact name.
func (e *env) queueInfo(name string) mqwatch.QueueInfo {
	e.t.Helper()
	qs, err := e.admin().Queues(e.ctx, name)
	e.wantNoErr(err, "list queue "+name)
	for _, q := range qs {
		if q.Name == name {
			return q
		}
	}
	e.t.Fatalf("queue %s is not listed", name)
	return mqwatch.QueueInfo{}
}

// wantGone checks that a queue no longer exists: not listed, and an open
// fails with MQRC_UNKNOWN_OBJECT_NAME.
func (e *env) wantGone(name, what string) {
	e.t.Helper()
	qs, err := e.admin().Queues(e.ctx, name)
	if err != nil && !mqwatch.IsReason(err, mqfmt.RCUnknownObjectName) {
		e.t.Errorf("%s: list %s: %v", what, name, err)
	}
	for _, q := range qs {
		if q.Name == name {
			e.t.Errorf("%s: %s is still listed", what, name)
		}
	}
	e.wantOpenFails(e.admin(), mqwatch.ObjectDesc{Name: name}, mqwatch.OpenOptions{Inquire: true},
		mqfmt.RCUnknownObjectName, what+": open "+name)
}

// wantInherited checks a created queue's definition type and poison settings.
func (e *env) wantInherited(info mqwatch.QueueInfo, def mqwatch.DefType, bothresh int32) {
	e.t.Helper()
	if info.Type != mqwatch.QLocal || info.DefType != def || info.BackoutThresh != bothresh || info.BackoutQName != qBOQ {
		e.t.Errorf("%s: type %v DEFTYPE %v BOTHRESH %d BOQNAME %q, want QLOCAL %v %d %q (from the model)",
			info.Name, info.Type, info.DefType, info.BackoutThresh, info.BackoutQName, def, bothresh, qBOQ)
	}
}

func testModelQueue(e *env) {
	c := e.connect(UserAdmin, "conf-model")
	od := mqwatch.ObjectDesc{Name: qModel, DynamicName: "CONF.DYN.*"}
	q := e.openDesc(c, od, ooAll)
	name := q.Name()
	if !strings.HasPrefix(name, "CONF.DYN.") || name == "CONF.DYN.*" || len(name) > maxQNameLen {
		e.t.Fatalf("dynamic queue handle Name() %q, want the created queue's name CONF.DYN.<unique>", name)
	}
	info, err := q.Inquire(e.ctx)
	e.wantNoErr(err, "inquire the dynamic queue")
	e.wantInherited(info, mqwatch.TemporaryDynamic, 5)
	e.wantInherited(e.queueInfo(name), mqwatch.TemporaryDynamic, 5)
	e.put(q, "dyn", mqwatch.PutOptions{NewMsgId: true})
	e.wantBody(e.get(q, mqwatch.GetOptions{}), "dyn", "get from the dynamic queue")
	md := newMD(func(md *mqfmt.MQMD) { md.Persistence = mqfmt.PerPersistent })
	e.wantReason(q.Put(e.ctx, &md, []byte("persistent"), mqwatch.PutOptions{NewMsgId: true}),
		mqfmt.RCPersistentNotAllowed, "persistent put to a temporary dynamic queue")

	q2 := e.openDesc(c, od, ooAll)
	if q2.Name() == name {
		e.t.Errorf("two opens of the model created the same queue %s", name)
	}
	e.closeQ(q)
	e.wantGone(name, "temporary dynamic queue after close")
}

// publish puts one publication on the suite's topic.
func (e *env) publish(body string) {
	e.t.Helper()
	p := e.openDesc(e.admin(), mqwatch.ObjectDesc{Topic: topicString}, ooOut)
	e.put(p, body, mqwatch.PutOptions{NewMsgId: true})
	e.closeQ(p)
}

// getPublication gets the next publication from a managed queue, allowing
// the queue manager a moment to deliver it.
func (e *env) getPublication(q mqwatch.Queue, want string) {
	e.t.Helper()
	m, err := q.Get(e.ctx, mqwatch.GetOptions{Wait: 5 * time.Second})
	if err != nil {
		e.t.Errorf("publication %q on %s: %v", want, q.Name(), err)
		return
	}
	e.wantBody(m, want, "publication on "+q.Name())
}

// drain empties a queue through a handle (a managed queue left over from an
// earlier run may hold publications).
func (e *env) drain(q mqwatch.Queue) {
	e.t.Helper()
	for i := 0; i < drainLimit; i++ {
		_, err := q.Get(e.ctx, mqwatch.GetOptions{})
		if mqwatch.IsReason(err, mqfmt.RCNoMsgAvailable) {
			return
		}
		e.wantNoErr(err, "drain "+q.Name())
	}
}

func testDurableSub(e *env) {
	c := e.connect(UserAdmin, "conf-sub")
	sd := mqwatch.SubDesc{TopicObject: topicObject, Durable: true, Name: "CONF.SUB.DURABLE"}
	sub, err := c.Subscribe(e.ctx, sd)
	if mqwatch.IsReason(err, rcSubAlreadyExists) {
		sd.Resume = true
		sub, err = c.Subscribe(e.ctx, sd)
	}
	e.wantNoErr(err, "durable subscribe")
	name := sub.Name()
	if !strings.HasPrefix(name, "SYSTEM.MANAGED.DURABLE.") {
		e.t.Errorf("durable managed queue %q, want SYSTEM.MANAGED.DURABLE.<unique>", name)
	}
	e.drain(sub)
	e.wantInherited(e.queueInfo(name), mqwatch.PermanentDynamic, 4)
	e.publish("pub-1")
	e.getPublication(sub, "pub-1")

	e.closeQ(sub)
	e.publish("pub-2") // kept for the durable subscription while nobody listens
	sd.Resume = true
	again, err := c.Subscribe(e.ctx, sd)
	e.wantNoErr(err, "resume the durable subscription")
	defer e.closeQ(again)
	if again.Name() != name {
		e.t.Errorf("resumed subscription uses %q, created one used %q", again.Name(), name)
	}
	e.getPublication(again, "pub-2")
}

func testNonDurableSub(e *env) {
	c := e.connect(UserAdmin, "conf-sub")
	sub, err := c.Subscribe(e.ctx, mqwatch.SubDesc{TopicString: topicString})
	e.wantNoErr(err, "non-durable subscribe")
	name := sub.Name()
	if !strings.HasPrefix(name, "SYSTEM.MANAGED.NDURABLE.") {
		e.t.Errorf("non-durable managed queue %q, want SYSTEM.MANAGED.NDURABLE.<unique>", name)
	}
	e.wantInherited(e.queueInfo(name), mqwatch.TemporaryDynamic, 2)
	e.publish("pub-nd")
	e.getPublication(sub, "pub-nd")
	e.closeQ(sub)
	e.wantGone(name, "non-durable managed queue after the subscription closed")
}
