package dlqrules

import (
	"fmt"

	"github.com/poisonwatch/poisonwatch/actions/ops"
	"github.com/poisonwatch/poisonwatch/codec/mqfmt"
)

// batchTarget is one target of one batch: the messages the engine's plan
// of the batch counts for it and those it would act on, its cut at the
// target's room, and the predictor's counter of the queue it resolves to.
// There are hundreds of thousands at a million messages: it holds numbers.
type batchTarget struct {
	info, act  int32 // a plan of it (its name) and one it acts on (-1 none: its room check)
	next       int32 // the batch's next target, -1 none
	n, acted   int32
	room, seen int32 // the room of a target that is cut (more counted than room)
	noRoom     int32 // the outcome past its room
	slot       int32 // the predictor's counter, -1 none
	cut        bool
}

// roomSlot is the room a batch finds left on a queue, for the predictor,
// and the messages that met it so far.
type roomSlot struct{ left, seen int32 }

// countTargets counts each batch's messages per target as the engine's
// plan of the batch counts them; a message's batchOf becomes its target.
func (s *stream) countTargets(r *roundPlan) {
	at := map[uint64]int32{} // batch and target -> its batchTarget
	for i, e := range s.entryOf {
		if e < 0 {
			continue
		}
		id := s.batchOf[i]
		b := r.batches.at(id)
		k := s.kindOf[i]
		in := r.reqOf[b.key].infoOf[k]
		if kp := r.perBatch[id]; kp != nil {
			in = kp.infoOf[k]
		}
		s.infoOf[i], s.batchOf[i] = in, -1
		info := &r.infos[in]
		if !info.counted {
			continue
		}
		key := uint64(id)<<32 | uint64(info.tid)
		t, ok := at[key]
		if !ok {
			t = r.targets.add(batchTarget{info: in, act: -1, next: b.targets, slot: -1})
			at[key] = t
			b.targets = t
		}
		bt := r.targets.at(t)
		bt.n++
		if info.act {
			bt.acted++
			bt.act = in
		}
		s.batchOf[i] = t
	}
}

// shareRoom shares out the room of the batch's targets as the run would
// meet it: first as the engine's plan of the batch does (its messages to a
// local target past the room it has are predicted to fail, ops.noRoom),
// then as the predictor does across the batches, in the order the run
// makes them (the room left on the queue a target resolves to).
func (s *stream) shareRoom(pr *predictor, r *roundPlan, b *sbatch) {
	took := map[int32]int32{} // the batch's predictor counters -> the messages it puts there
	for t := b.targets; t >= 0; t = r.targets.at(t).next {
		bt := r.targets.at(t)
		in := &r.infos[bt.info]
		left := bt.acted
		if room, ok := engineRoom(pr, in.target, in.targetQMgr); ok && room < int(bt.n) {
			bt.cut, bt.room, left = true, int32(room), min(bt.acted, int32(room))
			it := ops.OpItem{Target: in.target, TargetQMgr: in.targetQMgr, Kind: ops.WouldFail, Reason: int32(mqfmt.RCQFull),
				Detail: fmt.Sprintf("no room: %s has room for %d of the %d messages", in.target, room, bt.n)}
			p, _, _ := pr.planned(s.keys[b.key].op, &it)
			bt.noRoom = s.pred(p)
		}
		if bt.act < 0 || !r.infos[bt.act].roomed {
			continue
		}
		rc := &r.infos[bt.act].rc
		for o := b.targets; o >= 0 && bt.slot < 0; o = r.targets.at(o).next {
			if ot := r.targets.at(o); ot.slot >= 0 && r.infos[ot.act].rc.queue == rc.queue {
				bt.slot = ot.slot
			}
		}
		if bt.slot < 0 {
			start, seen := pr.room[rc.queue]
			if !seen {
				start = rc.room
			}
			bt.slot = r.rooms.add(roomSlot{left: int32(start)})
		}
		took[bt.slot] += left
	}
	for slot, n := range took { // what the batch leaves of each queue's room to the next
		if left := r.rooms.at(slot).left; left > 0 && n > 0 {
			for t := b.targets; t >= 0; t = r.targets.at(t).next {
				if r.targets.at(t).slot == slot {
					pr.room[r.infos[r.targets.at(t).act].rc.queue] = int(left - min(n, left))
					break
				}
			}
		}
	}
}

// settle gives each message of the round its outcome, in queue order: the
// plan's, unless the room of its target or of the queue it lands on was
// gone by the time the run would reach it.
func (s *stream) settle(r *roundPlan) {
	for i, e := range s.entryOf {
		if e < 0 {
			continue
		}
		in := &r.infos[s.infoOf[i]]
		p := in.base
		if t := s.batchOf[i]; t >= 0 {
			bt := r.targets.at(t)
			cut := false
			if in.act && bt.cut {
				bt.seen++
				cut = bt.seen > bt.room
			}
			// Past its target's room in the batch, a message fails there;
			// within it, the room of the queue it lands on decides.
			switch {
			case cut:
				p = bt.noRoom
			case in.roomed:
				rs := r.rooms.at(bt.slot)
				if rs.seen++; rs.seen > rs.left {
					p = in.full
				}
			}
		}
		s.state[i] = s.next(e, p)
	}
}

// engineRoom is the room the engine's plan gives a target (ops'
// opTargets.room): a local queue's MAXDEPTH less its depth, when known.
func engineRoom(pr *predictor, name, qmgr string) (int, bool) {
	if pr.inv == nil || qmgr != "" {
		return 0, false
	}
	f := pr.inv.Facts(name)
	if !f.Exists || f.Resolved == "" || f.MaxDepth <= 0 {
		return 0, false
	}
	return max(int(f.MaxDepth-f.Depth), 0), true
}
