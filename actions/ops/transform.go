package ops

import (
	"context"
	"fmt"

	"github.com/poisonwatch/poisonwatch/codec/mqfmt"
	"github.com/poisonwatch/poisonwatch/mqwatch"
)

// FromDeadLetter undoes a dead-letter queue's header for a requeue (R10b):
// the MQDLH at the start of the data is removed and its Encoding,
// CodedCharSetId and Format, which describe the original message, go back
// into the MQMD, as IBM's dead-letter queue handler does when it retries a
// message. The MQDLH is read in the byte order the MQMD's Encoding gives;
// an MQDLH CodedCharSetId of MQCCSI_INHERIT (-2) keeps the MQMD's. Every
// other MQMD field, the context included, stays. The returned data shares
// data's memory.
func FromDeadLetter(md mqfmt.MQMD, data []byte) (mqfmt.MQMD, []byte, mqfmt.DLH, error) {
	if mqfmt.Trim(md.Format) != mqfmt.Trim(mqfmt.FmtDeadLetter) {
		return md, nil, mqfmt.DLH{}, fmt.Errorf("MQMD Format %q is not MQDEAD: there is no dead-letter header to remove", mqfmt.Sanitize(mqfmt.Trim(md.Format)))
	}
	bo, err := md.Encoding.ByteOrder()
	if err != nil {
		return md, nil, mqfmt.DLH{}, fmt.Errorf("MQDLH at byte 0: the MQMD Encoding %d gives no integer byte order: %w", int32(md.Encoding), err)
	}
	d, err := mqfmt.DecodeDLH(data, 0, bo)
	if err != nil {
		return md, nil, mqfmt.DLH{}, fmt.Errorf("remove MQDLH: %w", err)
	}
	md.Format, md.Encoding = d.Format, d.Encoding
	if d.CodedCharSetId != mqfmt.CCSIDInherit {
		md.CodedCharSetId = d.CodedCharSetId
	}
	return md, data[mqfmt.DLHLen:], d, nil
}

// transform returns what a requeue, replay or move puts for a message got (or
// browsed) from the source, and where; skip says why it cannot go. Under
// PUTAUT(CTX) the target is opened with the message's user's authority.
//
// The run asks the target gate again, with the bytes it is about to put:
// what the message is now decides, not what the plan saw.
func (r *opRun) transform(idx int, m *mqwatch.Message) (mqfmt.MQMD, []byte, opTarget, string) {
	md, data, tg, skip := r.transformMsg(m)
	if skip == "" && tg.queue != "" {
		g := r.p.res.gate(gateIn{op: r.req.Op, tg: tg, msg: &r.items[idx].Msg, length: len(data),
			persistent: md.Persistence == mqfmt.PerPersistent, putAuth: r.req.PutAuthority, allowSystem: r.req.AllowSystemTarget})
		if g.skip != "" {
			return md, data, opTarget{}, g.skip
		}
	}
	if r.req.PutAuthority == PutAuthContext && tg.queue != "" {
		tg.altUser = mqfmt.Trim(m.MD.UserIdentifier)
	}
	return md, data, tg, skip
}

func (r *opRun) transformMsg(m *mqwatch.Message) (mqfmt.MQMD, []byte, opTarget, string) {
	op := r.req.Op
	if op == OpMove {
		return m.MD, m.Data, r.p.res.override, ""
	}
	if mqfmt.Trim(m.MD.Format) == mqfmt.Trim(mqfmt.FmtDeadLetter) {
		md, data, d, err := FromDeadLetter(m.MD, m.Data)
		if err != nil {
			return m.MD, nil, opTarget{}, "the MQDLH cannot be read: " + err.Error()
		}
		tg, skip := r.p.res.forItem(op, opMsgFacts{deadLetter: true,
			destQ: mqfmt.Trim(d.DestQName), destQMgr: mqfmt.Trim(d.DestQMgrName)})
		return md, data, tg, skip
	}
	s := mqwatch.Summarize(m)
	tg, skip := r.p.res.forItem(op, factsOfSummary(&s))
	return m.MD, m.Data, tg, skip
}

// outputOptions open a target: with the context set from the message
// (every copy is put from a browse, which saves no context to pass, and
// before its original is got), unless default context was chosen.
func (r *opRun) outputOptions() mqwatch.OpenOptions {
	return mqwatch.OpenOptions{Output: true, SetAllContext: r.req.Context == ContextPass}
}

// contextAuthority is the authority outputOptions needs beyond put.
func (r *opRun) contextAuthority() string { return "setall" }

// preflight opens each planned target as the run will, before any message
// moves. When the open is refused (2035) but a plain put open works, the
// missing authority is setall: the run stops with a
// ContextAuthorityError naming it, and never falls back to default context
// on its own.
func (r *opRun) preflight(ctx context.Context, conn mqwatch.Conn) error {
	if r.req.Context != ContextPass || r.req.PutAuthority == PutAuthContext {
		return nil // under PUTAUT(CTX) each message's put says what is missing
	}
	seen := map[string]bool{}
	for _, tg := range r.p.targets {
		if tg.queue == "" || seen[tg.key()] {
			continue
		}
		seen[tg.key()] = true
		od := mqwatch.ObjectDesc{Name: tg.queue, QMgr: tg.qmgr}
		q, err := conn.Open(ctx, od, r.outputOptions())
		if err == nil {
			_ = q.Close(ctx)
			continue
		}
		if !mqwatch.IsReason(err, mqfmt.RCNotAuthorized) {
			continue // the messages to it fail with the reason when they are tried
		}
		plain, perr := conn.Open(ctx, od, mqwatch.OpenOptions{Output: true})
		if perr != nil {
			continue // no put authority at all: those messages fail with 2035
		}
		_ = plain.Close(ctx)
		who := r.e.opts.Connect.User
		if who == "" {
			who = r.user
		}
		return &ContextAuthorityError{Queue: tg.key(), User: who, Need: r.contextAuthority(), Err: err}
	}
	return nil
}
