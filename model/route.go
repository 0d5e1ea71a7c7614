package model

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/poisonwatch/poisonwatch/actions"
	"github.com/poisonwatch/poisonwatch/codec/mqfmt"
	"github.com/poisonwatch/poisonwatch/mqwatch"
)

// DefaultStyle is the consumer style predictions assume for a queue whose
// consumer is not known: IBM MQ classes for JMS, the most common consumer of
// queues with BOTHRESH. A plain MQI consumer's fate is added as one line.
var DefaultStyle = actions.SyncTransacted

// route predicts through the engine what happens on the message's next
// rollback, with every fallback, citing rule numbers.
func (q *QMgrState) route(queue string, s *mqwatch.Summary) []string {
	if q.inv == nil || q.Snap == nil {
		return nil
	}
	// A message on the DEADQ or a BOQ is consumed by nobody: what matters is
	// where a requeue sends it and what its consumer there would do with it
	// as requeued (R10b, R10c).
	if queue == q.Snap.QMgr.DeadQ && s.HasDLH {
		head := []string{"R10b on the DEADQ: a requeue puts it back on " + s.DLHDestQ + " (MQDLH removed)"}
		if s.DLHDestQMgr != "" && s.DLHDestQMgr != q.Name {
			return append(head, "that queue is on "+s.DLHDestQMgr+": its consumers are not watched from here")
		}
		return append(append(head, q.requeuedRoute(s.DLHDestQ, s)...), q.nextHop(s)...)
	}
	inputs := q.boqInputs(queue)
	if len(inputs) > 0 || (q.Queues[queue] != nil && q.Queues[queue].View.Role == mqwatch.RoleBOQ) {
		return q.boqRoute(queue, s, inputs)
	}
	return q.inputRoute(queue, s, s.BackoutCount)
}

// boqInputs returns, sorted, the queues whose BOQNAME is queue. A DEADQ can
// be one of them: IBM MQ classes for JMS then move poison messages onto it
// without an MQDLH (R5).
func (q *QMgrState) boqInputs(queue string) []string {
	var inputs []string
	for name, o := range q.Queues {
		if o.View.Info.BackoutQName == queue {
			inputs = append(inputs, name)
		}
	}
	sort.Strings(inputs)
	return inputs
}

// boqRoute predicts for a message a JMS consumer moved to a BOQ: a requeue
// returns it to the input queue whose BOQNAME this is, or to the one its JMS
// destination names when the BOQ serves several (R10c).
func (q *QMgrState) boqRoute(queue string, s *mqwatch.Summary, inputs []string) []string {
	where := "on a BOQ"
	if queue == q.Snap.QMgr.DeadQ {
		where = "on the DEADQ, which is the BOQNAME of " + strings.Join(inputs, ", ") + ", without an MQDLH (moved by a JMS consumer, R5)"
	}
	target := ""
	switch dst := jmsQueueName(s.JMSDst); {
	case len(inputs) == 1:
		target = inputs[0]
	case dst != "" && slices.Contains(inputs, dst):
		target = dst
	}
	if target == "" {
		return []string{fmt.Sprintf("R10c %s: this BOQ serves %d input queues: a requeue follows the JMS destination or asks which", where, len(inputs))}
	}
	head := "R10c " + where + ": a requeue returns it to " + target + " (BackoutCount restarts at 0)"
	return append([]string{head}, q.requeuedRoute(target, s)...)
}

// requeuedRoute predicts what the consumer of queue does with s once a
// requeue has put it there: MQPUT ignores BackoutCount, so the copy arrives
// with 0 whatever this one shows, and without the MQDLH a DEADQ copy has.
func (q *QMgrState) requeuedRoute(queue string, s *mqwatch.Summary) []string {
	r := *s
	if r.HasDLH && r.Length >= mqfmt.DLHLen {
		r.Length -= mqfmt.DLHLen
	}
	return q.inputRoute(queue, &r, 0)
}

// inputRoute predicts what the consumer of an input queue does with s when
// it arrives with BackoutCount count.
func (q *QMgrState) inputRoute(queue string, s *mqwatch.Summary, count int32) []string {
	in, err := q.inv.ResolveInput(queue)
	if err != nil {
		return []string{err.Error()}
	}
	style, known := q.styleOf(queue)
	md := mqfmt.NewMQMD()
	md.BackoutCount, md.Report, md.Persistence, md.Expiry = count, s.Report, persistence(s), s.Expiry
	r, err := actions.Route(&actions.RouteInput{
		Message:  actions.RouteMessage{MD: md, HasRFH2: s.HasRFH2, JMSDestination: s.JMSDst, Length: s.Length},
		Queue:    in,
		QMgr:     q.Snap.QMgr,
		Consumer: actions.ConsumerSpec{Style: style, PauseAfter: q.pauseAfterOf(queue)},
		Facts:    q.inv,
	})
	if err != nil {
		return []string{err.Error()}
	}
	head := "its consumer (" + style.String() + ") would:"
	if !known {
		head = "assuming an IBM MQ classes for JMS consumer (" + style.String() + "):"
	}
	out := append([]string{head}, r.Explain()...)
	if !known && style != actions.MQI && in.BackoutThresh > 0 {
		out = append(out, "R1f a plain MQI consumer (C, Go, Node, Python) ignores BOTHRESH: it would roll this message back forever")
	}
	return out
}

// styleOf returns the consumer style known for a queue, or for an alias that
// targets it; DefaultStyle otherwise.
func (q *QMgrState) styleOf(queue string) (actions.Style, bool) {
	if st, ok := q.Styles[queue]; ok {
		return st, true
	}
	for name, qs := range q.Queues {
		if qs.View.Info.Type == mqwatch.QAlias && qs.View.Info.Target == queue {
			if st, ok := q.Styles[name]; ok {
				return st, true
			}
		}
	}
	return DefaultStyle, false
}

func persistence(s *mqwatch.Summary) int32 {
	if s.Persistent {
		return mqfmt.PerPersistent
	}
	return mqfmt.PerNotPersistent
}

// lint turns the engine's configuration findings into alerts, skipping those a
// live alert already reports for the same rule and queue; while the queue
// manager cannot be reached, the last good poll's. It changes nothing (a
// picture's Findings are read by many): the fold keeps lastLint.
func (q *QMgrState) lint() []Alert {
	if q.Snap == nil || !q.Snap.Connected {
		return q.lastLint
	}
	in := actions.LintInput{QMgr: q.Snap.QMgr, MaxBackoutSeen: map[string]int32{}}
	for _, v := range q.Snap.Queues {
		in.Queues = append(in.Queues, v.Info)
		if v.HasStatus {
			in.Status = append(in.Status, v.Status)
		}
	}
	for name, qs := range q.Queues {
		if qs.MaxBackout > 0 {
			in.MaxBackoutSeen[name] = qs.MaxBackout
		}
	}
	var out []Alert
	for _, f := range actions.Lint(in) {
		out = append(out, alertOf(f, q.Name))
	}
	return out
}
