package ops

import (
	"context"

	"errors"
	"fmt"
	"github.com/poisonwatch/poisonwatch/actions"
	"maps"
	"slices"
	"strings"

	"github.com/poisonwatch/poisonwatch/codec/mqfmt"
	"github.com/poisonwatch/poisonwatch/mqwatch"
)

// opPlanned is a plan with what the run needs beyond OpPlan.
type opPlanned struct {
	OpPlan
	qmName  string
	ids     []msgIdentity // per item
	targets []opTarget    // per item; zero for discard and export
	res     *opTargets
	fileSHA string   // import: the file's SHA-256, which the audit log records
	fixes   []string // what removes the cause of messages that would come back
}

// Plan works out what req would do, changing nothing: the messages selected
// (browsing the source for All or a Filter), each one's target and the rule
// that chose it, what is predicted to fail, and the one-sentence summary a
// confirmation dialog shows. Items that will be acted on say "would …".
func (e *Engine) Plan(ctx context.Context, req OpRequest) (OpPlan, error) {
	sess, err := e.connect(ctx)
	if err != nil {
		return OpPlan{Request: req}, fmt.Errorf("plan %s: %w", req.Op, err)
	}
	defer sess.close()
	p, err := e.plan(ctx, sess.conn, req)
	return p.OpPlan, err
}

// normalize checks a request and fills its defaults.
func normalize(req *OpRequest) error {
	if !req.Op.valid() {
		return fmt.Errorf("unknown action %q: want requeue, move, replay, discard, export or import", req.Op)
	}
	if req.Op == OpImport && req.Target == "" {
		req.Target = req.Queue
	}
	if req.Op == OpImport {
		req.Queue = req.Target
	}
	checks := []struct {
		bad bool
		msg string
	}{
		{req.Queue == "", "no queue given"},
		{len(req.Messages) == 0 && !req.All && req.Filter == nil && req.Op != OpImport, "no selection: give message ids, a filter or all"},
		{req.Batch < 0 || req.Batch > MaxBatch, fmt.Sprintf("batch %d: want 1 to %d messages per unit of work", req.Batch, MaxBatch)},
		{req.Rate < 0, fmt.Sprintf("rate %g: want 0 (unlimited) or more messages per second", req.Rate)},
		{req.Workers < 0 || req.Workers > MaxWorkers, fmt.Sprintf("workers %d: want 1 to %d", req.Workers, MaxWorkers)},
		{req.Limit < 0, fmt.Sprintf("limit %d: want 0 (up to %d) or more", req.Limit, MaxSelection)},
		{req.Op == OpMove && req.Target == "", "move needs a target queue"},
		{(req.Op == OpExport || req.Op == OpImport) && req.File == "", string(req.Op) + " needs a file"},
		{req.Op.movesMessages() && req.Op != OpDiscard && req.Target == req.Queue && req.TargetQMgr == "", "the target is the source queue"},
		{req.Op == OpReplay && req.KeepMsgId && req.Target == req.Queue && req.TargetQMgr == "", "replaying to the source queue with the same MsgId would duplicate the message"},
		{req.Context != ContextPass && req.Context != ContextDefault, fmt.Sprintf("context mode %d", req.Context)},
	}
	for _, c := range checks {
		if c.bad {
			return errors.New(c.msg)
		}
	}
	if req.Batch == 0 {
		req.Batch = DefaultBatch
	}
	if req.Workers == 0 {
		req.Workers = DefaultWorkers
	}
	if req.Limit == 0 || req.Limit > MaxSelection {
		req.Limit = MaxSelection
	}
	return nil
}

// plan builds the plan on conn.
func (e *Engine) plan(ctx context.Context, conn mqwatch.Conn, req OpRequest) (*opPlanned, error) {
	p := &opPlanned{OpPlan: OpPlan{Request: req, Targets: map[string]int{}}}
	if err := normalize(&req); err != nil {
		return p, fmt.Errorf("%s: %w", req.Op, err)
	}
	p.Request = req
	qmi, err := conn.QMgr(ctx)
	if err != nil {
		return p, fmt.Errorf("%s: %w", req.Op, err)
	}
	p.qmName = qmi.Name
	for _, want := range []string{e.opts.QMgr, req.QMgr} {
		if want != "" && want != qmi.Name {
			return p, fmt.Errorf("%s: connected to queue manager %s, but the action is for %s", req.Op, qmi.Name, want)
		}
	}
	p.res = e.targetsFor(ctx, conn, qmi, &req)
	sel, more, err := e.selection(ctx, conn, p, &req)
	if err != nil {
		return p, fmt.Errorf("%s: %w", req.Op, err)
	}
	p.More = more
	e.planItems(ctx, conn, p, sel)
	p.Summary = planSentence(p, e.opts.ArchiveDir)
	return p, nil
}

