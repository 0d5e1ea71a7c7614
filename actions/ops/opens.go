package ops

import (
	"context"
	"errors"
	"fmt"

	"github.com/poisonwatch/poisonwatch/codec/mqfmt"
	"github.com/poisonwatch/poisonwatch/mqwatch"
)

// maxPlanOpens bounds the opens one plan makes (one per target and, under
// PUTAUT(CTX), per user): beyond it, a target is not opened before the run.
const maxPlanOpens = 256

// openTargets opens every target of the plan exactly as the run will open
// it (outputOptions: the same context option, and under PUTAUT(CTX) the
// message's user as alternate user) and closes it again. The queue manager
// resolves each name as it does for the run: local, alias, QREMOTE, queue
// manager alias, a transmission queue named for the queue manager, the
// cluster. A refused open marks the target's messages "would fail" with
// the reason IBM MQ gave (2085, 2087, 2189, 2035, 2082, ...). This is the
// only open a plan makes, so a dry run cannot disagree with the run's
// MQOPEN.
func (p *opPlanned) openTargets(ctx context.Context, conn mqwatch.Conn) {
	if conn == nil || p.Request.Op == OpDiscard || p.Request.Op == OpExport {
		return
	}
	oo := mqwatch.OpenOptions{Output: true, SetAllContext: p.Request.Context == ContextPass}
	refused := map[string]error{}
	opened := 0
	for i := range p.Items {
		it, tg := &p.Items[i], p.targets[i]
		if tg.queue == "" || (it.Kind != WouldAct && it.Kind != WouldDeadLetterAgain) {
			continue
		}
		err, seen := refused[tg.handleKey()]
		if !seen {
			if opened >= maxPlanOpens {
				continue
			}
			opened++
			err = openAsRun(ctx, conn, tg, oo)
			refused[tg.handleKey()] = err
		}
		rc := mqwatch.ReasonOf(err)
		if rc == 0 {
			continue
		}
		it.Kind, it.Detail, it.Reason, it.Opened = WouldFail, openRefusal(tg, rc), int32(rc), true
		if p.Targets[tg.key()]--; p.Targets[tg.key()] <= 0 {
			delete(p.Targets, tg.key())
		}
	}
}

// openAsRun opens tg for output with the run's options and closes it.
func openAsRun(ctx context.Context, conn mqwatch.Conn, tg opTarget, oo mqwatch.OpenOptions) error {
	oo.AlternateUserAuthority = tg.altUser != ""
	q, err := conn.Open(ctx, mqwatch.ObjectDesc{Name: tg.queue, QMgr: tg.qmgr, AlternateUserId: tg.altUser}, oo)
	if err != nil {
		if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
			return nil
		}
		return err
	}
	_ = q.Close(context.WithoutCancel(ctx))
	return nil
}

// openRefusal says why an open of tg was refused, in the operator's terms.
func openRefusal(tg opTarget, rc mqfmt.Reason) string {
	name := tg.key()
	switch rc {
	case mqfmt.RCUnknownRemoteQMgr:
		return fmt.Sprintf("%s cannot be reached: no queue manager alias, transmission queue or cluster route names %s here", name, tg.qmgr)
	case mqfmt.RCClusterResolutionError:
		return fmt.Sprintf("%s: the cluster cannot resolve it (no instance the repository knows)", name)
	case mqfmt.RCUnknownObjectName:
		return name + " does not exist"
	case mqfmt.RCUnknownAliasBaseQ:
		return "the base queue of alias " + name + " does not exist"
	case mqfmt.RCNotAuthorized:
		if tg.altUser != "" {
			return fmt.Sprintf("user %s may not put to %s (or you lack +altusr)", tg.altUser, name)
		}
		return "you may not open " + name + " as the run does (put, and setall to keep the context)"
	}
	return name + ": " + rc.Explain()
}
