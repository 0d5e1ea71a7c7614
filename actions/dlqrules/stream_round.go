package dlqrules

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/poisonwatch/poisonwatch/actions/ops"
	"github.com/poisonwatch/poisonwatch/codec/mqfmt"
	"github.com/poisonwatch/poisonwatch/mqwatch"
)

// planOpens is the engine's bound on the targets one plan opens
// (ops.maxPlanOpens): a plan of more than that leaves the rest unopened,
// so a request whose kinds name more is planned batch by batch, as the
// messages are.
const planOpens = 256

// roundPlan is one round of a stream: its requests, the batches its
// messages fall in (as classify makes them) and the targets of each.
type roundPlan struct {
	reqs     []*sreq // in the order they came
	reqOf    map[int32]*sreq
	batches  blocks[sbatch] // in the order they were made
	perBatch map[int32]*kindPlan
	infos    []itemInfo
	targets  blocks[batchTarget]
	rooms    blocks[roomSlot]
}

// kindPlan is the kinds of message one plan is asked for, and its answer
// for each (an itemInfo).
type kindPlan struct {
	kinds  []int32 // in the order they came
	infoOf map[int32]int32
}

func (k *kindPlan) add(kind int32) {
	if _, ok := k.infoOf[kind]; !ok {
		k.infoOf[kind] = -1
		k.kinds = append(k.kinds, kind)
	}
}

// sreq is the messages of one engine request (a batchKey), by kind.
type sreq struct {
	key batchKey
	kindPlan
	// perBatch: its kinds name more targets than one plan opens, so each
	// batch is planned on its own (roundPlan.perBatch).
	perBatch bool
}

// sbatch is one batch of a request, as classify makes it: its request,
// the queue it puts to (numbered), its first message and its first target
// (batchTarget.next links the rest; -1 none). A million messages make
// hundreds of thousands of batches, so it holds no more.
type sbatch struct{ key, dest, first, targets int32 }

// itemInfo is the engine's plan of one kind of message in one request.
type itemInfo struct {
	target, targetQMgr string
	tid                int32 // the target's number
	counted            bool  // in the plan's count for its target
	act                bool  // would be acted on: the target's room decides
	base               int32
	roomed             bool // the queue's room decides (rc)
	rc                 roomCheck
	full               int32
}

// round classifies the messages this round takes, plans their requests
// kind by kind, shares the room of each target out in the order the run
// would act and gives each message its outcome; false when it took none.
func (s *stream) round(ctx context.Context, src Source) (bool, error) {
	r := &roundPlan{reqOf: map[int32]*sreq{}, perBatch: map[int32]*kindPlan{}}
	if !s.classifyRound(r) {
		return false, nil
	}
	pr := newPredictor(ctx, src.Conn)
	for _, q := range r.reqs {
		if err := s.planRequest(ctx, src, pr, r, q); err != nil {
			return false, err
		}
	}
	s.assign(r)
	for id := int32(0); len(r.perBatch) > 0 && int(id) < r.batches.len(); id++ {
		kp := r.perBatch[id]
		if kp == nil {
			continue
		}
		key := s.keys[r.batches.at(id).key]
		items, err := s.planKinds(ctx, src, key, kp.kinds)
		if err != nil {
			return false, err
		}
		for j, k := range kp.kinds {
			kp.infoOf[k] = s.info(pr, r, key.op, &items[j])
		}
	}
	s.countTargets(r)
	order := make([]int32, r.batches.len())
	for i := range order {
		order[i] = int32(i)
	}
	slices.SortStableFunc(order, func(a, b int32) int { return tableOrder(s.orderOf(r.batches.at(a)), s.orderOf(r.batches.at(b))) })
	for _, b := range order {
		s.shareRoom(pr, r, r.batches.at(b))
	}
	s.settle(r)
	return true, nil
}

// classifyRound classifies each message the round takes and gathers the
// kinds of each request; a message no request takes gets its outcome at
// once. entryOf is the classification of each message a request takes,
// -1 for the others.
func (s *stream) classifyRound(r *roundPlan) bool {
	any := false
	for i, st := range s.state {
		s.entryOf[i] = -1
		if !s.selected(st) {
			continue
		}
		any = true
		k := s.kindOf[i]
		e := s.entryFor(s.kinds[k].class, st)
		c := &s.entries[e]
		if !c.batched {
			s.state[i] = s.next(e, c.pre)
			continue
		}
		s.entryOf[i] = e
		q := r.reqOf[c.key]
		if q == nil {
			q = &sreq{key: s.keys[c.key], kindPlan: kindPlan{infoOf: map[int32]int32{}}}
			r.reqOf[c.key] = q
			r.reqs = append(r.reqs, q)
		}
		q.add(k)
	}
	return any
}

// planRequest asks the engine for the plan of one message of each of the
// request's kinds. Which batch a kind is in does not change what the plan
// says of it (a dry run reads the queue manager, not the other messages)
// but for the room of its target, which shareRoom shares out, and for the
// opens past planOpens, for which the request is planned batch by batch.
func (s *stream) planRequest(ctx context.Context, src Source, pr *predictor, r *roundPlan, q *sreq) error {
	items, err := s.planKinds(ctx, src, q.key, q.kinds)
	if err != nil {
		return err
	}
	if opens(q.key, items) > planOpens {
		q.perBatch = true
		return nil
	}
	for j, k := range q.kinds {
		q.infoOf[k] = s.info(pr, r, q.key.op, &items[j])
	}
	return nil
}