// targetsFor reads the queue list the targets are decided with. A user who
// may not list queues still gets a plan: BOQ requeues then need a target.
func (e *Engine) targetsFor(ctx context.Context, conn mqwatch.Conn, qmi mqwatch.QMgrInfo, req *OpRequest) *opTargets {
	queues, err := conn.Queues(ctx, "*")
	var inv *actions.QueueIndex
	if err == nil {
		status, _ := conn.QueueStatus(ctx, "*")
		inv = actions.NewQueueIndex(qmi, queues, status)
	}
	return newOpTargets(qmi.Name, req.Queue, inv, err, queues, req)
}

// selection returns the summaries the request selects, in queue (or file)
// order, with their file positions for an import.
func (e *Engine) selection(ctx context.Context, conn mqwatch.Conn, p *opPlanned, req *OpRequest) ([]selected, bool, error) {
	now := e.opts.Now()
	if req.Op == OpImport {
		return e.importSelection(p, req, now)
	}
	if len(req.Messages) > 0 {
		out := make([]selected, 0, len(req.Messages))
		for i := range req.Messages {
			s := &req.Messages[i]
			if req.Filter.matches(s, s.BodyPrefix, now) {
				out = append(out, selected{sum: s})
			}
		}
		if req.Browsed {
			return out, false, nil
		}
		if w := markGone(ctx, conn, req.Queue, out); w != "" {
			p.Warnings = append(p.Warnings, w)
		}
		return out, false, nil
	}
	sums, more, err := browseSelection(ctx, conn, req.Queue, req.Filter, req.Limit, now)
	out := make([]selected, len(sums))
	for i := range sums {
		out[i] = selected{sum: &sums[i]}
	}
	return out, more, err
}

// selected is one selected message: its summary and, for an import, its
// position in the file and whether an earlier import already put it.
type selected struct {
	sum      *mqwatch.Summary // read only: the request's or the browse's, not copied
	index    int
	imported priorImport // when an earlier import put it, from the audit log
	// gone: a message the operator listed that is no longer on the queue
	// (removed since the list was read, by this operator or anyone else).
	gone bool
}

// planItems decides each message's target and planned outcome.
func (e *Engine) planItems(ctx context.Context, conn mqwatch.Conn, p *opPlanned, sel []selected) {
	req := &p.Request
	p.Items = make([]OpItem, len(sel))
	p.ids = make([]msgIdentity, len(sel))
	p.targets = make([]opTarget, len(sel))
	for i := range sel {
		s := &sel[i]
		it := OpItem{Msg: *s.sum, Index: s.index}
		p.ids[i] = identityOf(s.sum)
		if s.imported.why != "" {
			it.Kind, it.Detail = Skipped, s.imported.why
			if s.imported.done {
				it.Skip = SkipImported
			}
			p.Items[i] = it
			continue
		}
		if s.gone {
			it.Kind, it.Detail, it.Skip, it.Reason = Skipped, goneSkip, SkipGone, int32(mqfmt.RCNoMsgAvailable)
			p.Items[i] = it
			continue
		}
		p.planTarget(i, &it, s.sum)
		p.Items[i] = it
	}
	p.openTargets(ctx, conn)
	p.nextHop(ctx, conn, e.opts.ConsumerStyle)
	for _, key := range slices.Sorted(maps.Keys(p.Targets)) {
		q, qm, _ := strings.Cut(key, "@")
		tg := opTarget{queue: q, qmgr: qm}
		if w := p.res.roomWarning(tg, p.Targets[key]); w != "" {
			p.Warnings = append(p.Warnings, w)
		}
		if room, ok := p.res.room(tg); ok && room < p.Targets[key] {
			p.noRoom(key, room)
		}
	}
	refused := 0
	for i := range p.Items {
		if p.Items[i].Skip == SkipRefused {
			refused++
		}
	}
	if refused > 0 {
		p.Warnings = append(p.Warnings, fmt.Sprintf("%d dead letters were refused by security (MQRC_NOT_AUTHORIZED 2035) and are skipped: "+
			"--putaut ctx puts them with their own user's authority, --putaut def with yours", refused))
	}
	for i := range p.Items {
		if it := &p.Items[i]; it.Kind == WouldFail && it.Reason != int32(mqfmt.RCQFull) { // room: warned above
			p.Warnings = append(p.Warnings, it.cause())
		}
	}
	p.Warnings = append(p.Warnings, comeBackWarnings(req, p.Items)...)
	p.Warnings = append(p.Warnings, replayNotes(req, p.Items)...)
	p.Warnings = append(p.Warnings, comesBackSummary(p.Items)...)
	p.Warnings = append(p.Warnings, p.fixes...)
	p.Warnings = dedupe(p.Warnings)
}

