package dlqrules

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/poisonwatch/poisonwatch/actions"
	"github.com/poisonwatch/poisonwatch/actions/ops"
	"github.com/poisonwatch/poisonwatch/codec/mqfmt"
	"github.com/poisonwatch/poisonwatch/mqwatch"
)

// Source is the queue manager a table is previewed or run against: a
// connection to browse the DEADQ, and the engine whose
// plans (dry runs) predict each action and whose runs carry it out.
type Source struct {
	Conn   mqwatch.Conn
	Engine *ops.Engine
}

// Report is what a table would do to the messages on the queue now.
type Report struct {
	QMgr, Queue string
	Total       int // messages on the queue
	Rules       []RuleReport
	// Unmatched are the messages no rule matches (they stay), by group;
	// NoDLH counts those without an MQDLH, which runmqdlq never processes.
	Unmatched      []GroupCount
	UnmatchedCount int
	NoDLH          int
	Warnings       []string
	Elapsed        time.Duration `json:"-"`
}

// RuleReport is one rule's share of the queue.
type RuleReport struct {
	Number  int
	Pos     Pos
	Text    string
	Matched int
	Groups  []GroupCount  // the matched messages by reason and destination
	Does    []ActionCount // what happens to them, resolved and predicted
	// ShadowedBy is the number of an earlier rule that matches every
	// message this one does (0: none): it acts only when that one fails.
	ShadowedBy int `json:",omitempty"`
	// Fallback counts the messages on the queue this rule would take if
	// the earlier rule they meet spent its attempts: a catch-all after a
	// specific rule is a fallback, not a dead rule.
	Fallback int `json:",omitempty"`
	// Dead is set when no message on the queue can reach the rule, even
	// after the earlier rules' attempts are spent.
	Dead bool `json:",omitempty"`
}

// GroupCount counts messages by MQDLH reason and destination.
type GroupCount struct {
	Reason     int32
	ReasonName string
	DestQ      string
	DestQMgr   string `json:",omitempty"`
	Count      int
}

// ActionCount counts messages by resolved action and predicted outcome.
type ActionCount struct {
	Does    string // "retry to ORDERS.IN (MQDLH removed)"
	Outcome string // "would succeed", "would fail: ... (MQRC_Q_FULL (2053))", ...
	// Then is what the next matching rule does once this one's attempts
	// fail (see Verdict.Then).
	Then  string `json:",omitempty"`
	Count int
}

// Preview matches every message on the queue (opts.Queue, the table's INPUTQ
// or the queue manager's DEADQ) against the table and predicts each action
// with the engine's plan and an open of its target, changing nothing.
func Preview(ctx context.Context, src Source, t *Table, queue string) (*Report, error) {
	start := time.Now()
	qmi, queue, err := where(ctx, src.Conn, t, queue)
	if err != nil {
		return nil, err
	}
	msgs, err := scan(ctx, src.Conn, queue)
	if err != nil {
		return nil, err
	}
	rep := &Report{QMgr: qmi.Name, Queue: queue, Total: len(msgs), Warnings: t.Warnings}
	vs, err := verdicts(ctx, src, t, msgs, qmi.Name, queue, true)
	if err != nil {
		return nil, err
	}
	rep.fill(t, msgs, vs)
	if n := operatorAuthority2035(t, msgs, vs); n > 0 {
		rep.Warnings = append(rep.Warnings, fmt.Sprintf("%d dead letters refused by security (MQRC_NOT_AUTHORIZED 2035) would be put with "+
			"your authority (PUTAUT(DEF), runmqdlq's default): PUTAUT(CTX) would check their sender's", n))
	}
	rep.Elapsed = time.Since(start)
	return rep, nil
}

// predicted is one message's prediction: its kind and its sentence.
type predicted struct {
	kind Prediction
	text string
}

// predict returns each message's predicted outcome.
func predict(ctx context.Context, src Source, c *classification, msgs []Subject, qmgr, queue string, browsed bool) ([]predicted, error) {
	out := make([]predicted, len(msgs))
	for i := range msgs {
		if c.rule[i] >= 0 {
			out[i] = unplanned(c.res[i])
		}
	}
	pr := newPredictor(ctx, src.Conn)
	for _, b := range c.batches {
		req := b.request(qmgr, queue)
		req.DryRun, req.Browsed = true, browsed
		p, err := src.Engine.Plan(ctx, req)
		if err != nil {
			return nil, fmt.Errorf("rule %d: %w", b.key.rule+1, err)
		}
		for j := range p.Items {
			out[b.idx[j]] = pr.outcome(req.Op, &p.Items[j])
		}
	}
	return out, nil
}

