package ops

import (
	"cmp"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/poisonwatch/poisonwatch/codec/mqfmt"
	"github.com/poisonwatch/poisonwatch/mqwatch"
)

// Edit carries out an edit (R10i) in one unit of work, in the order of a
// move batch (R10a): browse the original, put the copy under syncpoint,
// write the original to the archive and sync it (R10d), write and sync the
// audit line, get the exact original under syncpoint, MQCMIT. Whatever
// fails before the commit backs the unit of work out: the original stays,
// the archive is removed and the audit log says the edit was not done.
func (e *Engine) Edit(ctx context.Context, req EditRequest) (EditResult, error) {
	if e.opts.ReadOnly && !req.DryRun {
		return EditResult{Plan: EditPlan{Request: req}, Text: ErrReadOnly.Error()}, ErrReadOnly
	}
	sess, err := e.connect(ctx)
	if err != nil {
		return EditResult{Plan: EditPlan{Request: req}}, fmt.Errorf("edit: %w", err)
	}
	defer sess.close()
	started := e.opts.Now()
	p, err := e.planEdit(ctx, sess.conn, req)
	if err != nil && p.gateErr() == nil {
		return EditResult{Plan: p}, err
	}
	audit, _, aerr := openAudit(e.opts.AuditPath)
	if aerr != nil {
		return EditResult{Plan: p}, aerr
	}
	u := &editUOW{e: e, conn: sess.conn, p: &p, audit: audit, res: EditResult{Plan: p, AuditFile: audit.path}}
	switch {
	case err != nil: // the gate refused it: said in the audit log as a skipped requeue is
		u.res.Text = strings.TrimPrefix(err.Error(), "edit: ")
		_ = u.record("skipped: "+u.res.Text, gateReason(&p))
	case req.DryRun:
		planned := OpItem{Kind: WouldAct}
		u.res.Text = planned.Text(OpEdit)
		err = u.record(u.res.Text, 0)
	default:
		err = u.run(ctx)
	}
	if cerr := audit.close(); err == nil && cerr != nil {
		err = cerr
	}
	if req.DryRun {
		return u.res, err
	}
	ent := e.record(EditEntry(&u.res, started, cmp.Or(req.User, e.opts.User)))
	u.res.Entry = ent.Seq
	if err == nil && u.res.Done {
		e.verifyEdit(ctx, &u.res, started)
		if u.res.Verify != nil {
			e.record(CameBackEntry(u.res.Verify, ent, e.opts.Now()))
		}
	}
	return u.res, err
}

// AsRun is the edit as a run of one message, for what keeps runs: the
// requeue-loop alert (R10f) when its check saw the copy come back.
func (r *EditResult) AsRun() OpResult {
	p := &r.Plan
	it := OpItem{Kind: Done, Msg: p.Request.Msg, Target: p.target.queue, TargetQMgr: p.target.qmgr, CopyMsgId: r.NewMsgId,
		CameBack: r.Verify != nil && r.Verify.CameBack > 0}
	if !r.Done {
		it.Kind, it.Detail = NotDone, r.Text
	}
	res := OpResult{Plan: OpPlan{Request: OpRequest{Op: OpEdit, QMgr: p.qmName, Queue: p.Request.Queue, User: p.Request.User}},
		Items: []OpItem{it}, Verify: r.Verify, AuditFile: r.AuditFile, ArchiveFile: r.ArchiveFile}
	if r.Done {
		res.Done = 1
	}
	return res
}

// gateReason is the reason code the audit line of a refused edit carries.
func gateReason(p *EditPlan) mqfmt.Reason {
	if p.Refused == editRefusedSkip {
		return mqfmt.RCNotAuthorized
	}
	return 0
}

// verifyEdit watches the copy after the put as a requeue's check watches
// its messages (R10f): the source queue and the DEADQ, for the copy's
// MsgId, for req.Verify; what came back is audited and said.
func (e *Engine) verifyEdit(ctx context.Context, res *EditResult, started time.Time) {
	req := &res.Plan.Request
	p := &res.Plan
	or := OpResult{Plan: OpPlan{Request: OpRequest{Op: OpEdit, QMgr: p.qmName, Queue: req.Queue, Verify: req.Verify, User: req.User}},
		Done: 1, Elapsed: e.opts.Now().Sub(started)}
	it := OpItem{Kind: Done, Msg: req.Msg, Target: p.target.queue, TargetQMgr: p.target.qmgr, CopyMsgId: res.NewMsgId}
	if p.ComesBack != "" {
		it.Kind, it.Detail = WouldComeBack, p.ComesBack
	}
	or.Plan.Items = []OpItem{it}
	it.Kind = Done
	or.Items = []OpItem{it}
	e.verify(ctx, &or, started)
	res.Verify = or.Verify
}

