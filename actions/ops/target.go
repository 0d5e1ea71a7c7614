package ops

import (
	"fmt"

	"github.com/poisonwatch/poisonwatch/actions"
	"slices"
	"strings"

	"github.com/poisonwatch/poisonwatch/codec/mqfmt"
	"github.com/poisonwatch/poisonwatch/mqwatch"
)

// opTarget is where a message goes: a queue, on another queue manager when
// qmgr is set (opened with MQOD ObjectQMgrName, so the local queue manager
// routes it as IBM MQ does: queue manager alias, transmission queue of that
// name, or DEFXMITQ).
type opTarget struct {
	queue, qmgr string
	why         string
	altUser     string // put with this user's authority (PUTAUT(CTX)); "" = the operator's
}

// handleKey names an open target handle: per queue and alternate user.
func (t opTarget) handleKey() string { return t.key() + "\x00" + t.altUser }

// key is the target's name in OpPlan.Targets: "QUEUE" or "QUEUE@QMGR".
func (t opTarget) key() string {
	if t.qmgr == "" {
		return t.queue
	}
	return t.queue + "@" + t.qmgr
}

// opTargets decides the targets of one action.
type opTargets struct {
	qmName    string
	source    string
	inv       *actions.QueueIndex // nil when the queue list could not be read
	invErr    error
	boqInputs []string // local queues whose BOQNAME names the source
	override  opTarget
}

func newOpTargets(qmName, source string, inv *actions.QueueIndex, invErr error, queues []mqwatch.QueueInfo, req *OpRequest) *opTargets {
	t := &opTargets{qmName: qmName, source: source, inv: inv, invErr: invErr}
	for _, q := range queues {
		if q.Type == mqwatch.QLocal && q.BackoutQName == source && q.Name != source {
			t.boqInputs = append(t.boqInputs, q.Name)
		}
	}
	slices.Sort(t.boqInputs)
	if req.Target != "" {
		t.override = opTarget{queue: req.Target, qmgr: t.remote(req.TargetQMgr), why: "target override"}
	}
	return t
}

// remote returns qmgr unless it names the local queue manager (or nothing).
func (t *opTargets) remote(qmgr string) string {
	qmgr = strings.TrimSpace(qmgr)
	if qmgr == t.qmName {
		return ""
	}
	return qmgr
}

// opMsgFacts are the facts of a message that decide its requeue target.
type opMsgFacts struct {
	deadLetter bool // the MQMD Format is MQDEAD: an MQDLH comes first
	destQ      string
	destQMgr   string
	jmsDst     string
	badDLH     string // why the MQDLH of a dead-letter message cannot be read
}

func factsOfSummary(s *mqwatch.Summary) opMsgFacts {
	f := opMsgFacts{deadLetter: s.Format == strings.TrimSpace(mqfmt.FmtDeadLetter),
		destQ: s.DLHDestQ, destQMgr: s.DLHDestQMgr, jmsDst: s.JMSDst}
	if f.deadLetter && !s.HasDLH {
		f.badDLH = s.DecodeErr
		if f.badDLH == "" {
			f.badDLH = "it is missing"
		}
	}
	return f
}

// requeue returns a requeue target (R10b, R10c) or why there is none.
func (t *opTargets) requeue(f opMsgFacts) (opTarget, string) {
	if f.badDLH != "" {
		return opTarget{}, "the MQDLH cannot be read: " + f.badDLH
	}
	if t.override.queue != "" {
		return t.override, ""
	}
	if f.deadLetter {
		q := strings.TrimSpace(f.destQ)
		if q == "" {
			return opTarget{}, "the MQDLH DestQName is blank: give a target"
		}
		tg := opTarget{queue: q, qmgr: t.remote(f.destQMgr), why: "R10b MQDLH DestQName"}
		if tg.qmgr != "" {
			tg.why += " on DestQMgrName " + tg.qmgr
		}
		return tg, ""
	}
	return t.backoutInput(f.jmsDst)
}

