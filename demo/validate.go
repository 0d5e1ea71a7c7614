package demo

import (
	"errors"
	"fmt"
	"math"
	"strings"
	"time"

	"github.com/poisonwatch/poisonwatch/actions"
	"github.com/poisonwatch/poisonwatch/codec/mqfmt"
)

// Limits on a scenario's size. They are far above any demo and keep a
// mistaken file from starting thousands of goroutines or connections.
const (
	maxQMgrs       = 100
	maxApps        = 1024
	maxQueues      = 10000 // queues one producer puts to in turn
	maxInstances   = 64
	maxRate        = 10000 // messages per second
	maxNameLen     = 28    // PutApplName and the application tag hold 28 characters
	traceNameLen   = 20    // the producer name part of ApplIdentityData
	defaultPoll    = 250 * time.Millisecond
	defaultProcess = 20 * time.Millisecond
	defaultSimTime = 5 * time.Minute
	maxExpiry      = time.Duration(math.MaxInt32) * 100 * time.Millisecond
)

// Validate checks the scenario and fills in defaults: the first queue manager
// for apps that name none, one instance, the poll and processing times.
func (s *Scenario) Validate() error {
	if s.Name == "" {
		s.Name = "scenario"
	}
	errs := s.checkScenarioDurations()
	s.Poll = orDefault(s.Poll, defaultPoll)
	s.Duration = orDefault(s.Duration, defaultSimTime)
	errs = append(errs, s.validateQMgrs()...)
	if len(s.QMgrs) == 0 {
		return errors.Join(errs...)
	}
	if n := len(s.Producers) + len(s.Consumers); n > maxApps {
		errs = append(errs, fmt.Errorf("%d producers and consumers, limit %d", n, maxApps))
	}
	traces := map[string]string{}
	for i := range s.Producers {
		p := &s.Producers[i]
		if err := s.validateProducer(p, traces); err != nil {
			errs = append(errs, fmt.Errorf("producer %d (%s): %w", i+1, mqfmt.Sanitize(p.Name), err))
		}
	}
	for i := range s.Consumers {
		c := &s.Consumers[i]
		if err := s.validateConsumer(c); err != nil {
			errs = append(errs, fmt.Errorf("consumer %d (%s): %w", i+1, mqfmt.Sanitize(c.Name), err))
		}
	}
	for i, e := range s.Events {
		does := 0
		for _, set := range []bool{strings.TrimSpace(e.MQSC) != "", e.Stop, e.Start} {
			if set {
				does++
			}
		}
		if e.At < 0 || !s.hasQMgr(e.QMgr) || does != 1 {
			errs = append(errs, fmt.Errorf("event %d: needs at >= 0, a queue manager of the scenario (got %q) and one of mqsc, stop and start", i+1, e.QMgr))
		}
	}
	return errors.Join(errs...)
}

func orDefault(d, def time.Duration) time.Duration {
	if d <= 0 {
		return def
	}
	return d
}

func (s *Scenario) validateQMgrs() []error {
	var errs []error
	if len(s.QMgrs) == 0 || len(s.QMgrs) > maxQMgrs {
		errs = append(errs, fmt.Errorf("%d queue managers: want 1 to %d", len(s.QMgrs), maxQMgrs))
	}
	seen := map[string]bool{}
	for _, q := range s.QMgrs {
		if err := checkName("queue manager", q.Name); err != nil {
			errs = append(errs, err)
		}
		if seen[q.Name] {
			errs = append(errs, fmt.Errorf("queue manager %s defined twice", q.Name))
		}
		seen[q.Name] = true
	}
	pairs := map[[2]string]bool{}
	for i, l := range s.Links {
		if len(l.QMgrs) < 2 {
			errs = append(errs, fmt.Errorf("link %d: needs at least two queue managers", i+1))
		}
		members := map[string]bool{}
		for _, a := range l.QMgrs {
			if members[a] {
				errs = append(errs, fmt.Errorf("link %d: %s listed twice", i+1, a))
			}
			members[a] = true
			if !seen[a] {
				errs = append(errs, fmt.Errorf("link %d: no queue manager %q", i+1, a))
			}
			for _, b := range l.QMgrs {
				if a != b && pairs[[2]string{a, b}] {
					errs = append(errs, fmt.Errorf("link %d: %s and %s are already linked", i+1, a, b))
				}
			}
		}
		for _, a := range l.QMgrs {
			for _, b := range l.QMgrs {
				pairs[[2]string{a, b}] = a != b
			}
		}
	}
	return errs
}

func (s *Scenario) hasQMgr(name string) bool {
	for _, q := range s.QMgrs {
		if q.Name == name {
			return true
		}
	}
	return false
}

