package ops

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/poisonwatch/poisonwatch/codec/mqfmt"
	"github.com/poisonwatch/poisonwatch/mqwatch"
)

// verifyPoll is how often the check after a run looks for its messages.
const verifyPoll = time.Second

// maxVerify bounds the messages the check after a run looks for, each with
// a browse that matches its MsgId: beyond it, the first ones are watched.
const maxVerify = 10_000

// OpVerify is what the check after a run found (R10f "requeue loop"): the
// messages it moved, or the copies it replayed, that came back to the queue
// they were taken from (or to the queue manager's DEADQ) within the window.
type OpVerify struct {
	Window   time.Duration `json:"window"`
	Watched  int           `json:"watched"`
	CameBack int           `json:"came_back"`
	// Within is when the last one was seen back, after the run ended.
	Within time.Duration `json:"within,omitempty"`
	// Where is the queue they came back to; Causes count them by the reason
	// in their new MQDLH (or the plan's cause) for the result's sentence.
	Where  string    `json:"where,omitempty"`
	Causes []OpCount `json:"causes,omitempty"`
	// Skipped says why no check ran ("" when it ran).
	Skipped string `json:"skipped,omitempty"`
	// Stopped: the check was cancelled before its window ended, after
	// looking for Checked.
	Stopped bool          `json:"stopped,omitempty"`
	Checked time.Duration `json:"checked,omitempty"`
	// Started identifies the run in the audit log (its first record's
	// time), for the alert that links to it.
	Started time.Time `json:"started"`
}

// Sentence is the check's result as the CLI and the dialog print it:
// "23 back on SYSTEM.DEAD.LETTER.QUEUE within 4 s (2053: ORDERS.BO full)".
func (v *OpVerify) Sentence() string {
	switch {
	case v == nil:
		return ""
	case v.Skipped != "":
		return "check after the run skipped: " + v.Skipped
	case v.CameBack == 0 && v.Stopped:
		return fmt.Sprintf("none of the %d came back in the %s checked (check stopped before %s)", v.Watched, seconds(v.Checked), seconds(v.Window))
	case v.CameBack == 0:
		return fmt.Sprintf("none of the %d came back within %s", v.Watched, seconds(v.Window))
	}
	var causes []string
	for _, c := range v.Causes {
		causes = append(causes, c.Cause)
	}
	return fmt.Sprintf("%d back on %s within %s (%s)", v.CameBack, v.Where, seconds(v.Within), strings.Join(causes, "; "))
}

// seconds renders a duration the way the result sentence says it: "4 s".
func seconds(d time.Duration) string { return fmt.Sprintf("%.0f s", d.Seconds()) }

// verifiable reports whether a finished run's messages are watched: a
// requeue, move or replay that acted on something, with a window ("-": no
// check, nothing said). A replay's copies are told from their originals,
// which stay where they were, by the new MsgId the queue manager gave each;
// with --keep-msgid they share it, and the check says so instead.
func verifiable(req *OpRequest, res *OpResult) string {
	switch {
	case req.DryRun || req.Verify <= 0 || res.Done == 0:
		return "-"
	case req.Op == OpReplay && req.KeepMsgId:
		return fmt.Sprintf("--keep-msgid: each copy has its original's MsgId and the originals stay on %s, so a copy that came back cannot be told from its original", req.Queue)
	case req.Op != OpRequeue && req.Op != OpMove && req.Op != OpReplay && req.Op != OpEdit:
		return "-"
	}
	return ""
}

// verify watches, for req.Verify after the run, the source queue and the
// DEADQ for the MsgIds the run moved (a replay: its copies' new MsgIds),
// and records in the result and the
// audit log those that came back (R10f).
func (e *Engine) verify(ctx context.Context, res *OpResult, started time.Time) {
	req := &res.Plan.Request
	why := verifiable(req, res)
	if why == "-" {
		return
	}
	v := &OpVerify{Window: req.Verify, Started: started, Skipped: why}
	res.Verify = v
	if why != "" {
		return
	}
	sess, err := e.connect(ctx)
	if err != nil {
		v.Skipped = err.Error()
		return
	}
	defer sess.close()
	w := newVerifyWatch(ctx, sess.conn, res)
	v.Watched = len(w.want)
	end := e.opts.Now().Add(req.Verify)
	for len(w.want) > 0 && ctx.Err() == nil {
		w.look(ctx, e.opts.Now().Sub(started.Add(res.Elapsed)))
		if !e.opts.Now().Before(end) || e.opts.Sleep(ctx, verifyPoll) != nil {
			break
		}
	}
	w.look(ctx, e.opts.Now().Sub(started.Add(res.Elapsed)))
	if ctx.Err() != nil && len(w.want) > 0 {
		// Stopped by the operator (esc) or the program: say how long it
		// looked, not the window it would have looked for.
		v.Stopped = true
		v.Checked = max(e.opts.Now().Sub(started.Add(res.Elapsed)), 0)
	}
	w.fill(v, res)
	e.auditCameBack(res, w)
}