// editUOW is one edit's unit of work.
type editUOW struct {
	e       *Engine
	conn    mqwatch.Conn
	p       *EditPlan
	audit   *opAudit
	archive *opArchive
	res     EditResult
}

func (u *editUOW) run(ctx context.Context) error {
	req := &u.p.Request
	src, err := u.conn.Open(ctx, mqwatch.ObjectDesc{Name: req.Queue}, mqwatch.OpenOptions{Input: true, Browse: true})
	if err != nil {
		return u.fail(ctx, "nothing changed: open "+req.Queue, err)
	}
	defer src.Close(context.WithoutCancel(ctx))
	m, before, ok, err := browseOccurrence(ctx, src, &u.p.id, 0, nil)
	first := before == 0
	if err == nil && !ok {
		err = mqwatch.NewError("MQGET", req.Queue, mqfmt.RCNoMsgAvailable)
	}
	if err != nil {
		return u.fail(ctx, "nothing changed: the message is gone", err)
	}
	if err := u.p.build(m, u.p.qmName); err != nil { // what is put comes from the message as it is now
		return u.fail(ctx, "nothing changed", err)
	}
	if err := u.p.gateErr(); err != nil { // the gate asked again, on the message as it is now
		return u.fail(ctx, "nothing changed", err)
	}
	if err := u.put(ctx); err != nil {
		return u.fail(ctx, "nothing changed: the put of the edited copy failed and was backed out", err)
	}
	if err := u.archiveOriginal(); err != nil {
		return u.fail(ctx, "nothing changed: the original could not be archived", err)
	}
	err = u.record(OpEdit.PastTense(), 0)
	if err == nil {
		err = u.audit.sync()
	}
	if err != nil {
		return u.fail(ctx, "nothing changed: the audit log cannot be written", err)
	}
	if err := u.getOriginal(ctx, src, first); err != nil {
		return u.fail(ctx, "nothing changed: the original could not be got", err)
	}
	if err := u.conn.Commit(context.WithoutCancel(ctx)); err != nil {
		return u.commitFailed(ctx, err)
	}
	u.res.Done, u.res.Text = true, OpEdit.PastTense()
	path, err := u.archive.close()
	u.res.ArchiveFile = path
	return err
}

// put puts the edited copy under syncpoint.
func (u *editUOW) put(ctx context.Context) error {
	req := &u.p.Request
	oo := mqwatch.OpenOptions{Output: true, SetAllContext: req.Context == ContextPass}
	q, err := u.conn.Open(ctx, mqwatch.ObjectDesc{Name: u.p.target.queue, QMgr: u.p.target.qmgr}, oo)
	if err != nil {
		return fmt.Errorf("open %s: %w", u.p.Target, err)
	}
	defer q.Close(context.WithoutCancel(ctx))
	md := u.p.MD
	po := mqwatch.PutOptions{Syncpoint: true, NewMsgId: !req.KeepMsgId}
	if req.Context == ContextPass {
		po.Context = mqwatch.ContextSetAll
	}
	if err := gatePut(ctx, q, &md, u.p.Data, po); err != nil {
		return fmt.Errorf("MQPUT to %s: %w", u.p.Target, err)
	}
	u.res.NewMsgId = md.MsgId
	return nil
}

// archiveOriginal writes the original to its own dmpmqmsg file, synced
// before anything is got.
func (u *editUOW) archiveOriginal() error {
	req := &u.p.Request
	path := req.File
	if path == "" { // named for what it holds: an edited message's original
		now := u.e.opts.Now()
		for n := 1; path == "" || fileExists(path); n++ {
			path = filepath.Join(u.e.opts.ArchiveDir, "edit-"+strings.TrimPrefix(archiveName(u.p.qmName, req.Queue, now, n), "discard-"))
			if n > 100 {
				return fmt.Errorf("create archive in %s: 100 archives of the same second exist", u.e.opts.ArchiveDir)
			}
		}
	}
	a, err := newArchive(path, u.e.opts.ArchiveDir, u.p.qmName, req.Queue, u.e.opts.Now())
	if err != nil {
		return err
	}
	u.archive = a
	b, _, err := encodeArchive([]*mqwatch.Message{&u.p.Original})
	if err == nil {
		err = a.write(b)
	}
	if err == nil {
		err = a.settle(true, 1)
	}
	return err
}