// backoutInput finds the input queue a BOQ message returns to (R10c): the
// one queue whose BOQNAME names the source, or, when several do, the one the
// JMS destination in the MQRFH2 names; otherwise the operator must choose.
// A JMS destination that names another queue than the one BOQNAME gives (a
// BOQNAME changed, or a BOQ shared with a queue defined elsewhere) is never
// overruled silently: the operator chooses.
func (t *opTargets) backoutInput(jmsDst string) (opTarget, string) {
	if t.inv == nil {
		return opTarget{}, fmt.Sprintf("no MQDLH, and the queue list that says which input queue uses %s as BOQ could not be read (%v): give a target", t.source, t.invErr)
	}
	if len(t.boqInputs) == 0 {
		return opTarget{}, fmt.Sprintf("no MQDLH, and no queue names %s as its BOQNAME: give a target", t.source)
	}
	names := strings.Join(t.boqInputs, ", ")
	dst := ""
	if d, err := mqfmt.ParseDestination(jmsDst); jmsDst != "" && err == nil && !d.Topic {
		dst = d.Name
	}
	if dst != "" {
		for _, in := range t.boqInputs {
			why := t.dstNames(dst, in)
			switch {
			case why == "":
				continue
			case len(t.boqInputs) == 1 && dst == in:
				why = "R10c BOQNAME of " + in
			case len(t.boqInputs) > 1:
				why += " among " + names
			}
			return opTarget{queue: dst, why: why}, ""
		}
	}
	switch {
	case len(t.boqInputs) == 1 && dst == "":
		return opTarget{queue: t.boqInputs[0], why: "R10c BOQNAME of " + t.boqInputs[0]}, ""
	case len(t.boqInputs) == 1:
		return opTarget{}, fmt.Sprintf("%s names %s as BOQNAME, but the message's JMS destination is %s (a changed BOQNAME or a shared BOQ?): give a target",
			t.boqInputs[0], t.source, dst)
	}
	return opTarget{}, fmt.Sprintf("%s all name %s as BOQNAME and no JMS destination picks one: give a target", names, t.source)
}

// dstNames says why the JMS destination dst is the input queue in (itself,
// or an alias of it), or "" when it is not.
func (t *opTargets) dstNames(dst, in string) string {
	if dst == in {
		return "R10c jms Dst " + dst
	}
	if r, err := t.inv.ResolveInput(dst); err == nil && r.Base == in {
		return "R10c jms Dst " + dst + " (base " + in + ")"
	}
	return ""
}

// forItem returns the target of one message for op.
func (t *opTargets) forItem(op Op, f opMsgFacts) (opTarget, string) {
	switch op {
	case OpRequeue:
		return t.requeue(f)
	case OpReplay:
		if t.override.queue != "" && f.badDLH == "" {
			return t.override, ""
		}
		tg, skip := t.requeue(f)
		if skip != "" {
			return tg, "no target given and " + skip
		}
		return tg, ""
	case OpMove, OpImport:
		return t.override, ""
	}
	return opTarget{}, ""
}

// roomWarning warns when a local target has less room than the messages
// planned for it: the run would stop with MQRC_Q_FULL part way.
func (t *opTargets) roomWarning(tg opTarget, n int) string {
	room, ok := t.room(tg)
	if !ok || room >= n {
		return ""
	}
	f := t.inv.Facts(tg.queue)
	return fmt.Sprintf("%s has room for %d of the %d messages (CURDEPTH %d, MAXDEPTH %d): the run would stop with MQRC_Q_FULL (2053) after about %d",
		tg.queue, room, n, f.Depth, f.MaxDepth, room)
}

// room is how many more messages a local target holds, when known.
func (t *opTargets) room(tg opTarget) (int, bool) {
	if t.inv == nil || tg.qmgr != "" {
		return 0, false
	}
	f := t.inv.Facts(tg.queue)
	if !f.Exists || f.Resolved == "" || f.MaxDepth <= 0 {
		return 0, false
	}
	return max(int(f.MaxDepth-f.Depth), 0), true
}

// isDestination reports whether tg is a dead letter's destination: its
// MQDLH DestQName, by name or, locally, by the queue it resolves to.
func (t *opTargets) isDestination(tg opTarget, s *mqwatch.Summary) bool {
	if !s.HasDLH || tg.queue == "" {
		return false
	}
	dq, dqm := strings.TrimSpace(s.DLHDestQ), t.remote(s.DLHDestQMgr)
	if !strings.EqualFold(dqm, tg.qmgr) {
		return false
	}
	if dq == tg.queue {
		return true
	}
	if tg.qmgr != "" || t.inv == nil {
		return false
	}
	a, b := t.inv.Facts(dq), t.inv.Facts(tg.queue)
	return a.Resolved != "" && a.Resolved == b.Resolved
}
