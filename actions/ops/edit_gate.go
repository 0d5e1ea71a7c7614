package ops

import (
	"context"
	"fmt"
	"strings"

	"github.com/poisonwatch/poisonwatch/codec/mqfmt"
	"github.com/poisonwatch/poisonwatch/mqwatch"
)

// gateEdit asks the target gate about the edited copy, as requeue asks it
// about each message: the bytes measured are the copy's, after the
// operator's change, and the MQDLH that says where security refused it is
// the original's. A refusal or a failure known now stops the edit before
// anything is put.
func (p *EditPlan) gateEdit(s *mqwatch.Summary) {
	if why := segmentRefusal(&p.Original.MD); why != "" {
		p.Refused = why
		return
	}
	if w := groupWarning(&p.Original.MD); w != "" {
		p.Warnings = append(p.Warnings, w)
	}
	if p.res == nil {
		return
	}
	g := p.res.gate(gateIn{op: OpEdit, tg: p.target, msg: s, length: len(p.Data),
		persistent: p.MD.Persistence == mqfmt.PerPersistent, allowSystem: p.Request.AllowSystemTarget})
	if len(g.land.path) > 0 {
		p.Route = strings.Join(g.land.path, ", ")
	}
	switch {
	case g.skip != "":
		p.Refused = g.skip
		if g.cause == SkipRefused {
			p.Refused = editRefusedSkip
		}
	case g.rc != 0:
		p.Fails = fmt.Sprintf("%s: %s", g.rc.Describe(), g.why)
	}
}

// editRefusedSkip is R10b for an edit: there is no --putaut for one copy.
const editRefusedSkip = "dead-lettered because its user was not authorized (MQRC_NOT_AUTHORIZED 2035) to put to this very queue: " +
	"your authority would deliver what security refused; give another target (--to), or requeue it with --putaut ctx to put it with its own user's authority"

// segmentRefusal says why one segment of a segmented message is not edited:
// its new length would no longer match the next segment's Offset, and the
// copy, put at the end, would make the logical message's segments overlap
// and come out of order.
func segmentRefusal(md *mqfmt.MQMD) string {
	if md.MsgFlags&(mqfmt.MFSegment|mqfmt.MFLastSegment) == 0 && md.Offset == 0 {
		return ""
	}
	return fmt.Sprintf("it is one segment (offset %d, MsgSeqNumber %d) of a segmented message: an edit changes its length and puts it last, "+
		"so the logical message would have overlapping, out-of-order segments; move or export the segments together, "+
		"or fix the message where it is produced", md.Offset, md.MsgSeqNumber)
}

// groupWarning warns about an edit of a message in a group: the copy keeps
// its GroupId and MsgSeqNumber but is put last on the queue.
func groupWarning(md *mqfmt.MQMD) string {
	if md.MsgFlags&(mqfmt.MFMsgInGroup|mqfmt.MFLastMsgInGroup) == 0 {
		return ""
	}
	last := ""
	if md.MsgFlags&mqfmt.MFLastMsgInGroup != 0 {
		last = ", the last"
	}
	return fmt.Sprintf("message %d%s of a group (GroupId %x): the copy keeps its GroupId and MsgSeqNumber but is put last on the queue, "+
		"after the group's other messages; a consumer that reads the group in logical order waits for it", md.MsgSeqNumber, last, md.GroupId[:8])
}

// predictEdit follows the copy one hop further (R10f), as a requeue's plan
// does, with the copy as it will be put: a 2364 dead letter whose header
// chain the edit left broken is refused by the same consumer again; a
// 2363 one keeps the properties its selector did not match.
func (e *Engine) predictEdit(ctx context.Context, conn mqwatch.Conn, p *EditPlan, orig *mqwatch.Summary) {
	if p.res == nil || p.res.inv == nil || !orig.HasDLH || p.Refused != "" || p.Fails != "" {
		return
	}
	cm := mqwatch.Message{MD: p.MD, Data: p.Data, Length: len(p.Data)}
	cs := mqwatch.Summarize(&cm)
	cs.HasDLH, cs.DLHReason, cs.DLHDestQ, cs.DLHDestQMgr, cs.DLHPutAppl = true, orig.DLHReason, orig.DLHDestQ, orig.DLHDestQMgr, orig.DLHPutAppl
	one := &opPlanned{OpPlan: OpPlan{Request: OpRequest{Op: OpRequeue, Queue: p.Request.Queue}},
		res: p.res, targets: []opTarget{p.target}}
	one.Items = []OpItem{{Kind: WouldAct, Msg: cs, Target: p.target.queue, TargetQMgr: p.target.qmgr}}
	one.nextHop(ctx, conn, e.opts.ConsumerStyle)
	it := &one.Items[0]
	if mqfmt.Reason(orig.DLHReason) == mqfmt.RCJMSFormatError && it.Kind == WouldComeBack {
		if _, err := mqfmt.WalkChain(p.MD.Format, p.MD.Encoding, p.MD.CodedCharSetId, p.Data); err != nil {
			it.Detail = fmt.Sprintf("the consumer of %s could not parse it (2364) and the edit left its headers as they were, still broken (%v): it is refused again",
				p.target.key(), err)
		} else if len(p.Diff) > 0 {
			p.Warnings = append(p.Warnings, "its consumer refused it for its content (2364); whether it takes the edited copy, the check after the put tells")
			return
		}
	}
	if it.Kind == WouldComeBack {
		p.ComesBack = it.Detail
		p.Warnings = append(p.Warnings, "would come back: "+it.Detail)
		p.Warnings = append(p.Warnings, one.fixes...)
	}
}
