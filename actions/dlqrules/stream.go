package dlqrules

import (
	"context"
	"slices"

	"github.com/poisonwatch/poisonwatch/mqwatch"
)

// Verdicts is what a table would do to each message of an inventory, by
// position: a million messages meet a handful of different verdicts, so
// each message keeps only the index of its own.
type Verdicts struct {
	// Distinct are the different verdicts, in the order the messages first
	// meet them.
	Distinct []Verdict
	// At is the index in Distinct of each message's verdict, in queue order.
	At []int32
}

// Of is the verdict of the i-th message.
func (vs *Verdicts) Of(i int) *Verdict { return &vs.Distinct[vs.At[i]] }

// PredictInventory says what t would do to each message of inv, the
// dashboard's inventory of queue, exactly as Predict says it of the same
// messages listed one by one, changing nothing. It works kind by kind
// rather than message by message: a message's verdict depends on its class
// (every fact a rule sees in a summary), its length and expiry (which the
// engine's put checks and its consumer's route read) and its place in the
// queue (the room left on a target goes to the first messages). So the
// engine plans one message of each kind per request instead of a million,
// the room is shared out by counting, and what it holds per message is a
// few integers, not a copy of its summary.
//
// Unlike Predict, it does not browse the queue again for each message to
// see it is still there (a million MQGETs): the inventory is the watcher's
// reading of the queue, and the messages that left since leave the counts
// with the next poll.
func PredictInventory(ctx context.Context, src Source, t *Table, queue string, inv *mqwatch.Inventory) (*Verdicts, error) {
	qmi, err := src.Conn.QMgr(ctx)
	if err != nil {
		return nil, err
	}
	s := newStream(t, inv, qmi.Name, queue)
	// Round 0 gives each message its rule; each later one follows the
	// messages whose put would fail to the next matching rule (thens).
	for round := 0; round <= len(t.Rules); round++ {
		more, err := s.round(ctx, src)
		if err != nil {
			return nil, err
		}
		if !more {
			break
		}
	}
	return s.verdicts(), nil
}

// stream is a prediction of an inventory under way.
type stream struct {
	t           *Table
	inv         *mqwatch.Inventory
	qmgr, queue string
	mt          *matcher
	facts       []*Facts // per class of inv, of the first message seen of it
	kinds       []kind
	// Per message: its kind, its state (the verdict so far), and this
	// round's classification (-1: no request takes it this round), batch,
	// then its batch's target (-1: none) and plan.
	kindOf, state, entryOf, batchOf, infoOf []int32
	states                                  []pstate
	entries                                 []classed
	byClassState                            map[[2]int32]int32
	preds                                   []predicted
	predID                                  map[predicted]int32
	keys                                    []batchKey
	keyID                                   map[batchKey]int32
	destID                                  map[string]int32
	keyDest, classDest                      []int32 // batchDest's, per request and per class
}

// kind is the messages of one class, length and expiry: everything an
// engine's plan reads of a message but its identity.
type kind struct {
	class int32
	first int // its first message
}

type kindKey struct {
	class  int32
	length int
	expiry int32
}

// pstate is where a message is in the prediction: its verdict so far, the
// rules whose attempts it spent and the outcome of the latest one.
type pstate struct {
	v     Verdict
	spent []int
	last  Prediction
	fresh bool // before round 0
}

// classed is the classification of one class in one state.
type classed struct {
	class, state int32
	m            Match
	x            Resolved
	// key and dest number the engine request that takes it and the queue
	// it puts to (requestOf); batched is false when none takes it, and
	// pre is then its outcome.
	key, dest int32
	batched   bool
	pre       int32
	next      map[int32]int32 // outcome -> the state it leads to
}

func newStream(t *Table, inv *mqwatch.Inventory, qmgr, queue string) *stream {
	n := inv.Len()
	s := &stream{t: t, inv: inv, qmgr: qmgr, queue: queue, mt: newMatcher(t), facts: make([]*Facts, inv.NumClasses()),
		kindOf: make([]int32, n), state: make([]int32, n), entryOf: make([]int32, n), batchOf: make([]int32, n), infoOf: make([]int32, n),
		states: []pstate{{fresh: true}}, byClassState: map[[2]int32]int32{}, predID: map[predicted]int32{},
		keyID: map[batchKey]int32{}, destID: map[string]int32{}}
	byKey := map[kindKey]int32{}
	var sum mqwatch.Summary
	for i := range n {
		inv.Load(i, &sum)
		k := kindKey{class: int32(inv.ClassID(i)), length: sum.Length, expiry: sum.Expiry}
		id, ok := byKey[k]
		if !ok {
			id = int32(len(s.kinds))
			byKey[k] = id
			s.kinds = append(s.kinds, kind{class: k.class, first: i})
			if s.facts[k.class] == nil {
				f := FactsOfSummary(&sum)
				s.facts[k.class] = &f
			}
		}
		s.kindOf[i] = id
	}
	return s
}