// planTarget decides one message's target and asks the target gate about
// it: skipped (R10b, R10g, the source itself), would fail (what the queue
// manager answers now to the bytes put), or would act.
func (p *opPlanned) planTarget(i int, it *OpItem, sum *mqwatch.Summary) {
	req := &p.Request
	tg, skip := p.res.forItem(req.Op, factsOfSummary(sum))
	var g gateOut
	if skip == "" {
		g = p.res.gate(gateIn{op: req.Op, tg: tg, msg: sum, length: putLength(req.Op, sum),
			persistent: sum.Persistent, putAuth: req.PutAuthority, allowSystem: req.AllowSystemTarget})
		skip, it.Skip = g.skip, g.cause
	}
	switch {
	case skip != "":
		it.Kind, it.Detail = Skipped, skip
	case tg.queue != "":
		if req.PutAuthority == PutAuthContext {
			tg.altUser = strings.TrimSpace(sum.UserId)
		}
		it.Target, it.TargetQMgr, it.Why = tg.queue, tg.qmgr, tg.why
		if len(g.land.path) > 0 {
			it.Why += " (" + strings.Join(g.land.path, ", ") + ")"
		}
		p.targets[i] = tg
		if g.rc != 0 {
			it.Kind, it.Detail, it.Reason = WouldFail, g.why, int32(g.rc)
			return
		}
		if why := refusedBefore(tg, sum); why != "" {
			it.Kind, it.Detail, it.Reason = WouldDeadLetterAgain, why, sum.DLHReason
		}
		p.Targets[tg.key()]++
	}
}

// comeBackWarnings say when a requeue or replay sends dead letters back to
// the consumer that refused them for what they contain: unchanged, they are
// refused again and return to the DEADQ (R6: a JMS format error, a selector
// no consumer matches; R2b: a consumer's backout threshold).
func comeBackWarnings(req *OpRequest, items []OpItem) []string {
	if req.Op != OpRequeue && req.Op != OpReplay {
		return nil
	}
	count := map[mqfmt.Reason]int{}
	for i := range items {
		if k := items[i].Kind; (k == WouldAct || k == WouldDeadLetterAgain) && items[i].Msg.HasDLH &&
			items[i].Target == strings.TrimSpace(items[i].Msg.DLHDestQ) { // a parking queue meets no consumer
			switch r := mqfmt.Reason(items[i].Msg.DLHReason); r {
			case mqfmt.RCJMSFormatError, mqfmt.RCMsgNotMatched, mqfmt.RCBackoutThresholdReached:
				count[r]++
			}
		}
	}
	var out []string
	for _, r := range slices.Sorted(maps.Keys(count)) {
		if count[r] == 1 {
			out = append(out, fmt.Sprintf("1 was dead-lettered by its consumer with %s (%d): put back unchanged, it will most likely "+
				"be refused again and return to the DEADQ; fix the consumer or the message first, or move it to a parking queue",
				r.String(), int32(r)))
			continue
		}
		out = append(out, fmt.Sprintf("%d were dead-lettered by their consumer with %s (%d): put back unchanged, they will most likely "+
			"be refused again and return to the DEADQ; fix the consumer or the messages first, or move them to a parking queue",
			count[r], r.String(), int32(r)))
	}
	return out
}

// refusedSkip is why a dead letter refused by security is not requeued
// unless the operator says with whose authority.
const refusedSkip = "dead-lettered because its user was not authorized (MQRC_NOT_AUTHORIZED 2035) to put to this very queue: " +
	"your authority would deliver what security refused; give --putaut ctx to put it with its own user's " +
	"authority (runmqdlq's PUTAUT(CTX)), --putaut def to use yours, or another target (--to)"

// noRoom marks the messages to target beyond its room as failing with
// MQRC_Q_FULL, in plan order (the order one worker moves them in).
func (p *opPlanned) noRoom(key string, room int) {
	n, seen := p.Targets[key], 0
	for i := range p.Items {
		it := &p.Items[i]
		if it.Kind != WouldAct || p.targets[i].key() != key {
			continue
		}
		if seen++; seen > room {
			it.Kind, it.Detail = WouldFail, fmt.Sprintf("no room: %s has room for %d of the %d messages", it.Target, room, n)
			it.Reason = int32(mqfmt.RCQFull)
			p.Targets[key]--
		}
	}
	if p.Targets[key] == 0 {
		delete(p.Targets, key)
	}
}

// refusedBefore says why a message dead-lettered because a remote queue
// manager refused it would be dead-lettered again when sent back there
// unchanged: the remote side's refusal is not visible from here.
func refusedBefore(tg opTarget, s *mqwatch.Summary) string {
	if tg.qmgr == "" || !s.HasDLH || !strings.EqualFold(strings.TrimSpace(s.DLHDestQMgr), tg.qmgr) {
		return ""
	}
	switch rc := mqfmt.Reason(s.DLHReason); rc {
	case mqfmt.RCUnknownObjectName, mqfmt.RCUnknownAliasBaseQ, mqfmt.RCPutInhibited, mqfmt.RCQFull, mqfmt.RCNotAuthorized:
		return fmt.Sprintf("%s refused it with %s; unless that was fixed there, it goes to a DEADQ again", tg.qmgr, rc)
	}
	return ""
}

func (it *OpItem) planned() bool { return it.Kind.Planned() }

func dedupe(ss []string) []string {
	seen := map[string]bool{}
	out := ss[:0]
	for _, s := range ss {
		if !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	if len(out) == 0 {
		return nil
	}
	return out
}
