package actions

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/poisonwatch/poisonwatch/mqwatch"
	"github.com/poisonwatch/poisonwatch/mqwatch/mqfmt"
)

// prefixWouldComeBack marks a message whose put would work but whose next
// hop brings it back to where it is (R10f): the cause it was dead-lettered
// for is still there.
const prefixWouldComeBack = "would come back: "

// channelAppls are the putting application names of IBM MQ's channel
// agents: a dead letter they wrote was refused on arrival, not by a consumer.
var channelAppls = []string{"amqrmppa", "runmqchl", "amqcrsta", "runmqlsr"}

// nextHop follows each message a requeue or replay would put back on the
// DEADQ's destination one step further (R10f): through the engine's own
// route (R1-R9) for the consumer style known for the target, and the
// queue manager's state now. A message the target's consumer dead-lettered
// (the MQDLH's PutApplName is a consumer of the queue, or the reason is a
// consumer's: 2362, 2363, 2364) is poison to it: put back unchanged it is
// refused again, and when the route of that refusal ends on the DEADQ (its
// BOQ full, put-inhibited or missing), it comes back.
func (p *opPlanned) nextHop(ctx context.Context, conn mqwatch.Conn, verb string, style func(queue string) (Style, bool)) {
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
		if it.Outcome != verb || tg.queue == "" || tg.qmgr != "" || !it.Msg.HasDLH {
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
			it.Outcome = prefixWouldComeBack + why
			it.Reason = it.Msg.DLHReason
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
func (p *opPlanned) fixFirst(s *mqwatch.Summary, in InputQueue) string {
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
		return fmt.Sprintf("fix first: make room on %s (drain it, or ALTER QLOCAL(%s) MAXDEPTH(%d)); or move them to a parking queue instead",
			boq, boq, min(2*int64(max(f.MaxDepth, 1)), 999999999))
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
func (p *opPlanned) comesBack(s *mqwatch.Summary, in InputQueue, appls []string, style func(string) (Style, bool)) string {
	if mqfmt.Reason(s.DLHReason) == mqfmt.RCQFull && !byConsumer(s.DLHPutAppl, appls) {
		return "" // a producer or a channel met the queue full: if it has room now, they stay
	}
	st, known := DefaultConsumerStyle, false
	if style != nil {
		if st, known = style(in.Name); !known {
			st, known = style(in.Base)
		}
	}
	if !known {
		st = DefaultConsumerStyle
	}
	return ComesBack(s, in, p.res.inv, st)
}

// ComesBack says why a dead letter its consumer wrote (or refused: 2362,
// 2363, 2364), put back unchanged on the input queue in whose consumer has
// style st, would come back to the DEADQ (R10f), or "" when its refusal
// would end elsewhere (its BOQ has room) or nothing says it would be
// refused. The route tab and the plan both ask it.
func ComesBack(s *mqwatch.Summary, in InputQueue, inv *QueueIndex, st Style) string {
	switch rc := mqfmt.Reason(s.DLHReason); rc {
	case mqfmt.RCJMSFormatError, mqfmt.RCMsgNotMatched:
		return fmt.Sprintf("consumer of %s refused them for their content (%s %d); put back unchanged they are refused again", in.Base, rc, int32(rc))
	case mqfmt.RCBackoutThresholdReached, mqfmt.RCQFull:
	default:
		return ""
	}
	first, d := refusal(s, in, inv, st)
	if d == nil || d.Fate != MoveToDeadQ {
		return ""
	}
	return fmt.Sprintf("consumer of %s (%s) dead-letters them %s", in.Base, st, whyDeadQ(first, in, inv))
}

// whyDeadQ says why the consumer's refusal ends on the DEADQ: its BOQ
// cannot take the message, or it has none.
func whyDeadQ(first *Decision, in InputQueue, inv *QueueIndex) string {
	boq := strings.TrimSpace(in.BackoutQName)
	if first.Fate == MoveToBOQ && first.Fails != 0 {
		f := inv.Facts(boq)
		switch mqfmt.Reason(first.Fails) {
		case mqfmt.RCQFull:
			return fmt.Sprintf("while %s is full (%d/%d)", boq, f.Depth, f.MaxDepth)
		case mqfmt.RCPutInhibited:
			return "while " + boq + " is put-inhibited"
		}
		return fmt.Sprintf("while a put to %s fails with %s", boq, first.Fails.Describe())
	}
	if boq == "" {
		return fmt.Sprintf("again: %s has no BOQNAME, so at BOTHRESH %d they go to the DEADQ", in.Base, in.BackoutThresh)
	}
	return "again: " + first.lastWhy()
}

// DefaultConsumerStyle is the style assumed for a queue whose consumer is
// not known: IBM MQ classes for JMS, the most common consumer of queues with
// BOTHRESH (the dashboard's model assumes the same).
var DefaultConsumerStyle = SyncTransacted

// WrittenByConsumer reports whether the application that dead-lettered a
// message (the MQDLH's PutApplName) is a consumer of its destination: one of
// appls, the application tags with the queue open for input, or, when none
// is known, any application that is not one of IBM MQ's channel agents.
func WrittenByConsumer(putAppl string, appls []string) bool { return byConsumer(putAppl, appls) }

// byConsumer reports whether the application that dead-lettered a message is
// one of the queue's consumers: named among its input handles or, when
// none is known, any application that is not a channel agent.
func byConsumer(putAppl string, appls []string) bool {
	a := strings.TrimSpace(putAppl)
	if a == "" {
		return false
	}
	for _, c := range appls {
		if c != "" && (strings.EqualFold(c, a) || strings.HasSuffix(strings.ToLower(c), strings.ToLower(a))) {
			return true
		}
	}
	if len(appls) > 0 {
		return false
	}
	for _, ch := range channelAppls {
		if strings.Contains(strings.ToLower(a), ch) {
			return false
		}
	}
	return true
}

// refusal routes s through its consumer once it is refused again: at the
// BackoutCount where the consumer gives up on it (its BOTHRESH, at least
// 1). It returns the consumer's decision and the one that applies once
// the puts the facts say fail have failed.
func refusal(s *mqwatch.Summary, in InputQueue, facts FactSource, st Style) (*Decision, *Decision) {
	md := mqfmt.NewMQMD()
	md.BackoutCount = max(in.BackoutThresh, 1)
	md.Report, md.Expiry = s.Report, s.Expiry
	if s.Persistent {
		md.Persistence = mqfmt.PerPersistent
	}
	r, err := Route(&RouteInput{
		Message: RouteMessage{MD: md, HasRFH2: s.HasRFH2, JMSDestination: s.JMSDst, Length: max(s.Length-mqfmt.DLHLen, 0)},
		Queue:   in, QMgr: qmgrOf(facts), Consumer: ConsumerSpec{Style: st}, Facts: facts,
	})
	if err != nil {
		return nil, nil
	}
	d := &r.Decision
	for _, c := range d.Cases {
		if c.Outcome == OutcomeCommit {
			d = c.Decision
		}
	}
	return d, d.Effective()
}

func qmgrOf(f FactSource) mqwatch.QMgrInfo {
	if inv, ok := f.(*QueueIndex); ok {
		return inv.QMgr
	}
	return mqwatch.QMgrInfo{}
}

// lastWhy is the decision's last explanation, the one that says where the
// message ends.
func (d *Decision) lastWhy() string {
	if len(d.Why) == 0 {
		return d.Fate.String()
	}
	return d.Why[len(d.Why)-1].Text
}

// comesBackSummary is the plan's warning for what would come back, one per
// cause: "would come back: 23 (the consumer of ORDERS.EXPRESS.IN ...)".
func comesBackSummary(items []OpItem) []string {
	b := breakdownOf(items)
	out := make([]string, 0, len(b.ComesBack))
	for _, c := range b.ComesBack {
		out = append(out, fmt.Sprintf("would come back: %d (%s)", c.Count, c.Outcome))
	}
	return out
}

// SetConsumerStyles tells the engine which consumer style gets from which
// queue (a scenario's consumers, what the dashboard knows), for the plan's
// next-hop prediction (R10f). Call it before the engine is used.
func (e *Engine) SetConsumerStyles(styles map[string]Style) {
	if len(styles) == 0 {
		return
	}
	e.opts.ConsumerStyle = func(queue string) (Style, bool) {
		st, ok := styles[queue]
		return st, ok
	}
}