// checkName checks an MQ object name: 1 to 48 of A-Z a-z 0-9 . / _ %.
func checkName(what, n string) error {
	if n == "" || len(n) > 48 {
		return fmt.Errorf("%s name %q: want 1 to 48 characters", what, n)
	}
	for _, r := range n {
		if !(r >= 'A' && r <= 'Z' || r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || strings.ContainsRune("._/%", r)) {
			return fmt.Errorf("%s name %q: character %q is not allowed in MQ names", what, n, r)
		}
	}
	return nil
}

func checkAppName(n string) error {
	if n == "" || len(n) > maxNameLen || strings.ContainsAny(n, "#\x00") {
		return fmt.Errorf("name %q: want 1 to %d characters without '#'", n, maxNameLen)
	}
	return checkPrintable("name", n, maxNameLen, false)
}

func (s *Scenario) defaultQMgr(q *string) error {
	if *q == "" {
		*q = s.QMgrs[0].Name
	}
	if !s.hasQMgr(*q) {
		return fmt.Errorf("no queue manager %q in the scenario", *q)
	}
	return nil
}

func (s *Scenario) validateProducer(p *ProducerSpec, traces map[string]string) error {
	if err := checkAppName(p.Name); err != nil {
		return err
	}
	// Each message carries its producer's name and a sequence number in
	// ApplIdentityData (32 characters), which is how accounting finds it.
	prefix := traceName(p.Name)
	if other, dup := traces[prefix]; dup {
		return fmt.Errorf("its first %d characters are those of producer %s", traceNameLen, other)
	}
	traces[prefix] = p.Name
	if err := s.defaultQMgr(&p.QMgr); err != nil {
		return err
	}
	if err := checkTargets(p); err != nil {
		return err
	}
	if p.Topic != "" && (p.ToQMgr != "" || p.DeadLetter != nil) {
		return errors.New("a topic producer publishes locally: no to_qmgr or dead_letter")
	}
	if p.ToQMgr != "" {
		if err := checkName("queue manager", p.ToQMgr); err != nil {
			return err
		}
	}
	if err := checkRates(p); err != nil {
		return err
	}
	if err := checkProducerFields(p); err != nil {
		return err
	}
	switch {
	case math.IsNaN(p.Poison) || p.Poison < 0 || p.Poison > 1:
		return fmt.Errorf("poison %v: want a fraction from 0 to 1", p.Poison)
	case p.Priority < -1 || p.Priority > 9:
		return fmt.Errorf("priority %d: want 0 to 9, or -1 for the queue's default", p.Priority)
	case p.Expiry < 0 || p.Expiry > maxExpiry:
		return fmt.Errorf("expiry %s: want 0 (unlimited) up to %s", p.Expiry, maxExpiry)
	case p.DeadLetter != nil && (p.DeadLetter.Reason <= 0 || p.DeadLetter.DestQ == ""):
		return errors.New("dead_letter needs a reason code and dest_q")
	}
	_, err := ParsePayloadKind(string(p.Payload))
	return err
}

// checkTargets checks where a producer puts: one queue, a list of queues
// taken in turn (local puts only), or a topic.
func checkTargets(p *ProducerSpec) error {
	given := 0
	for _, set := range []bool{p.Queue != "", len(p.Queues) > 0, p.Topic != ""} {
		if set {
			given++
		}
	}
	if given != 1 {
		return errors.New("give exactly one of queue, queues and topic")
	}
	if len(p.Queues) > maxQueues {
		return fmt.Errorf("%d queues, limit %d", len(p.Queues), maxQueues)
	}
	if len(p.Queues) > 0 && (p.ToQMgr != "" || p.DeadLetter != nil) {
		return errors.New("a producer over several queues puts locally: no to_qmgr or dead_letter")
	}
	names := p.Queues
	if p.Queue != "" {
		names = []string{p.Queue}
	}
	for _, q := range names {
		if err := checkName("queue", q); err != nil {
			return err
		}
	}
	return nil
}

func checkRates(p *ProducerSpec) error {
	bad := func(r float64) bool { return math.IsNaN(r) || math.IsInf(r, 0) || r < 0 || r > maxRate }
	b := p.Burst
	switch {
	case bad(p.Rate) || bad(b.Rate):
		return fmt.Errorf("rates %v and %v: want 0 to %d messages per second", p.Rate, b.Rate, maxRate)
	case p.Count < 0 || b.Count < 0 || p.Start < 0 || p.Stop < 0 || b.Every < 0:
		return errors.New("count, start, stop and burst values cannot be negative")
	case p.Stop > 0 && p.Stop <= p.Start:
		return fmt.Errorf("stop %s is not after start %s", p.Stop, p.Start)
	case (b.Count > 0) != (b.Every > 0) || (b.Count > 0 && b.Rate == 0):
		return errors.New("a burst needs every, count and rate")
	case p.Rate == 0 && b.Count == 0:
		return errors.New("needs a rate or a burst")
	}
	return nil
}

