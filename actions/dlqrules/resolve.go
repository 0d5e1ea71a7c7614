package dlqrules

import (
	"fmt"

	"github.com/poisonwatch/poisonwatch/actions/ops"
)

// Resolved is a rule's action for one message, in the actions engine's terms.
type Resolved struct {
	Action Action
	// Op is the engine operation: OpRequeue for RETRY and for FWD with
	// HEADER(NO) (the MQDLH is removed), OpMove for FWD with HEADER(YES),
	// OpDiscard for DISCARD; "" for IGNORE and when Skip is set.
	Op ops.Op
	// Target and TargetQMgr are where the message goes, the & references
	// replaced by the message's own names; TargetQMgr is "" for the local
	// queue manager. RETRY's target is the MQDLH's DestQName on DestQMgrName.
	Target, TargetQMgr string
	// PutAuthority is PutAuthContext under PUTAUT(CTX): the engine opens the
	// target with the message's UserIdentifier as alternate user.
	PutAuthority ops.PutAuthority
	// Header is FWD's HEADER(YES): the MQDLH stays on the forwarded message.
	Header bool
	// Named is how the rule names a target it could not resolve ("&REPLYQ"
	// when the message's ReplyToQ is blank).
	Named string
	// Skip says why the action cannot be taken for this message (a & name
	// that is blank in it); the message stays, as runmqdlq reports an error
	// and leaves it.
	Skip string
}

// Resolve works out what r does to a message with facts f on queue manager
// localQMgr (whose name in FWDQM or the MQDLH means "here").
func (r *Rule) Resolve(f *Facts, localQMgr string) Resolved {
	out := Resolved{Action: r.Action}
	local := func(qm string) string {
		if qm == localQMgr {
			return ""
		}
		return qm
	}
	switch r.Action {
	case Ignore:
	case Discard:
		out.Op = ops.OpDiscard
	case Retry:
		out.Op, out.Target, out.TargetQMgr = ops.OpRequeue, f.DestQ, local(f.DestQM)
		if f.DestQ == "" {
			out.Op, out.Named, out.Skip = "", "its destination", "RETRY: the MQDLH DestQName is blank"
		}
	case Fwd:
		out.Op, out.Header = ops.OpMove, r.Header
		if !r.Header {
			out.Op = ops.OpRequeue
		}
		out.Target = r.ref(r.FwdQ, f)
		out.TargetQMgr = local(r.ref(r.FwdQM, f))
		if out.Target == "" {
			out.Op, out.Named, out.Skip = "", r.FwdQ, fmt.Sprintf("FWDQ(%s): the message's %s is blank", r.FwdQ, refField[r.FwdQ])
		}
	}
	if out.Op != "" && out.Op != ops.OpDiscard {
		// PUTAUT(DEF), the default, puts with the handler's own authority
		// whatever the MQDLH reason: a rule for MQRC_NOT_AUTHORIZED retries.
		out.PutAuthority = ops.PutAuthOperator
		if r.PutAutCtx {
			out.PutAuthority = ops.PutAuthContext
		}
	}
	return out
}

var refField = map[string]string{RefDestQ: "MQDLH DestQName", RefReplyQ: "MQMD ReplyToQ",
	RefDestQM: "MQDLH DestQMgrName", RefReplyQM: "MQMD ReplyToQMgr"}

// ref replaces a & reference by the message's name.
func (r *Rule) ref(v string, f *Facts) string {
	switch v {
	case RefDestQ:
		return f.DestQ
	case RefReplyQ:
		return f.ReplyQ
	case RefDestQM:
		return f.DestQM
	case RefReplyQM:
		return f.ReplyQM
	}
	return v
}

// String says what the rule tells the handler to do with the message, as
// a rule says it (whether it would work is the preview's Outcome): "retry
// to ORDERS.IN (MQDLH removed)", "forward to PARKING.Q (MQDLH kept)".
func (x Resolved) String() string {
	to := x.Target
	if to == "" {
		to = x.Named
	}
	if x.TargetQMgr != "" {
		to += " on " + x.TargetQMgr
	}
	switch {
	case x.Action == Ignore:
		return "leave on the DEADQ (IGNORE)"
	case x.Action == Discard:
		return "discard (archived first)"
	case x.Action == Retry:
		return "retry to " + to + " (MQDLH removed)"
	case x.Header:
		return "forward to " + to + " (MQDLH kept)"
	}
	return "forward to " + to + " (MQDLH removed)"
}
