package ops

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/poisonwatch/poisonwatch/codec/mqfmt"
	"github.com/poisonwatch/poisonwatch/internal/bodyedit"
	"github.com/poisonwatch/poisonwatch/mqwatch"
)

// EditRequest is one message edited and put back (R10i): the original,
// exactly as the operator saw it, is archived and removed, and a copy with
// Body after the original's headers is put, in one unit of work.
type EditRequest struct {
	QMgr  string
	Queue string
	Msg   mqwatch.Summary // the message shown: MsgId, CorrelId and put time
	// Body replaces the data after the headers that stay.
	Body []byte
	// Target is where the copy goes: the source queue when empty, or, when
	// the MQDLH is removed, its DestQName as a requeue (R10b).
	Target     string
	TargetQMgr string
	// KeepDLH keeps a dead-letter header; by default it is removed (R10b).
	KeepDLH bool
	// KeepMsgId puts the copy with the original's MsgId; by default the
	// queue manager gives it a new one, as a replay does (R10e).
	KeepMsgId bool
	Context   OpContext
	// AllowSystemTarget names the one SYSTEM.* queue the copy may land on
	// (R10g), as for the other actions.
	AllowSystemTarget string
	// Verify is how long after the put the copy is watched for coming back
	// (R10f); 0 skips the check.
	Verify time.Duration
	DryRun bool
	File   string // archive override
	User   string
}

// EditPlan is what an edit would do, for the confirmation and --dry-run.
type EditPlan struct {
	Request  EditRequest
	Original mqwatch.Message // as browsed now
	MD       mqfmt.MQMD      // the copy's MQMD before the put
	Data     []byte          // the copy's data: kept headers and the new body
	Mode     bodyedit.Mode   // how the body was compared: text or hex
	Diff     []string        // the body's changed lines
	Headers  []string        // what stays of the message besides the body
	Target   string          // QUEUE or QUEUE@QMGR
	Summary  string
	Warnings []string
	// Refused says why the target gate refuses the copy (R10b, R10g, one
	// segment of a segmented message): nothing is put.
	Refused string
	// Fails is the failure the queue manager answers now to the copy's
	// put (MAXMSGL, put inhibited, ...), with its reason.
	Fails string
	// ComesBack is why the copy would return to the DEADQ (R10f), "" when
	// nothing says it would.
	ComesBack string
	// Route is how the target's name resolves, when it is not a local queue
	// of that name: "alias ADMIN.CMD → SYSTEM.ADMIN.COMMAND.QUEUE".
	Route  string
	target opTarget
	res    *opTargets
	id     msgIdentity
	qmName string
}

// EditResult is a finished edit.
type EditResult struct {
	Plan EditPlan
	Done bool
	// Verify is what the check after the put found (R10f); nil when none ran.
	Verify      *OpVerify
	Text        string // what became of it: "edited", "would edit", why not
	NewMsgId    [24]byte
	ArchiveFile string
	AuditFile   string
	// Entry is the edit's entry in the engine's journal (0: none written).
	Entry uint64
}

// PlanEdit browses the message and works out the copy, changing nothing.
func (e *Engine) PlanEdit(ctx context.Context, req EditRequest) (EditPlan, error) {
	sess, err := e.connect(ctx)
	if err != nil {
		return EditPlan{Request: req}, fmt.Errorf("edit: %w", err)
	}
	defer sess.close()
	return e.planEdit(ctx, sess.conn, req)
}

func (e *Engine) planEdit(ctx context.Context, conn mqwatch.Conn, req EditRequest) (EditPlan, error) {
	p := EditPlan{Request: req, id: identityOf(&req.Msg)}
	if req.Queue == "" {
		return p, errors.New("edit: no queue given")
	}
	qmi, err := conn.QMgr(ctx)
	if err != nil {
		return p, fmt.Errorf("edit: %w", err)
	}
	if e.opts.QMgr != "" && req.QMgr != "" && req.QMgr != e.opts.QMgr {
		return p, fmt.Errorf("edit: the engine is connected to %s, not %s", e.opts.QMgr, req.QMgr)
	}
	p.qmName = qmi.Name
	p.res = e.targetsFor(ctx, conn, qmi, &OpRequest{Queue: req.Queue})
	q, err := conn.Open(ctx, mqwatch.ObjectDesc{Name: req.Queue}, mqwatch.OpenOptions{Browse: true})
	if err != nil {
		return p, fmt.Errorf("edit: open %s: %w", req.Queue, err)
	}
	defer q.Close(context.WithoutCancel(ctx))
	m, ok, err := browseExact(ctx, q, &p.Request.Msg, 0, 0)
	if err == nil && !ok {
		err = mqwatch.NewError("MQGET", req.Queue, mqfmt.RCNoMsgAvailable)
	}
	if err != nil {
		return p, fmt.Errorf("edit: the message is not on %s: %w", req.Queue, err)
	}
	if err := p.build(m, qmi.Name); err != nil {
		return p, fmt.Errorf("edit: %w", err)
	}
	s := mqwatch.Summarize(&m)
	e.predictEdit(ctx, conn, &p, &s)
	return p, p.gateErr()
}