func (s *Scenario) validateConsumer(c *ConsumerSpec) error {
	if err := checkAppName(c.Name); err != nil {
		return err
	}
	if err := s.defaultQMgr(&c.QMgr); err != nil {
		return err
	}
	if (c.Queue == "") == (c.Subscription == nil) {
		return errors.New("give exactly one of queue and subscription")
	}
	if c.Queue != "" {
		if err := checkName("queue", c.Queue); err != nil {
			return err
		}
	}
	if sub := c.Subscription; sub != nil && (sub.Topic == "" || (sub.Durable && sub.Name == "")) {
		return errors.New("a subscription needs a topic, and a name when durable")
	}
	if err := checkConsumerDurations(c); err != nil {
		return err
	}
	if sub := c.Subscription; sub != nil {
		if err := errors.Join(checkPrintable("subscription topic", sub.Topic, 10240, false),
			checkPrintable("subscription name", sub.Name, 10240, false)); err != nil {
			return err
		}
	}
	if q := c.DeliveryCount.SpecialQueue; q != "" {
		if err := checkName("delivery_count special_queue", q); err != nil {
			return err
		}
	}
	if c.Instances == 0 {
		c.Instances = 1
	}
	c.Poll = orDefault(c.Poll, s.Poll)
	if c.Process == 0 {
		c.Process = defaultProcess
	}
	switch {
	case c.Instances < 1 || c.Instances > maxInstances:
		return fmt.Errorf("instances %d: want 1 to %d", c.Instances, maxInstances)
	case c.Process < 0 || c.ResumeAfter < 0 || c.Start < 0:
		return errors.New("process, resume_after and start cannot be negative")
	}
	_, err := c.options()
	return err
}

// consumerConfig is what a ConsumerSpec resolves to.
type consumerConfig struct {
	opts actions.ConsumerOptions
	fail Predicate
}

// options resolves the style, outcome, policy and predicate.
func (c *ConsumerSpec) options() (consumerConfig, error) {
	style, err := actions.ParseStyle(c.Style)
	if err != nil {
		return consumerConfig{}, err
	}
	cfg := consumerConfig{opts: actions.ConsumerOptions{Style: style, Queue: c.Queue, ApplName: c.Name}}
	switch strings.ToLower(c.Outcome) {
	case "", "commit":
		cfg.opts.Outcome = actions.OutcomeCommit
	case "rollback":
		cfg.opts.Outcome = actions.OutcomeRollback
	default:
		return cfg, fmt.Errorf("outcome %q: want commit or rollback", c.Outcome)
	}
	dc := c.DeliveryCount
	if dc != (DeliveryCountSpec{}) && style != actions.DeliveryCount {
		return cfg, fmt.Errorf("delivery_count applies to style delivery-count, not %s", style)
	}
	if dc.Threshold < 0 || dc.MaxDeliveryFailures < 0 {
		return cfg, errors.New("delivery_count threshold and max_delivery_failures cannot be negative")
	}
	onPoison, ok := map[string]actions.PoisonChoice{"": actions.PoisonRollback, "rollback": actions.PoisonRollback,
		"move": actions.PoisonMove, "discard": actions.PoisonDiscard}[strings.ToLower(dc.OnPoison)]
	if !ok || (onPoison == actions.PoisonMove && dc.SpecialQueue == "") {
		return cfg, fmt.Errorf("delivery_count on_poison %q: want rollback, discard, or move with special_queue", dc.OnPoison)
	}
	cfg.opts.Policy = actions.DeliveryCountPolicy{Threshold: dc.Threshold, OnPoison: onPoison,
		SpecialQueue: dc.SpecialQueue, MaxDeliveryFailures: dc.MaxDeliveryFailures}
	if m := c.MaxSequentialDeliveryFailures; m != nil {
		if style != actions.ASF {
			return cfg, fmt.Errorf("max_sequential_delivery_failures applies to style asf (an MDB on IBM MQ's resource adapter), not %s", style)
		}
		cfg.opts.PauseAfter = max(*m, -1) + 1 // IBM treats every negative value as -1: never
	}
	cfg.fail, err = ParsePredicate(c.Fail)
	return cfg, err
}

// traceName is the producer name part of ApplIdentityData.
func traceName(name string) string {
	if len(name) > traceNameLen {
		return name[:traceNameLen]
	}
	return name
}
