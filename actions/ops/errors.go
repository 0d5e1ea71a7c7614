package ops

import (
	"context"
	"errors"
	"fmt"

	"github.com/poisonwatch/poisonwatch/codec/mqfmt"
	"github.com/poisonwatch/poisonwatch/mqwatch"
)

// opErrClass says what a failed put (or target open) means for the run.
type opErrClass int

const (
	ecStop   opErrClass = iota // stop the run: connection, cancellation, anything unexpected
	ecTarget                   // the target refuses every message: fail those to it, go on
	ecItem                     // this message cannot go there: fail it, go on
	ecFull                     // the target is full: stop after backing out (as the issue asks)
)

// targetReasons refuse every message to a target; itemReasons one message.
var (
	targetReasons = map[mqfmt.Reason]bool{
		mqfmt.RCPutInhibited: true, mqfmt.RCQDeleted: true, mqfmt.RCUnknownObjectName: true,
		mqfmt.RCUnknownAliasBaseQ: true, mqfmt.RCAliasBaseQTypeError: true, mqfmt.RCUnknownObjectQMgr: true,
		mqfmt.RCUnknownRemoteQMgr: true, mqfmt.RCQTypeError: true, mqfmt.RCNotAuthorized: true,
		mqfmt.RCClusterResolutionError: true,
		2045:                           true, // MQRC_OPTION_NOT_VALID_FOR_TYPE
		2091:                           true, // MQRC_XMIT_Q_TYPE_ERROR
		2092:                           true, // MQRC_XMIT_Q_USAGE_ERROR
		2196:                           true, // MQRC_UNKNOWN_XMIT_Q
		2197:                           true, // MQRC_UNKNOWN_DEF_XMIT_Q
		2198:                           true, // MQRC_DEF_XMIT_Q_TYPE_ERROR
		2199:                           true, // MQRC_DEF_XMIT_Q_USAGE_ERROR
	}
	itemReasons = map[mqfmt.Reason]bool{
		mqfmt.RCMsgTooBigForQ: true, mqfmt.RCMsgTooBigForQMgr: true, mqfmt.RCPersistentNotAllowed: true,
		mqfmt.RCExpiryError: true, mqfmt.RCMsgTooBigForChannel: true,
		2047: true, // MQRC_PERSISTENCE_ERROR
		2026: true, // MQRC_MD_ERROR
	}
)

func classify(err error) opErrClass {
	if isCancel(err) {
		return ecStop
	}
	rc := mqwatch.ReasonOf(err)
	switch {
	case rc == mqfmt.RCQFull || rc == mqfmt.RCQSpaceNotAvailable:
		return ecFull
	case targetReasons[rc]:
		return ecTarget
	case itemReasons[rc]:
		return ecItem
	}
	return ecStop
}

func isCancel(err error) bool {
	return errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded)
}

// oneResult says what became of one message in a batch attempt.
type oneResult int

const (
	oneOK            oneResult = iota // part of the batch in flight
	oneResolved                       // skipped or failed before anything of it was in the unit of work
	oneRetryResolved                  // back out and try again without it
	oneStop                           // back out and stop the run
)

// putFailed deals with a put (or target open) that failed for message idx.
// got says whether the message is in the unit of work.
func (r *opRun) putFailed(idx int, tg opTarget, err error, got bool) oneResult {
	rc := mqwatch.ReasonOf(err)
	switch classify(err) {
	case ecTarget:
		r.markTargetFailed(tg, err)
		r.record([]int{idx}, Failed, failureText(tg, err), rc, []opTarget{tg})
	case ecItem:
		r.record([]int{idx}, Failed, failureText(tg, err), rc, []opTarget{tg})
	case ecFull:
		r.items[idx].Reason = int32(rc)
		r.setStop(fmt.Sprintf("%s is full (%s): the batch in flight was backed out", tg.key(), rc), err)
		return oneStop
	default:
		r.stopFor("MQPUT to "+tg.key()+" failed", err)
		return oneStop
	}
	if got {
		return oneRetryResolved
	}
	return oneResolved
}

// failureText is a message's failure as the operator reads it.
func failureText(tg opTarget, err error) string {
	var me *mqwatch.Error
	if errors.As(err, &me) {
		s := fmt.Sprintf("%s %s: %s", me.Verb, tg.key(), me.RC.Describe())
		if tg.altUser != "" && me.RC == mqfmt.RCNotAuthorized {
			s += fmt.Sprintf("; with PUTAUT(CTX) the put is checked for the message's user %s: grant it put "+
				"(setmqaut -m QMGR -n %s -t queue -p %s +put) and yourself alternate-user authority "+
				"(setmqaut -m QMGR -t qmgr -p YOU +altusr)", tg.altUser, tg.queue, tg.altUser)
		}
		return s
	}
	return err.Error()
}

// stopFor stops the run after a failure that is not the message's fault.
func (r *opRun) stopFor(what string, err error) {
	switch {
	case isCancel(err):
		r.setStop("cancelled: the batch in flight was backed out", err)
	case mqwatch.IsReason(err, mqfmt.RCConnectionBroken):
		r.setStop("connection broken (MQRC_CONNECTION_BROKEN 2009): the queue manager backs out the batch in flight", err)
	case connectionLost(err):
		rc := mqwatch.ReasonOf(err)
		r.setStop(fmt.Sprintf("connection lost (%s %d): the queue manager backs out the batch in flight", rc, int32(rc)), err)
	default:
		r.setStop(what+": the batch in flight was backed out", err)
	}
}

// markTargetFailed remembers a target that refuses messages, so that later
// messages to it fail without being got and backed out.
func (r *opRun) markTargetFailed(tg opTarget, err error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if _, ok := r.badTarget[tg.handleKey()]; !ok {
		r.badTarget[tg.handleKey()] = err
	}
}

func (r *opRun) targetFailure(tg opTarget) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.badTarget[tg.handleKey()]
}

// connectionLost reports whether err means the connection is gone or
// going, in which case the queue manager itself backs out its open unit of
// work: the one list mqwatch.ConnectionLost keeps for the backends and the
// watchers.
func connectionLost(err error) bool {
	return mqwatch.ConnectionLost(mqwatch.ReasonOf(err))
}
