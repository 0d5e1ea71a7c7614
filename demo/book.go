package demo

import (
	"cmp"
	"maps"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/poisonwatch/poisonwatch/actions"
	"github.com/poisonwatch/poisonwatch/codec/mqfmt"
)

// RouteCount is how many messages one consumer sent down one route: what the
// engine decided (and the rule that decided it) and where the message went.
type RouteCount struct {
	QMgr     string `json:"qmgr"`
	Consumer string `json:"consumer"`
	Style    string `json:"style"`
	Queue    string `json:"queue"`
	// Action is the engine's action ("move to BOQ", "discard", ...), or for a
	// delivery what the application did: "delivered, processed" or
	// "delivered, failed, rolled back"; "loop forever, rolled back" for a
	// poison loop.
	Action     string `json:"action"`
	Target     string `json:"target,omitempty"`
	Reason     int32  `json:"reason,omitempty"`
	ReasonName string `json:"reason_name,omitempty"`
	Rule       string `json:"rule,omitempty"` // the rule of the decision's last step
	Count      int64  `json:"count"`
}

type routeKey struct {
	group                int
	action, target, rule string
	reason               int32
}

// ProducerStats are one producer's figures.
type ProducerStats struct {
	Name     string `json:"name"`
	QMgr     string `json:"qmgr"`
	Target   string `json:"target"`
	Produced int64  `json:"produced"`
	// Copies counts the messages the puts made: one per put to a queue, one
	// per matching subscription for a publication.
	Copies int64 `json:"copies"`
	// PutFailed counts failed puts by reason code (e.g. 2053 when the queue
	// is full); those messages were never produced.
	PutFailed map[string]int64 `json:"put_failed,omitempty"`
}

// ConsumerState is one consumer group's state.
type ConsumerState struct {
	Name      string `json:"name"`
	QMgr      string `json:"qmgr"`
	Queue     string `json:"queue"`
	Style     string `json:"style"`
	Instances int    `json:"instances"`
	// State is "running", "stopped (R4f)" or "paused (R9c)" (any instance).
	State  string `json:"state"`
	Errors int64  `json:"errors,omitempty"`
}

// book keeps the figures of a run. The scheduler goroutine writes; callers
// of Run's accessors read concurrently.
type book struct {
	mu        sync.Mutex
	routes    map[routeKey]int64
	producers []ProducerStats
	consumers []ConsumerState
	events    []EventResult
}

func newBook(s *Scenario) *book {
	b := &book{routes: map[routeKey]int64{}}
	for _, p := range s.Producers {
		t := p.Queue
		switch {
		case len(p.Queues) > 0:
			t = p.Queues[0] + " … " + p.Queues[len(p.Queues)-1] + " (" + strconv.Itoa(len(p.Queues)) + " queues in turn)"
		case p.Topic != "":
			t = "topic " + p.Topic
		case p.ToQMgr != "":
			t += "@" + p.ToQMgr
		}
		b.producers = append(b.producers, ProducerStats{Name: p.Name, QMgr: p.QMgr, Target: t, PutFailed: map[string]int64{}})
	}
	return b
}

func (b *book) addConsumer(st ConsumerState) int {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.consumers = append(b.consumers, st)
	return len(b.consumers) - 1
}

func (b *book) produced(i int, copies int) {
	b.mu.Lock()
	b.producers[i].Produced++
	b.producers[i].Copies += int64(copies)
	b.mu.Unlock()
}

func (b *book) putFailed(i int, rc mqfmt.Reason) {
	b.mu.Lock()
	b.producers[i].PutFailed[strconv.Itoa(int(rc))]++
	b.mu.Unlock()
}

func (b *book) setState(group int, state string) {
	b.mu.Lock()
	b.consumers[group].State = state
	b.mu.Unlock()
}

func (b *book) consumerError(group int) {
	b.mu.Lock()
	b.consumers[group].Errors++
	b.mu.Unlock()
}

// handled counts the route one poll took.
func (b *book) handled(group int, res *actions.Handled) {
	k := routeKey{group: group, action: res.Fate.String(), target: res.Queue, reason: int32(res.Reason)}
	if n := len(res.Why); n > 0 {
		k.rule = res.Why[n-1].Rule
	}
	switch res.Fate {
	case actions.Deliver:
		k.target = ""
		k.action = "delivered, processed"
		if res.HandlerErr != nil {
			k.action = "delivered, failed, rolled back"
		}
	case actions.LoopForever:
		k.target = ""
		k.action = "loop forever, processed"
		if res.HandlerErr != nil {
			k.action = "loop forever, rolled back"
		}
	}
	b.mu.Lock()
	b.routes[k]++
	b.mu.Unlock()
}

// Routes returns the route counts, busiest first within each consumer.
func (b *book) Routes() []RouteCount {
	b.mu.Lock()
	defer b.mu.Unlock()
	out := make([]RouteCount, 0, len(b.routes))
	for k, n := range b.routes {
		c := b.consumers[k.group]
		r := RouteCount{QMgr: c.QMgr, Consumer: c.Name, Style: c.Style, Queue: c.Queue, Action: k.action,
			Target: k.target, Reason: k.reason, Rule: k.rule, Count: n}
		if k.reason != 0 {
			r.ReasonName = mqfmt.Reason(k.reason).String()
		}
		out = append(out, r)
	}
	slices.SortFunc(out, func(a, b RouteCount) int {
		return cmp.Or(strings.Compare(a.QMgr, b.QMgr), strings.Compare(a.Queue, b.Queue),
			strings.Compare(a.Consumer, b.Consumer), cmp.Compare(b.Count, a.Count),
			strings.Compare(a.Action, b.Action), strings.Compare(a.Target, b.Target),
			strings.Compare(a.Rule, b.Rule), cmp.Compare(a.Reason, b.Reason))
	})
	return out
}

// Producers returns a copy of the producers' figures.
func (b *book) Producers() []ProducerStats {
	b.mu.Lock()
	defer b.mu.Unlock()
	out := slices.Clone(b.producers)
	for i := range out {
		out[i].PutFailed = maps.Clone(out[i].PutFailed)
	}
	return out
}

// Consumers returns a copy of the consumer groups' states.
func (b *book) Consumers() []ConsumerState {
	b.mu.Lock()
	defer b.mu.Unlock()
	return slices.Clone(b.consumers)
}

func (b *book) event(e EventResult) {
	b.mu.Lock()
	b.events = append(b.events, e)
	b.mu.Unlock()
}

// Events returns the events that have run.
func (b *book) Events() []EventResult {
	b.mu.Lock()
	defer b.mu.Unlock()
	return slices.Clone(b.events)
}