// gateErr is the plan's refusal or known failure as an error: the edit is
// not made, and a dry run says it would not be.
func (p *EditPlan) gateErr() error {
	switch {
	case p.Refused != "":
		return fmt.Errorf("edit: refused: %s", p.Refused)
	case p.Fails != "":
		return fmt.Errorf("edit: would fail: %s", p.Fails)
	}
	return nil
}

// build works out the copy from the original m.
func (p *EditPlan) build(m mqwatch.Message, qmName string) error {
	req := &p.Request
	p.Original = m
	p.Headers, p.Warnings, p.Refused, p.Fails, p.ComesBack, p.Route = nil, nil, "", "", "", ""
	s := mqwatch.Summarize(&m)
	if s.BodyOffset < 0 || s.BodyOffset > len(m.Data) {
		return fmt.Errorf("the message's headers cannot be read (%s): it cannot be edited", s.DecodeErr)
	}
	md, headers := m.MD, m.Data[:s.BodyOffset]
	p.target = opTarget{queue: req.Queue, why: "source queue"}
	dead := mqfmt.Trim(m.MD.Format) == mqfmt.Trim(mqfmt.FmtDeadLetter)
	if dead && !req.KeepDLH {
		nmd, rest, d, err := FromDeadLetter(m.MD, m.Data)
		if err != nil {
			return err
		}
		md, headers = nmd, rest[:s.BodyOffset-mqfmt.DLHLen]
		p.target = opTarget{queue: mqfmt.Trim(d.DestQName), why: "R10b MQDLH DestQName"}
		if qm := mqfmt.Trim(d.DestQMgrName); qm != "" && qm != qmName {
			p.target.qmgr = qm
		}
		p.Headers = append(p.Headers, fmt.Sprintf("MQDLH removed (reason %s (%d), was for %s)", mqfmt.Reason(d.Reason), d.Reason, p.target.key()))
	} else if dead {
		p.Headers = append(p.Headers, "MQDLH kept")
	}
	if req.Target != "" {
		p.target = opTarget{queue: req.Target, qmgr: strings.TrimSpace(req.TargetQMgr), why: "target override"}
		if p.target.qmgr == qmName {
			p.target.qmgr = ""
		}
	}
	if p.target.queue == "" {
		return errors.New("the MQDLH DestQName is blank: give a target")
	}
	p.Target = p.target.key()
	p.MD = md
	p.Data = append(append(make([]byte, 0, len(headers)+len(req.Body)), headers...), req.Body...)
	p.Headers = append(p.Headers, headerLines(&s, md, req)...)
	old := bodyedit.Open(m.Data[s.BodyOffset:], s.BodyCCSID, s.Encoding)
	p.Mode = old.Mode
	p.Diff = bodyedit.Diff(old.Text, editorText(old, req.Body), 2)
	if len(p.Diff) == 0 {
		p.Warnings = append(p.Warnings, "the body is unchanged: the copy is the same message")
	}
	p.Summary = editSentence(p, len(m.Data)-s.BodyOffset)
	p.gateEdit(&s)
	p.Warnings = append(p.Warnings, replayNotes(&OpRequest{Op: OpEdit, KeepMsgId: req.KeepMsgId}, []OpItem{{Kind: WouldAct, Msg: s}})...)
	return nil
}

// editorText is how the new body reads in the mode the old one was edited in.
func editorText(old bodyedit.Doc, body []byte) string {
	if old.Mode == bodyedit.Text {
		if s, err := mqfmt.DecodeTextEnc(body, old.CCSID, old.Enc); err == nil {
			return s
		}
	}
	return bodyedit.Dump(body)
}

// headerLines say what of the original stays on the copy.
func headerLines(s *mqwatch.Summary, md mqfmt.MQMD, req *EditRequest) []string {
	var out []string
	ctxLine := fmt.Sprintf("MQMD context kept: user %s, appl %s, put %s", mqfmt.Sanitize(mqfmt.Trim(md.UserIdentifier)),
		mqfmt.Sanitize(mqfmt.Trim(md.PutApplName)), s.PutTime.UTC().Format("2006-01-02 15:04:05"))
	if req.Context == ContextDefault {
		ctxLine = "MQMD context: set by the queue manager (your user, now)"
	}
	out = append(out, ctxLine, fmt.Sprintf("MQMD Format %s, CCSID %d, Encoding %d, CorrelId kept",
		mqfmt.Sanitize(mqfmt.Trim(md.Format)), md.CodedCharSetId, int32(md.Encoding)))
	if req.KeepMsgId {
		out = append(out, "MsgId kept")
	} else {
		out = append(out, "MsgId: a new one (the copy is a new message; BackoutCount 0)")
	}
	if s.HasRFH2 {
		out = append(out, "MQRFH2 kept as it was (its folders unchanged)")
	}
	return out
}

func editSentence(p *EditPlan, oldLen int) string {
	verb := "Edit"
	if p.Request.DryRun {
		verb = "Would edit"
	}
	return fmt.Sprintf("%s message %s on %s: body %d → %d bytes (%s), put to %s; the original is archived, then removed",
		verb, hexID(p.id.msgID), p.Request.Queue, oldLen, len(p.Request.Body), p.Mode, p.Target)
}
