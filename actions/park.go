package actions

import (
	"errors"
	"fmt"
	"strings"

	"github.com/poisonwatch/poisonwatch/mqwatch"
)

// Parking (R10h): instead of retrying poison into a queue that does not
// exist, the operator defines one LIKE the dead-letter queue (or a queue
// they choose), with the MAXDEPTH they give, and moves the messages there.
// It is a fix of one step, MQCMD_COPY_Q, so it takes the fix's path: the
// command server, the authority checks (+crt on @class, +dsp on the LIKE
// queue), the audit line and IBM's reason when it is refused.

// ParkInput is a parking queue to define.
type ParkInput struct {
	QMgr     mqwatch.QMgrInfo
	Queues   []mqwatch.QueueInfo // the queue manager's queues as last seen
	Name     string              // the new queue
	Like     string              // empty: the queue manager's DEADQ
	MaxDepth int
}

// maxDepthLimit is IBM MQ's largest MAXDEPTH (999 999 999).
const maxDepthLimit = 999999999

// ParkPlan checks a parking queue's name, LIKE queue and MAXDEPTH and
// returns the one-step fix that defines it.
func ParkPlan(in ParkInput) (FixPlan, error) {
	name, like := strings.TrimSpace(in.Name), strings.TrimSpace(in.Like)
	if like == "" {
		like = strings.TrimSpace(in.QMgr.DeadQ)
	}
	if err := parkName(name); err != nil {
		return FixPlan{}, err
	}
	var likeQ *mqwatch.QueueInfo
	for i := range in.Queues {
		switch in.Queues[i].Name {
		case name:
			return FixPlan{}, fmt.Errorf("%s already exists: pick it with enter instead", name)
		case like:
			likeQ = &in.Queues[i]
		}
	}
	switch {
	case like == "":
		return FixPlan{}, errors.New("the queue manager has no DEADQ: name a queue to copy (LIKE)")
	case likeQ == nil:
		return FixPlan{}, fmt.Errorf("no queue %s to copy (LIKE)", like)
	case likeQ.Type != mqwatch.QLocal:
		return FixPlan{}, fmt.Errorf("%s is not a local queue: DEFINE QLOCAL LIKE needs one", like)
	case in.MaxDepth < 1 || in.MaxDepth > maxDepthLimit:
		return FixPlan{}, fmt.Errorf("MAXDEPTH must be 1 to %d", maxDepthLimit)
	}
	// NOTRIGGER always: LIKE copies TRIGGER, INITQ and PROCESS, and a
	// DEADQ usually has them to start runmqdlq, whose rules could send
	// parked messages straight back into the loop. Said even when the LIKE
	// queue has none now, so that a TRIGGER set on it before the define
	// reaches the command server is not copied either.
	cmd := fmt.Sprintf("DEFINE QLOCAL(%s) LIKE(%s) MAXDEPTH(%d) NOTRIGGER", MQSCName(name), MQSCName(like), in.MaxDepth)
	p := PlanFix(FixInput{QMgr: in.QMgr, Queues: in.Queues, ID: "park:" + name, Commands: []string{cmd},
		Notes: []string{LikeCopies(*likeQ, in.MaxDepth)}})
	if len(p.CopyOnly) > 0 {
		return p, fmt.Errorf("%w: %s", ErrCopyOnly, strings.Join(p.CopyOnly, "; "))
	}
	return p, nil
}

// parkName checks an MQ queue name: 1 to 48 characters of A-Z, a-z, 0-9,
// '.', '/', '_' and '%' (IBM MQ's rules for naming objects); SYSTEM.* is
// the queue manager's.
func parkName(n string) error {
	if n == "" || len(n) > 48 {
		return errors.New("a queue name has 1 to 48 characters")
	}
	for _, r := range n {
		if !(r >= 'A' && r <= 'Z' || r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || strings.ContainsRune("./_%", r)) {
			return fmt.Errorf("%q cannot be in a queue name (A-Z 0-9 . / _ %%)", r)
		}
	}
	if strings.HasPrefix(n, "SYSTEM.") {
		return errors.New("SYSTEM.* names are the queue manager's")
	}
	return nil
}

// LikeCopies says what a parking queue takes from the queue it is LIKE
// that matters to the messages parked there (MAXMSGL, DEFPSIST, BOTHRESH
// and BOQNAME), what the define sets instead (MAXDEPTH), and the
// triggering it does not take (NOTRIGGER).
func LikeCopies(like mqwatch.QueueInfo, maxDepth int) string {
	psist := map[bool]string{true: "YES", false: "NO"}[like.DefPersistent]
	s := fmt.Sprintf("copies %s: MAXMSGL(%d) DEFPSIST(%s) BOTHRESH(%d) BOQNAME(%s) and the rest; MAXDEPTH(%d) instead of its %d",
		like.Name, like.MaxMsgLen, psist, like.BackoutThresh, MQSCName(strings.TrimSpace(like.BackoutQName)), maxDepth, like.MaxDepth)
	if !like.Trigger {
		return s + "; NOTRIGGER (it has no TRIGGER either)"
	}
	return s + fmt.Sprintf("; NOTRIGGER, not its TRIGGER INITQ(%s) PROCESS(%s): parked messages would start its trigger monitor (runmqdlq), whose rules could send them straight back",
		MQSCName(strings.TrimSpace(like.InitQ)), MQSCName(strings.TrimSpace(like.Process)))
}
