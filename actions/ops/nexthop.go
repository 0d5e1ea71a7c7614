package ops

import (
	"cmp"
	"context"

	"fmt"
	"github.com/poisonwatch/poisonwatch/actions"
	"maps"
	"slices"
	"strings"

	"github.com/poisonwatch/poisonwatch/codec/mqfmt"
	"github.com/poisonwatch/poisonwatch/mqwatch"
)

// nextHop follows each message a requeue or replay would put back on the
// DEADQ's destination one step further (R10f): through the engine's own
// route (R1-R9) for the consumer style known for the target, and the
// queue manager's state now. A message the target's consumer dead-lettered
// (the MQDLH's PutApplName is a consumer of the queue, or the reason is a
// consumer's: 2362, 2363, 2364) is poison to it: put back unchanged it is
// refused again, and when the route of that refusal ends on the DEADQ (its
// BOQ full, put-inhibited or missing), it comes back.
func (p *opPlanned) nextHop(ctx context.Context, conn mqwatch.Conn, style func(queue string) (actions.Style, bool)) {
	if p.res.inv == nil || (p.Request.Op != OpRequeue && p.Request.Op != OpReplay) {
		return
	}
	consumers := map[string][]string{} // base queue -> input handles' application tags
	seen, idle := map[string]bool{}, map[string]int{}
	defer func() {
		for _, q := range slices.Sorted(maps.Keys(idle)) {
			p.fixes = append(p.fixes, fmt.Sprintf("no consumer has %s open now: the %d that would come back wait there until one reads them", q, idle[q]))
		}
	}()
	for i := range p.Items {
		it, tg := &p.Items[i], p.targets[i]
		if it.Kind != WouldAct || tg.queue == "" || tg.qmgr != "" || !it.Msg.HasDLH {
			continue
		}
		in, err := p.res.inv.ResolveInput(tg.queue)
		if err != nil || !p.res.isDestination(tg, &it.Msg) {
			continue // another queue (a parking queue): not the consumer that refused it
		}
		appls, ok := consumers[in.Base]
		if !ok && conn != nil {
			appls = inputAppls(ctx, conn, in.Base)
			consumers[in.Base] = appls
		}
		if why := p.comesBack(&it.Msg, in, appls, style); why != "" {
			if appls != nil && len(appls) == 0 {
				idle[in.Base]++
			}
			it.Kind, it.Detail = WouldComeBack, why
			it.Reason = it.Msg.DLHReason
			it.Blocker = p.blocker(in)
			if fix := p.fixFirst(&it.Msg, in); fix != "" && !seen[fix] {
				seen[fix] = true
				p.fixes = append(p.fixes, fix)
			}
		}
	}
}

// fixFirst is what removes the cause of a message coming back, for the
// plan's warnings: room on the BOQ, the BOQ put-enabled, a BOQNAME; for a
// content refusal, the consumer or the message.
func (p *opPlanned) fixFirst(s *mqwatch.Summary, in actions.InputQueue) string {
	boq := strings.TrimSpace(in.BackoutQName)
	switch rc := mqfmt.Reason(s.DLHReason); {
	case rc == mqfmt.RCJMSFormatError || rc == mqfmt.RCMsgNotMatched:
		return fmt.Sprintf("fix first: the consumer of %s or the messages (it refuses their content); or move them to a parking queue instead", in.Base)
	case boq == "":
		return fmt.Sprintf("fix first: ALTER QLOCAL(%s) BOQNAME(<a backout queue>), then restart its JMS consumers (they cache BOTHRESH and BOQNAME, R1b); or move them to a parking queue instead", in.Base)
	}
	f := p.res.inv.Facts(boq)
	switch {
	case f.PutInhibited:
		return fmt.Sprintf("fix first: ALTER QLOCAL(%s) PUT(ENABLED); or move them to a parking queue instead", boq)
	case f.Full:
		return fmt.Sprintf("fix first: make room on %s (drain it, or %s); or move them to a parking queue instead",
			boq, actions.RoomFix(mqwatch.QueueInfo{Name: cmp.Or(f.Resolved, boq), MaxDepth: f.MaxDepth}))
	}
	return ""
}

// blocker is the queue whose state brings a message back from in's
// consumer: its BOQ when that is full or put-inhibited, "" otherwise.
func (p *opPlanned) blocker(in actions.InputQueue) string {
	boq := strings.TrimSpace(in.BackoutQName)
	if boq == "" {
		return ""
	}
	if f := p.res.inv.Facts(boq); f.Full || f.PutInhibited {
		return boq
	}
	return ""
}

// inputAppls lists the application tags with queue open for input.
func inputAppls(ctx context.Context, conn mqwatch.Conn, queue string) []string {
	hs, err := conn.Handles(ctx, queue)
	if err != nil {
		return nil
	}
	out := []string{} // known: empty when no consumer has it open
	for _, h := range hs {
		if h.Input {
			out = append(out, strings.TrimSpace(h.ApplTag))
		}
	}
	return out
}

// comesBack says why s, put on in, would return to the DEADQ, or "".
func (p *opPlanned) comesBack(s *mqwatch.Summary, in actions.InputQueue, appls []string, style func(string) (actions.Style, bool)) string {
	if mqfmt.Reason(s.DLHReason) == mqfmt.RCQFull && !actions.WrittenByConsumer(s.DLHPutAppl, appls) {
		return "" // a producer or a channel met the queue full: if it has room now, they stay
	}
	st, known := actions.DefaultConsumerStyle, false
	if style != nil {
		if st, known = style(in.Name); !known {
			st, known = style(in.Base)
		}
	}
	if !known {
		st = actions.DefaultConsumerStyle
	}
	return actions.ComesBack(s, in, p.res.inv, st)
}

// comesBackSummary is the plan's warning for what would come back, one per
// cause: "would come back: 23 (the consumer of ORDERS.EXPRESS.IN ...)".
func comesBackSummary(items []OpItem) []string {
	b := breakdownOf(items)
	out := make([]string, 0, len(b.ComesBack))
	for _, c := range b.ComesBack {
		out = append(out, fmt.Sprintf("would come back: %d (%s)", c.Count, c.Cause))
	}
	return out
}

// SetConsumerStyles tells the engine which consumer style gets from which
// queue (a scenario's consumers, what the dashboard knows), for the plan's
// next-hop prediction (R10f). Call it before the engine is used.
func (e *Engine) SetConsumerStyles(styles map[string]actions.Style) {
	if len(styles) == 0 {
		return
	}
	e.opts.ConsumerStyle = func(queue string) (actions.Style, bool) {
		st, ok := styles[queue]
		return st, ok
	}
}