// selected reports whether a message in state st takes part in this round:
// every message in round 0, then those whose latest rule's put would fail.
func (s *stream) selected(st int32) bool {
	p := &s.states[st]
	return p.fresh || p.v.Rule >= 0 && p.last == WouldFailPut
}

// entryFor classifies a class in a state, once.
func (s *stream) entryFor(class, state int32) int32 {
	if e, ok := s.byClassState[[2]int32{class, state}]; ok {
		return e
	}
	var skip func(r int) bool
	if spent := s.states[state].spent; !s.states[state].fresh {
		skip = func(r int) bool { return slices.Contains(spent, r) }
	}
	e := classed{class: class, state: state, next: map[int32]int32{}}
	e.m, e.x, _ = resolve(s.t, s.mt, s.facts[class], s.qmgr, s.queue, skip)
	k, dest, ok := requestOf(e.m, e.x)
	e.batched = ok
	if ok {
		e.key, e.dest = s.keyNumber(k), s.number(s.destID, dest)
	} else {
		var p predicted
		if e.m.Rule >= 0 {
			p = unplanned(e.x)
		}
		e.pre = s.pred(p)
	}
	id := int32(len(s.entries))
	s.entries = append(s.entries, e)
	s.byClassState[[2]int32{class, state}] = id
	return id
}

// keyNumber numbers requests in the order they come.
func (s *stream) keyNumber(k batchKey) int32 {
	id, ok := s.keyID[k]
	if !ok {
		id = int32(len(s.keys))
		s.keyID[k] = id
		s.keys = append(s.keys, k)
	}
	return id
}

// number numbers names in the order they come.
func (s *stream) number(ids map[string]int32, name string) int32 {
	id, ok := ids[name]
	if !ok {
		id = int32(len(ids))
		ids[name] = id
	}
	return id
}

// pred is the number of an outcome.
func (s *stream) pred(p predicted) int32 {
	if id, ok := s.predID[p]; ok {
		return id
	}
	id := int32(len(s.preds))
	s.preds = append(s.preds, p)
	s.predID[p] = id
	return id
}

// next is the state a message of entry e goes to with outcome p.
func (s *stream) next(e, p int32) int32 {
	if st, ok := s.entries[e].next[p]; ok {
		return st
	}
	st := int32(len(s.states))
	s.states = append(s.states, s.advance(&s.entries[e], s.preds[p]))
	s.entries[e].next[p] = st
	return st
}

// advance is what verdicts (round 0) and thens (the rounds after) make of
// a message's verdict, given its classification and outcome.
func (s *stream) advance(e *classed, p predicted) pstate {
	old := s.states[e.state]
	if old.fresh {
		v := Verdict{Rule: e.m.Rule, Certain: e.m.Certain}
		if v.Rule < 0 {
			v.Why = s.t.Match(s.facts[e.class]).Why
			return pstate{v: v, last: v.Predicted}
		}
		v.Does, v.Outcome, v.Predicted = e.x.String(), p.text, p.kind
		return pstate{v: v, spent: []int{v.Rule}, last: p.kind}
	}
	ns := pstate{v: old.v, spent: old.spent, last: WouldStay}
	step := "no rule is left: it stays on the DEADQ"
	if r := e.m.Rule; r >= 0 {
		step = says(s.t.Rules[r].Name()+": "+e.x.String(), p.text)
		ns.spent, ns.last = append(slices.Clip(old.spent), r), p.kind
		if !e.m.Certain {
			step += ifWhole
		}
	}
	if ns.v.Then != "" {
		ns.v.Then += "; then "
	}
	ns.v.Then += step
	return ns
}

// verdicts are the messages' final states as verdicts, numbered in the
// order the messages first meet them.
func (s *stream) verdicts() *Verdicts {
	out := &Verdicts{At: make([]int32, len(s.state))}
	byState := make([]int32, len(s.states))
	for i := range byState {
		byState[i] = -1
	}
	index := map[Verdict]int32{}
	for i, st := range s.state {
		j := byState[st]
		if j < 0 {
			v := s.states[st].v
			var ok bool
			if j, ok = index[v]; !ok {
				j = int32(len(out.Distinct))
				index[v] = j
				out.Distinct = append(out.Distinct, v)
			}
			byState[st] = j
		}
		out.At[i] = j
	}
	return out
}