// unplanned is the outcome of a message no engine request takes, for a
// message that meets a rule: it loops, it is left, it stays (IGNORE).
func unplanned(x Resolved) predicted {
	switch {
	case x.Skip == loopSkip:
		return predicted{WouldLoop, "would loop back to the DEADQ: " + loopSkip}
	case x.Skip != "":
		return predicted{WouldBeLeft, "would be left: " + x.Skip}
	case x.Action == Ignore:
		return predicted{WouldStay, "would stay"}
	}
	return predicted{}
}

// predictor predicts the outcome of planned items, in the order the run
// would act on them.
type predictor struct {
	inv  *actions.QueueIndex // nil when the queue list cannot be read
	room map[string]int      // local queue -> messages it still has room for
}

// newPredictor reads the queue list the room left on each target is
// counted from.
func newPredictor(ctx context.Context, conn mqwatch.Conn) *predictor {
	pr := &predictor{room: map[string]int{}}
	if queues, err := conn.Queues(ctx, "*"); err == nil {
		status, _ := conn.QueueStatus(ctx, "*")
		qmi, _ := conn.QMgr(ctx)
		pr.inv = actions.NewQueueIndex(qmi, queues, status)
	}
	return pr
}

// outcome turns a planned item into a prediction: the engine's plan (which
// opens each target exactly as the run will, so MQOPEN's refusals are in
// it), then the room left on a local target across the table's rules (the
// messages beyond it would fail with MQRC_Q_FULL).
func (pr *predictor) outcome(op ops.Op, it *ops.OpItem) predicted {
	p, rc, ok := pr.planned(op, it)
	if !ok {
		return p
	}
	left, seen := pr.room[rc.queue]
	if !seen {
		left = rc.room
	}
	if left <= 0 {
		return rc.full
	}
	pr.room[rc.queue] = left - 1
	return p
}

// roomCheck is the room a prediction that would succeed depends on: the
// local queue its target resolves to, the room that queue had before the
// table's first message, and the outcome once it is full.
type roomCheck struct {
	queue string
	room  int
	full  predicted
}

// planned is the prediction of a planned item before the room left on its
// target; ok says the room decides it (rc), counted in the order the run
// acts.
func (pr *predictor) planned(op ops.Op, it *ops.OpItem) (p predicted, rc roomCheck, ok bool) {
	switch {
	case it.Kind == ops.Skipped && it.Skip == ops.SkipSelf:
		return predicted{WouldLoop, "would loop back to the DEADQ: " + it.Detail}, rc, false
	case it.Kind == ops.Skipped:
		return predicted{WouldBeLeft, "would be left: " + it.Detail}, rc, false
	case it.Kind == ops.WouldFail && it.Reason != 0:
		return predicted{WouldFailPut, fmt.Sprintf("would fail with %s (%d): %s", mqfmt.Reason(it.Reason), it.Reason, it.Detail)}, rc, false
	case it.Kind == ops.WouldFail:
		return predicted{WouldFailPut, it.Text(op)}, rc, false
	case it.Kind == ops.WouldDeadLetterAgain:
		return predicted{WouldDeadLetterAgain, it.Text(op)}, rc, false
	case it.Kind == ops.WouldComeBack:
		return predicted{WouldComeBack, it.Text(op)}, rc, false
	case it.Target == "":
		return predicted{WouldSucceed, "would succeed"}, rc, false
	}
	p = predicted{WouldSucceed, "would succeed"}
	if it.TargetQMgr != "" || pr.inv == nil {
		return p, rc, false
	}
	f := pr.inv.Facts(it.Target)
	if f.Resolved == "" || f.MaxDepth <= 0 {
		return p, rc, false
	}
	full := predicted{WouldFailPut, fmt.Sprintf("would fail with %s: %s is at MAXDEPTH %d", mqfmt.RCQFull.Describe(), it.Target, f.MaxDepth)}
	return p, roomCheck{queue: f.Resolved, room: int(f.MaxDepth - f.Depth), full: full}, true
}

