package model

import (
	"time"

	"github.com/poisonwatch/poisonwatch/actions/dlqrules"
	"github.com/poisonwatch/poisonwatch/mqwatch"
)

// PredictEvery bounds how often a DEADQ whose messages keep changing is
// predicted again: a prediction of 100,000 messages costs a few tenths of a
// second of a core, which a poll every few seconds must not pay each time.
const PredictEvery = 10 * time.Second

// QueueRef names a queue of a queue manager.
type QueueRef struct{ QMgr, Queue string }

// Prediction is the preview's verdicts (dlqrules.Predict) for one queue's
// messages, worked out in the background and kept until the queue's
// inventory changes.
type Prediction struct {
	Inv *mqwatch.Inventory // the inventory the verdicts are for
	// verdicts index each message's verdict in Distinct: a queue of
	// 100,000 messages has a handful of different verdicts, counted by
	// index rather than by their text.
	verdicts map[mqwatch.Key]int32
	// atPos is the same index by position in Inv, so that a million
	// messages are counted without a million lookups.
	atPos    []int32
	Distinct []dlqrules.Verdict
	Err      error
	Running  bool
	Done     time.Time // when the last one ended
	Gen      int       // counts the answers, so caches know when to rebuild
}

// Predictions holds the loaded table's predictions, per queue.
type Predictions map[QueueRef]*Prediction

// Begin reports whether a prediction of inv should start now: none is under
// way, none is fresh for inv, and the last one (a failed one too) ended at
// least PredictEvery ago. When it says so, the prediction is marked running
// and subs are the messages to predict, in inventory order.
func (ps Predictions) Begin(q QueueRef, inv *mqwatch.Inventory, now time.Time) (subs []dlqrules.Subject, ok bool) {
	p := ps[q]
	if p == nil {
		p = &Prediction{}
		ps[q] = p
	}
	fresh := p.Gen > 0 && p.Inv == inv && p.Err == nil
	recent := p.Gen > 0 && now.Sub(p.Done) < PredictEvery
	if p.Running || fresh || recent {
		return nil, false
	}
	p.Running = true
	subs = make([]dlqrules.Subject, 0, inv.Len())
	var s mqwatch.Summary // a Subject holds its own copy
	for i := 0; i < inv.Len(); i++ {
		inv.Load(i, &s)
		subs = append(subs, dlqrules.SubjectOfSummary(&s))
	}
	return subs, true
}

// Finish keeps the verdicts vs of subs (as Begin gave them, for inv), or
// the error.
func (ps Predictions) Finish(q QueueRef, inv *mqwatch.Inventory, subs []dlqrules.Subject, vs []dlqrules.Verdict, err error, now time.Time) {
	p := ps[q]
	if p == nil {
		return
	}
	p.Running, p.Done, p.Inv, p.Err = false, now, inv, err
	p.Gen++
	if err != nil {
		return
	}
	p.verdicts, p.atPos, p.Distinct = make(map[mqwatch.Key]int32, len(vs)), make([]int32, len(vs)), nil
	index := map[dlqrules.Verdict]int32{}
	for i := range vs {
		j, ok := index[vs[i]]
		if !ok {
			j = int32(len(p.Distinct))
			index[vs[i]] = j
			p.Distinct = append(p.Distinct, vs[i])
		}
		p.verdicts[subs[i].Sum.Key()], p.atPos[i] = j, j
	}
}

// Of is the queue's prediction, nil when none was asked for.
func (ps Predictions) Of(q QueueRef) *Prediction { return ps[q] }

// Verdict is the latest prediction's verdict for a message, nil when it has
// none yet.
func (ps Predictions) Verdict(q QueueRef, s *mqwatch.Summary) *dlqrules.Verdict {
	if p := ps[q]; p != nil {
		return p.Verdict(s)
	}
	return nil
}

// Verdict is the message's verdict, nil when it has none.
func (p *Prediction) Verdict(s *mqwatch.Summary) *dlqrules.Verdict {
	if j, ok := p.verdicts[s.Key()]; ok {
		return &p.Distinct[j]
	}
	return nil
}

// index is the message's verdict in the prediction when it is for rule,
// -1 when there is none (no prediction yet, a new message).
func (p *Prediction) index(k mqwatch.Key, rule int) int32 {
	if p == nil {
		return -1
	}
	if j, ok := p.verdicts[k]; ok {
		return p.forRule(j, rule)
	}
	return -1
}

// forRule is verdict j when it is for rule, else -1.
func (p *Prediction) forRule(j int32, rule int) int32 {
	if p.Distinct[j].Rule == rule {
		return j
	}
	return -1
}