// verifyWatch is the state of one check.
type verifyWatch struct {
	queues []string
	want   map[[24]byte]int // MsgId (a replay: the copy's) -> item index
	// own is, per item, the queue it was put to: a copy still on its own
	// target was not consumed yet, it did not come back.
	own  map[int]string
	back map[int]verifyBack
	conn mqwatch.Conn
}

type verifyBack struct {
	queue  string
	reason int32
	destQ  string // its new MQDLH's DestQName
	after  time.Duration
}

func newVerifyWatch(ctx context.Context, conn mqwatch.Conn, res *OpResult) *verifyWatch {
	req := &res.Plan.Request
	w := &verifyWatch{queues: []string{req.Queue}, want: map[[24]byte]int{}, back: map[int]verifyBack{}, own: map[int]string{}, conn: conn}
	if qmi, err := conn.QMgr(ctx); err == nil && qmi.DeadQ != "" && qmi.DeadQ != req.Queue {
		w.queues = append(w.queues, qmi.DeadQ)
	}
	for i := range res.Items {
		it := &res.Items[i]
		if len(w.want) >= maxVerify || it.Kind != Done {
			continue
		}
		id := it.Msg.MsgId
		if req.Op == OpReplay || req.Op == OpEdit { // the copy has a MsgId of its own
			if id = it.CopyMsgId; id == ([24]byte{}) {
				continue
			}
			if it.TargetQMgr == "" {
				w.own[i] = it.Target
			}
		}
		w.want[id] = i
	}
	return w
}

// look browses each watched queue for the MsgIds not seen back yet.
func (w *verifyWatch) look(ctx context.Context, after time.Duration) {
	for _, name := range w.queues {
		q, err := w.conn.Open(ctx, mqwatch.ObjectDesc{Name: name}, mqwatch.OpenOptions{Browse: true})
		if err != nil {
			continue
		}
		for id, i := range w.want {
			if w.own[i] == name {
				continue
			}
			m, err := q.Browse(ctx, mqwatch.BrowseOptions{First: true, MsgId: &id, MaxBytes: 4096})
			if err != nil {
				continue
			}
			s := mqwatch.Summarize(&m)
			w.back[i] = verifyBack{queue: name, reason: s.DLHReason, destQ: mqfmt.Trim(s.DLHDestQ), after: max(after, 0)}
			delete(w.want, id)
		}
		_ = q.Close(context.WithoutCancel(ctx))
	}
}

// fill writes what came back into the check and the items.
func (w *verifyWatch) fill(v *OpVerify, res *OpResult) {
	causes := map[OpCount]int{}
	for i, b := range w.back {
		v.CameBack++
		v.Within = max(v.Within, b.after)
		v.Where = b.queue
		res.Items[i].CameBack = true
		causes[OpCount{Cause: cameBackCause(b.reason, res.Plan.Items, i), Reason: b.reason, Queue: causeQueue(b, res.Plan.Items, i)}]++
	}
	v.Causes = counts(causes)
}

// causeQueue is the queue a message's coming back is blamed on: the one the
// plan predicted (the consumer's full BOQ), else its new MQDLH's
// destination.
func causeQueue(b verifyBack, plan []OpItem, i int) string {
	if i < len(plan) && plan[i].Blocker != "" {
		return plan[i].Blocker
	}
	return b.destQ
}

// cameBackCause names why a message came back: its new MQDLH reason, with
// the plan's prediction of the cause when it had one.
func cameBackCause(rc int32, plan []OpItem, i int) string {
	if rc == 0 {
		return "no MQDLH: moved back by its consumer"
	}
	s := fmt.Sprintf("%d", rc)
	if i < len(plan) {
		if it := &plan[i]; it.Kind == WouldComeBack {
			c := it.Detail
			if _, w, ok := strings.Cut(c, " while "); ok {
				return s + ": " + strings.Replace(w, " is full", " full", 1)
			}
			return s + ": " + c
		}
	}
	return s + ": " + mqfmt.Reason(rc).Explain()
}

// auditCameBack adds one audit line per message that came back, after the
// run's own: the last line for a message is what became of it.
func (e *Engine) auditCameBack(res *OpResult, w *verifyWatch) {
	if len(w.back) == 0 {
		return
	}
	a, _, err := openAudit(e.opts.AuditPath)
	if err != nil {
		return
	}
	defer a.close()
	now := e.opts.Now().UTC()
	req := &res.Plan.Request
	var recs []AuditRecord
	for i, b := range w.back {
		it := &res.Items[i]
		rec := AuditRecord{Time: now, User: e.user(req), QMgr: req.QMgr, Action: req.Op, MsgId: hexID(it.Msg.MsgId),
			From: req.Queue, To: opTarget{queue: it.Target, qmgr: it.TargetQMgr}.key(), Reason: b.reason,
			Outcome: fmt.Sprintf("came back to %s within %s (R10f requeue loop; run of %s)", b.queue, seconds(b.after),
				res.Verify.Started.UTC().Format(time.RFC3339))}
		if it.CopyMsgId != ([24]byte{}) {
			rec.CopyMsgId = hexID(it.CopyMsgId)
		}
		recs = append(recs, rec)
	}
	_ = a.write(recs)
}