// fallbacks counts the messages an earlier rule takes that rule r matches
// too: r acts on them when that rule's attempts are spent.
func fallbacks(t *Table, msgs []Subject, vs []Verdict, r int) int {
	n := 0
	for i := range msgs {
		if v := vs[i].Rule; v >= 0 && v < r && t.Rules[r].Test(&msgs[i].Facts) != NoMatch {
			n++
		}
	}
	return n
}

// operatorAuthority2035 counts the 2035 dead letters a PUTAUT(DEF) rule
// would put with the operator's authority.
func operatorAuthority2035(t *Table, msgs []Subject, vs []Verdict) int {
	n := 0
	for i := range vs {
		r := vs[i].Rule
		if r < 0 || msgs[i].Facts.Reason != int32(mqfmt.RCNotAuthorized) || t.Rules[r].PutAutCtx {
			continue
		}
		if a := t.Rules[r].Action; (a == Retry || a == Fwd) && !vs[i].Fails() && vs[i].Predicted != WouldBeLeft {
			n++
		}
	}
	return n
}

// fill counts per rule, finds dead and shadowed rules and the unmatched.
func (rep *Report) fill(t *Table, msgs []Subject, vs []Verdict) {
	groups := make([]map[GroupCount]int, len(t.Rules)+1) // last: unmatched
	does := make([]map[ActionCount]int, len(t.Rules))
	for i := range groups {
		groups[i] = map[GroupCount]int{}
	}
	for i := range does {
		does[i] = map[ActionCount]int{}
	}
	for i := range msgs {
		f := &msgs[i].Facts
		r := vs[i].Rule
		if !f.HasDLH {
			rep.NoDLH++
		}
		g := GroupCount{Reason: f.Reason, DestQ: f.DestQ, DestQMgr: f.DestQM}
		if r < 0 {
			groups[len(t.Rules)][g]++
			rep.UnmatchedCount++
			continue
		}
		groups[r][g]++
		does[r][ActionCount{Does: vs[i].Does, Outcome: vs[i].Outcome, Then: vs[i].Then}]++
	}
	shadowed := shadows(t)
	for r := range t.Rules {
		rr := RuleReport{Number: r + 1, Pos: t.Rules[r].Pos, Text: t.Rules[r].String(),
			Groups: sortedGroups(groups[r]), Does: sortedActions(does[r])}
		for _, g := range rr.Groups {
			rr.Matched += g.Count
		}
		rr.ShadowedBy = shadowed[r]
		rr.Fallback = fallbacks(t, msgs, vs, r)
		rr.Dead = rr.Matched == 0 && rr.Fallback == 0
		rep.Rules = append(rep.Rules, rr)
	}
	rep.Unmatched = sortedGroups(groups[len(t.Rules)])
}

func sortedGroups(m map[GroupCount]int) []GroupCount {
	out := make([]GroupCount, 0, len(m))
	for g, n := range m {
		g.Count, g.ReasonName = n, reasonName(g.Reason)
		out = append(out, g)
	}
	slices.SortFunc(out, func(a, b GroupCount) int {
		if a.Count != b.Count {
			return b.Count - a.Count
		}
		return strings.Compare(fmt.Sprint(a.Reason, a.DestQ, a.DestQMgr), fmt.Sprint(b.Reason, b.DestQ, b.DestQMgr))
	})
	return out
}

func sortedActions(m map[ActionCount]int) []ActionCount {
	keys := slices.SortedFunc(maps.Keys(m), func(a, b ActionCount) int {
		if m[a] != m[b] {
			return m[b] - m[a]
		}
		return strings.Compare(a.Does+a.Outcome+a.Then, b.Does+b.Outcome+b.Then)
	})
	for i := range keys {
		keys[i].Count = m[keys[i]]
	}
	if keys == nil {
		keys = []ActionCount{} // JSON: [] for a rule that does nothing
	}
	return keys
}

// reasonName is IBM's name of a reason, or "" for one it does not name.
func reasonName(rc int32) string {
	r := mqfmt.Reason(rc)
	if rc == 0 || !r.Known() {
		return ""
	}
	return r.String()
}
