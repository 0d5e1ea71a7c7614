package demo

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"time"

	"github.com/poisonwatch/poisonwatch/codec/mqfmt"
	"github.com/poisonwatch/poisonwatch/mqwatch"
)

// producer puts one message per step at its rate, plus its bursts.
type producer struct {
	r      *runner
	idx    int
	spec   *ProducerSpec
	qs     []mqwatch.Queue // the target; with Queues, one handle per queue, taken in turn
	rng    *rand.Rand
	trace  string
	copies int // messages each put makes: 1, or the matching subscriptions
	seq    int
	// burstLeft counts the messages of the current burst still to put.
	burstLeft int
	nextBurst time.Time
}

func (p *producer) step(now time.Time) (time.Time, bool) {
	s := p.spec
	if (s.Stop > 0 && !now.Before(p.r.start.Add(s.Stop))) || (s.Count > 0 && p.seq >= s.Count) {
		return time.Time{}, false
	}
	if s.Burst.Count > 0 && !now.Before(p.nextBurst) {
		p.burstLeft = s.Burst.Count
		for !now.Before(p.nextBurst) {
			p.nextBurst = p.nextBurst.Add(s.Burst.Every)
		}
	}
	p.put(now)
	if p.burstLeft > 0 {
		p.burstLeft--
	}
	switch {
	case p.burstLeft > 0:
		return now.Add(interval(s.Burst.Rate)), true
	case s.Rate == 0:
		return p.nextBurst, true
	}
	// Uniform jitter of ±50% around the mean interval: arrivals that look
	// like traffic, not a metronome.
	d := time.Duration((0.5 + p.rng.Float64()) * float64(interval(s.Rate)))
	return now.Add(d), true
}

func interval(rate float64) time.Duration {
	return time.Duration(float64(time.Second) / rate)
}

// put builds and puts message p.seq+1. A failed put (queue full, put
// inhibited) is counted and the message is not produced, as an application
// that gets an error back from MQPUT has sent nothing.
func (p *producer) put(now time.Time) {
	p.seq++
	poison := p.rng.Float64() < p.spec.Poison
	spec, q := p.spec, p.qs[(p.seq-1)%len(p.qs)]
	if len(spec.Queues) > 0 {
		// The message names the queue it goes to (a JMS destination, the
		// record's noun), as if the batch job had one producer per queue.
		one := *spec
		one.Queue = q.Name()
		spec = &one
	}
	m, err := build(spec, p.bodyID(), poison, p.rng, now)
	if err != nil {
		p.r.book.putFailed(p.idx, 0)
		return
	}
	ident := fmt.Sprintf("%s#%d", p.trace, p.seq)
	p.setContext(&m.md, ident, now)
	err = q.Put(p.r.ctx, &m.md, m.data, mqwatch.PutOptions{NewMsgId: true, Context: mqwatch.ContextSetAll})
	if err != nil {
		p.r.book.putFailed(p.idx, mqwatch.ReasonOf(err))
		return
	}
	p.r.book.produced(p.idx, p.copies)
	if p.r.ledger != nil {
		p.r.ledger.produce(ident, m.md.MsgId, p.copies, p.spec.Topic == "")
	}
}

// bodyID is the record id in the body, e.g. ORD-000042.
func (p *producer) bodyID() string {
	n := strings.ToUpper(noun(p.spec))
	return fmt.Sprintf("%s-%06d", n[:min(3, len(n))], p.seq)
}

// setContext fills identity and origin context as the application's
// connection would (MQPMO_SET_ALL_CONTEXT), with ApplIdentityData naming the
// producer and the message's sequence number: identity context travels with
// the message through moves, channels, dead-lettering and reports, which is
// how a simulation finds every message again.
func (p *producer) setContext(md *mqfmt.MQMD, ident string, now time.Time) {
	user := p.spec.User
	if user == "" {
		user = "app"
	}
	md.UserIdentifier = user
	md.AccountingToken = [32]byte{}
	md.ApplIdentityData = ident
	md.PutApplType = mqfmt.ATUnix
	if p.spec.Payload.jms() {
		md.PutApplType = mqfmt.ATJava
	}
	md.PutApplName = p.spec.Name
	md.PutDate, md.PutTime = mqfmt.FormatPutTime(now)
	md.ApplOriginData = ""
}
