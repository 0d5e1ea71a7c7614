package model

import (
	"fmt"
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

// Prediction is the preview's verdicts (dlqrules.PredictInventory) for one
// queue's messages, worked out in the background and kept until the
// queue's inventory changes.
type Prediction struct {
	Inv *mqwatch.Inventory // the inventory the verdicts are for
	// atPos indexes each message of Inv, by position, to its verdict in
	// Distinct: a queue of a million messages has a handful of different
	// verdicts, counted by index rather than by their text.
	atPos []int32
	// keys finds a message of Inv by its identity (a message screen, a
	// rebuilt inventory), without a map of a million entries.
	keys keyIndex
	// byClass counts the verdicts of Inv class by class, so that the
	// counts of a new prediction are taken on the update loop without a
	// pass over every message (RuleCounts).
	byClass  []classCount
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
// least PredictEvery ago. When it says so, the prediction is marked running:
// the caller predicts inv off the update loop (dlqrules.PredictInventory,
// then NewAnswer) and hands the answer to Finish. It costs nothing per
// message: a million messages are not copied on the update loop.
func (ps Predictions) Begin(q QueueRef, inv *mqwatch.Inventory, now time.Time) bool {
	p := ps[q]
	if p == nil {
		p = &Prediction{}
		ps[q] = p
	}
	fresh := p.Gen > 0 && p.Inv == inv && p.Err == nil
	recent := p.Gen > 0 && now.Sub(p.Done) < PredictEvery
	if p.Running || fresh || recent {
		return false
	}
	p.Running = true
	return true
}

// Answer is a prediction's answer made ready for the dashboard: its
// verdicts by position and the index of its inventory's messages by
// identity, built where the prediction ran, off the update loop.
type Answer struct {
	inv     *mqwatch.Inventory
	vs      *dlqrules.Verdicts
	keys    keyIndex
	byClass []classCount
	err     error
}

// NewAnswer is the answer of a prediction of inv: its verdicts, or the
// error. It reads every message of inv (the identity index, the counts by
// class), so it belongs with the prediction, off the update loop.
func NewAnswer(inv *mqwatch.Inventory, vs *dlqrules.Verdicts, err error) *Answer {
	if n := 0; err == nil {
		if vs != nil {
			n = len(vs.At)
		}
		if n != inv.Len() {
			err = fmt.Errorf("the prediction has verdicts for %d of the %d messages", n, inv.Len())
		}
	}
	a := &Answer{inv: inv, vs: vs, err: err}
	if err == nil {
		a.keys, a.byClass = newKeyIndex(inv), countByClass(inv, vs.At)
	}
	return a
}

// Finish keeps the answer of the prediction Begin started for q. It only
// keeps what NewAnswer made: nothing per message on the update loop.
func (ps Predictions) Finish(q QueueRef, a *Answer, now time.Time) {
	p := ps[q]
	if p == nil {
		return
	}
	p.Running, p.Done, p.Inv, p.Err = false, now, a.inv, a.err
	p.Gen++
	p.atPos, p.keys, p.byClass, p.Distinct = nil, keyIndex{}, nil, nil
	if a.err == nil {
		p.atPos, p.keys, p.byClass, p.Distinct = a.vs.At, a.keys, a.byClass, a.vs.Distinct
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
	if i, ok := p.keys.find(s.Key()); ok {
		return &p.Distinct[p.atPos[i]]
	}
	return nil
}

// index is the message's verdict in the prediction when it is for rule,
// -1 when there is none (no prediction yet, a new message).
func (p *Prediction) index(k mqwatch.Key, rule int) int32 {
	if p == nil {
		return -1
	}
	if i, ok := p.keys.find(k); ok {
		return p.forRule(p.atPos[i], rule)
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

// classCount is one class of a prediction's inventory: its first message,
// how many it has and how many meet each verdict.
type classCount struct {
	first, n int
	verdicts []verdictCount
}

type verdictCount struct {
	verdict int32 // in Distinct
	n       int
}

// countByClass counts the verdicts at of inv's messages per class, the
// classes in the order their first messages come.
func countByClass(inv *mqwatch.Inventory, at []int32) []classCount {
	slot := make([]int32, inv.NumClasses())
	for i := range slot {
		slot[i] = -1
	}
	var out []classCount
	for i := range inv.Len() {
		id := inv.ClassID(i)
		if slot[id] < 0 {
			slot[id] = int32(len(out))
			out = append(out, classCount{first: i})
		}
		c := &out[slot[id]]
		c.n++
		j := 0
		for j < len(c.verdicts) && c.verdicts[j].verdict != at[i] {
			j++
		}
		if j == len(c.verdicts) {
			c.verdicts = append(c.verdicts, verdictCount{verdict: at[i]})
		}
		c.verdicts[j].n++
	}
	return out
}
