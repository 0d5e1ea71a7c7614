package demo

import (
	"errors"
	"fmt"
	"hash/fnv"
	"math/rand/v2"
	"strings"
	"time"

	"github.com/poisonwatch/poisonwatch/backend/embedded"
	"github.com/poisonwatch/poisonwatch/mqwatch"
)

// setup builds everything the scenario describes, in dependency order:
// queue managers and their objects, channels, subscriptions and consumers
// (so that the first publications find their subscribers), producers, events.
func (r *runner) setup() error {
	for i, spec := range r.s.QMgrs {
		qm, err := r.newQMgr(spec)
		if err != nil {
			return err
		}
		r.qms = append(r.qms, qm)
		r.byName[spec.Name] = qm
		if r.defined != nil {
			r.defined(i, qm)
		}
	}
	for _, l := range r.s.Links {
		qms := make([]*embedded.QMgr, len(l.QMgrs))
		for i, n := range l.QMgrs {
			qms[i] = r.byName[n]
		}
		r.nets = append(r.nets, embedded.Link(qms...))
	}
	for i := range r.s.Consumers {
		if err := r.startConsumers(i); err != nil {
			return fmt.Errorf("consumer %s: %w", r.s.Consumers[i].Name, err)
		}
	}
	for i := range r.s.Producers {
		if err := r.startProducer(i); err != nil {
			return fmt.Errorf("producer %s: %w", r.s.Producers[i].Name, err)
		}
	}
	for i := range r.s.Events {
		e := &eventActor{r: r, spec: &r.s.Events[i]}
		r.agenda.schedule(r.start.Add(e.spec.At), e)
	}
	return nil
}

func (r *runner) newQMgr(spec QMgrSpec) (*embedded.QMgr, error) {
	qm := embedded.New(embedded.Options{Name: spec.Name, Now: r.clock.Now, Seed: seedFor(r.s.Seed, "qmgr", spec.Name)})
	for _, sc := range spec.Scripts {
		rep, err := qm.RunMQSC(strings.NewReader(sc.Text))
		if err != nil {
			return nil, fmt.Errorf("queue manager %s: %s: %w", spec.Name, sc.Name, err)
		}
		if failed := rep.Failed(); len(failed) > 0 {
			return nil, fmt.Errorf("queue manager %s: %s: line %d: %s", spec.Name, sc.Name, failed[0].Line, failed[0].Message)
		}
	}
	return qm, nil
}

// seedFor derives an actor's random source seed from the scenario seed and
// the actor's identity, so that adding an actor leaves the others' choices
// as they were.
func seedFor(seed uint64, parts ...string) uint64 {
	h := fnv.New64a()
	for _, p := range parts {
		h.Write([]byte(p))
		h.Write([]byte{0})
	}
	return seed ^ h.Sum64()
}

func newRand(seed uint64, parts ...string) *rand.Rand {
	s := seedFor(seed, parts...)
	return rand.New(rand.NewPCG(s, s^0x9E3779B97F4A7C15))
}

// connect opens an application's connection, remembered for shutdown.
func (r *runner) connect(qmgr, appl, user string) (mqwatch.Conn, error) {
	c, err := r.byName[qmgr].Connect(r.ctx, mqwatch.ConnectOptions{ApplName: appl, User: user})
	if err != nil {
		return nil, err
	}
	r.conns = append(r.conns, c)
	return c, nil
}

func (r *runner) startProducer(i int) error {
	spec := &r.s.Producers[i]
	conn, err := r.connect(spec.QMgr, spec.Name, spec.User)
	if err != nil {
		return err
	}
	p := &producer{r: r, idx: i, spec: spec, copies: 1, rng: newRand(r.s.Seed, "producer", spec.Name),
		trace: traceName(spec.Name)}
	targets := []mqwatch.ObjectDesc{{Name: spec.Queue, QMgr: spec.ToQMgr, Topic: spec.Topic}}
	if len(spec.Queues) > 0 {
		targets = targets[:0]
		for _, q := range spec.Queues {
			targets = append(targets, mqwatch.ObjectDesc{Name: q})
		}
	}
	for _, od := range targets {
		q, err := conn.Open(r.ctx, od, mqwatch.OpenOptions{Output: true, SetAllContext: true})
		if err != nil {
			return err
		}
		p.qs = append(p.qs, q)
	}
	if spec.Topic != "" {
		p.copies = r.subscribers(spec.QMgr, spec.Topic)
	}
	// The first burst comes when the producer starts, then one every Every.
	p.nextBurst = r.start.Add(spec.Start)
	r.agenda.schedule(p.nextBurst, p)
	return nil
}

// subscribers counts the scenario's subscriptions on qmgr that a publication
// on topic reaches. They all exist before the first publication and live as
// long as the run, so this is how many copies each publication makes.
func (r *runner) subscribers(qmgr, topic string) int {
	n := 0
	for _, c := range r.s.Consumers {
		if c.QMgr == qmgr && c.Subscription != nil && embedded.TopicMatches(c.Subscription.Topic, topic) {
			n++
		}
	}
	return n
}

// eventActor runs a timed MQSC event once.
type eventActor struct {
	r    *runner
	spec *EventSpec
}

func (e *eventActor) step(time.Time) (time.Time, bool) {
	res := EventResult{At: e.spec.At, QMgr: e.spec.QMgr}
	qm := e.r.byName[e.spec.QMgr]
	switch {
	case e.spec.Stop:
		qm.Stop()
		e.r.book.event(res)
		return time.Time{}, false
	case e.spec.Start:
		qm.Start()
		e.r.book.event(res)
		return time.Time{}, false
	}
	rep, err := qm.RunMQSC(strings.NewReader(e.spec.MQSC))
	var run *embedded.RunError
	switch {
	case errors.As(err, &run):
		res.Error = fmt.Sprintf("line %d: %s", run.First.Line, run.First.Message)
	case err != nil:
		res.Error = err.Error()
	case len(rep.Failed()) > 0:
		res.Error = rep.Failed()[0].Message
	}
	e.r.book.event(res)
	return time.Time{}, false
}