// getOriginal gets the exact message browsed, by its identifiers or, when
// another with the same ones comes first, under the browse cursor.
func (u *editUOW) getOriginal(ctx context.Context, src mqwatch.Queue, first bool) error {
	ctx = context.WithoutCancel(ctx) // the last step before MQCMIT
	opts := mqwatch.GetOptions{Syncpoint: true, MsgId: &u.p.id.msgID}
	if u.p.id.correlID != ([24]byte{}) {
		opts.CorrelId = &u.p.id.correlID
	}
	if !first {
		if _, ok, err := browseExact(ctx, src, &u.p.Request.Msg, 0, 0); err != nil || !ok {
			if err == nil {
				err = mqwatch.NewError("MQGET", src.Name(), mqfmt.RCNoMsgAvailable)
			}
			return err
		}
		opts = mqwatch.GetOptions{Syncpoint: true, UnderCursor: true}
	}
	m, err := src.Get(ctx, opts)
	if err != nil {
		return err
	}
	if identityOfMD(&m.MD) != u.p.id {
		return fmt.Errorf("another message with its MsgId and CorrelId was got: %w", mqwatch.NewError("MQGET", src.Name(), mqfmt.RCNoMsgAvailable))
	}
	return nil
}

// fail backs out and removes the archive: the original stays on its queue.
func (u *editUOW) fail(ctx context.Context, why string, err error) error {
	if berr := u.conn.Backout(context.WithoutCancel(ctx)); berr != nil && !connectionLost(berr) {
		why += "; MQBACK failed too, so the unit of work is in doubt until the connection ends"
	}
	if u.archive != nil {
		_ = u.archive.f.Close()
		_ = os.Remove(u.archive.path)
	}
	u.res.Text = why + ": " + err.Error()
	// The message's last audit line is its outcome: after a line written
	// ahead, or for a failure before it.
	_ = u.record("not done: "+why, mqwatch.ReasonOf(err))
	return fmt.Errorf("edit: %s: %w", why, err)
}

// commitFailed settles an MQCMIT that failed: the original still on its
// queue means the unit of work was backed out.
func (u *editUOW) commitFailed(ctx context.Context, err error) error {
	_ = u.conn.Backout(context.WithoutCancel(ctx))
	sess, cerr := u.e.connect(context.WithoutCancel(ctx))
	if cerr == nil {
		defer sess.close()
		still, ferr := findExact(context.WithoutCancel(ctx), sess.conn, u.p.Request.Queue, u.p.id, false, nil)
		if ferr == nil && still {
			return u.fail(ctx, "MQCMIT failed and the edit was backed out", err)
		}
	}
	path, _ := u.archive.close() // kept: an extra archived copy is recoverable
	u.res.ArchiveFile = path
	u.res.Text = "MQCMIT failed and its outcome is unknown: the original is archived in " + path
	return fmt.Errorf("edit: %s: %w", u.res.Text, err)
}

// record writes the edit's audit line.
func (u *editUOW) record(outcome string, rc mqfmt.Reason) error {
	req := &u.p.Request
	rec := AuditRecord{Time: u.e.opts.Now().UTC(), User: u.user(), QMgr: u.p.qmName, Action: OpEdit,
		MsgId: hexID(u.p.id.msgID), From: req.Queue, To: u.p.Target, Outcome: outcome, Reason: int32(rc), DryRun: req.DryRun}
	if u.p.id.correlID != ([24]byte{}) {
		rec.CorrelId = hexID(u.p.id.correlID)
	}
	if u.archive != nil {
		rec.File = u.archive.path
	}
	return u.audit.write([]AuditRecord{rec})
}

func (u *editUOW) user() string {
	if u.p.Request.User != "" {
		return u.p.Request.User
	}
	return u.e.opts.User
}

func fileExists(path string) bool {
	_, err := os.Lstat(path)
	return err == nil
}