// assign puts the messages in batches as classify does: a request's
// messages in one batch, except that a message after another rule's
// message to the same queue starts a batch of its own. Each message's
// batch goes in batchOf.
func (s *stream) assign(r *roundPlan) {
	byKey := map[int32]int32{} // per request: its batch now
	last := map[int32]int32{}  // per dest: the batch that took its last message
	for i, e := range s.entryOf {
		if e < 0 {
			continue
		}
		c := &s.entries[e]
		b, ok := byKey[c.key]
		discard := c.x.Op == ops.OpDiscard
		if l, took := last[c.dest]; ok && !discard && took && l != b {
			ok = false
		}
		if !ok {
			b = r.batches.add(sbatch{key: c.key, dest: s.batchDest(c.key, s.kinds[s.kindOf[i]].class), first: int32(i), targets: -1})
			byKey[c.key] = b
			if r.reqOf[c.key].perBatch {
				r.perBatch[b] = &kindPlan{infoOf: map[int32]int32{}}
			}
		}
		if !discard {
			last[c.dest] = b
		}
		s.batchOf[i] = b
		if kp := r.perBatch[b]; kp != nil {
			kp.add(s.kindOf[i])
		}
	}
}

// batchDest numbers the queue a batch of request key puts to, whose first
// message is of class (newBatchHead's dest), once per request or class.
func (s *stream) batchDest(key, class int32) int32 {
	k := s.keys[key]
	cache, at := &s.keyDest, key
	if k.target == "" {
		cache, at = &s.classDest, class
	}
	for len(*cache) <= int(at) {
		*cache = append(*cache, -1)
	}
	if (*cache)[at] < 0 {
		name := k.target + "@" + k.targetQMgr
		if k.target == "" {
			cls := s.inv.Class(int(class))
			name = cls.DLHDestQ + "@" + cls.DLHDestQMgr
		}
		(*cache)[at] = s.number(s.destID, name)
	}
	return (*cache)[at]
}

// orderOf is what places a batch among the others (tableOrder).
func (s *stream) orderOf(b *sbatch) orderKey[int32] {
	k := &s.keys[b.key]
	return orderKey[int32]{rule: k.rule, discard: k.op == ops.OpDiscard, dest: b.dest, first: int(b.first)}
}

// planKinds is the engine's plan (a dry run) of one message of each kind.
func (s *stream) planKinds(ctx context.Context, src Source, key batchKey, kinds []int32) ([]ops.OpItem, error) {
	b := batch{batchHead: batchHead{key: key}, sums: make([]mqwatch.Summary, len(kinds))}
	for j, k := range kinds {
		s.inv.Load(s.kinds[k].first, &b.sums[j])
	}
	req := b.request(s.qmgr, s.queue)
	req.DryRun, req.Browsed = true, true
	p, err := src.Engine.Plan(ctx, req)
	if err == nil && len(p.Items) != len(kinds) {
		err = fmt.Errorf("the plan has %d items for %d messages", len(p.Items), len(kinds))
	}
	if err != nil {
		return nil, fmt.Errorf("rule %d: %w", key.rule+1, err)
	}
	return p.Items, nil
}

// opens counts the targets a plan could have opened: more than planOpens
// and the engine left some unopened.
func opens(key batchKey, items []ops.OpItem) int {
	seen := map[string]bool{}
	for i := range items {
		if it := &items[i]; it.Target != "" {
			alt := ""
			if key.putAuth == ops.PutAuthContext {
				alt = strings.TrimSpace(it.Msg.UserId)
			}
			seen[it.Target+"@"+it.TargetQMgr+"\x00"+alt] = true
		}
	}
	return len(seen)
}

// info is what the plan of one kind says, before the room of its target.
// The engine's plan counted one message of the kind where the batch holds
// many, so its cut at the target's room (the only MQRC_Q_FULL a plan
// predicts without an open) is undone here and made by shareRoom with the
// batch's counts.
func (s *stream) info(pr *predictor, r *roundPlan, op ops.Op, item *ops.OpItem) int32 {
	it := *item
	if it.Kind == ops.WouldFail && it.Reason == int32(mqfmt.RCQFull) && !it.Opened {
		it.Kind, it.Detail, it.Reason = ops.WouldAct, "", 0
	}
	in := itemInfo{target: it.Target, targetQMgr: it.TargetQMgr, act: it.Target != "" && it.Kind == ops.WouldAct,
		tid: s.number(s.destID, it.Target+"@"+it.TargetQMgr)}
	switch it.Kind {
	case ops.WouldAct, ops.WouldDeadLetterAgain, ops.WouldComeBack:
		in.counted = it.Target != ""
	}
	p, rc, ok := pr.planned(op, &it)
	in.base, in.roomed, in.rc = s.pred(p), ok, rc
	if ok {
		in.full = s.pred(rc.full)
	}
	r.infos = append(r.infos, in)
	return int32(len(r.infos) - 1)
}
