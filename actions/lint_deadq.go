package actions

import (
	"fmt"
	"strings"

	"github.com/poisonwatch/poisonwatch/mqwatch"
	"github.com/poisonwatch/poisonwatch/mqwatch/pcf"
)

// deadQ applies R8a: a DEADQ is defined, is a local queue that takes puts, is
// not near MAXDEPTH, and can hold the largest message of any queue that can
// dead-letter into it plus the MQDLH (IBM: "Its MAXMSGL attribute must enable
// the queue to accommodate the largest messages that the queue manager has to
// handle plus the size of the dead-letter header").
func (l *linter) deadQ() {
	name := strings.TrimSpace(l.in.QMgr.DeadQ)
	largest, from := l.largestMsgLen(name)
	want := min(int64(largest)+dlhLen, maxMAXMSGL)
	if name == "" {
		l.noDeadQ(want)
		return
	}
	q, ok := l.inv.Queue(name)
	switch {
	case !ok:
		l.add(Critical, "R8a", name, "the DEADQ does not exist: undeliverable and poison messages have nowhere to go",
			fmt.Sprintf("DEFINE QLOCAL(%s) MAXDEPTH(%d) MAXMSGL(%d)", pcf.MQSCName(name), 50000, want))
		return
	case q.Type != mqwatch.QLocal:
		l.add(Critical, "R8a", name, fmt.Sprintf("the DEADQ is a %s; IBM requires a local queue", q.Type))
		return
	}
	if q.InhibitPut {
		l.add(Critical, "R8a", name, "the DEADQ is PUT(DISABLED): every dead-letter put fails (R4, R6h)", fmt.Sprintf("ALTER QLOCAL(%s) PUT(ENABLED)", pcf.MQSCName(name)))
	}
	switch c, depth := l.capacity(q); c {
	case 2:
		l.add(Critical, "R8a", name, fmt.Sprintf("the DEADQ is full (%d of MAXDEPTH %d): every dead-letter put fails (R4, R6h)", depth, q.MaxDepth), l.roomFix(q))
	case 1:
		l.add(Warning, "R8a", name, fmt.Sprintf("the DEADQ is near MAXDEPTH (%d of %d)", depth, q.MaxDepth), l.roomFix(q))
	}
	if largest > 0 && int64(q.MaxMsgLen) < want {
		f := Finding{Severity: Warning, Rule: "R8a", Queue: name, Fix: l.maxMsgLFix(name, want),
			Why: fmt.Sprintf("DEADQ MAXMSGL %d cannot hold a %d-byte message from %s plus its %d-byte MQDLH", q.MaxMsgLen, largest, from, dlhLen)}
		l.addOrNoise(f, q.MaxMsgLen >= largest)
	}
}

// noDeadQ reports a queue manager without a DEADQ: critical when some queue
// sends poison there (BOTHRESH set without BOQNAME).
func (l *linter) noDeadQ(maxMsgL int64) {
	sev, why := Warning, "no dead-letter queue is defined: channels and JMS consumers cannot dead-letter"
	for _, q := range l.in.Queues {
		if isApplicationQueue(q) && q.BackoutThresh > 0 && strings.TrimSpace(q.BackoutQName) == "" {
			sev, why = Critical, fmt.Sprintf("no dead-letter queue is defined and %s sends its poison there (BOTHRESH without BOQNAME)", q.Name)
			break
		}
	}
	fix := []string{fmt.Sprintf("ALTER QMGR DEADQ(%s)", pcf.MQSCName(defaultDeadQ))}
	if _, ok := l.inv.Queue(defaultDeadQ); !ok {
		fix = append([]string{fmt.Sprintf("DEFINE QLOCAL(%s) MAXDEPTH(50000) MAXMSGL(%d)", pcf.MQSCName(defaultDeadQ), maxMsgL)}, fix...)
	}
	l.add(sev, "R8a", l.in.QMgr.Name, why, fix...)
}

// largestMsgLen returns the largest message any queue that can dead-letter
// into the DEADQ holds (its MAXMSGL, capped by the queue manager's), and
// which queue that is. Every local queue can: channels dead-letter what they
// cannot deliver to it, JMS consumers what they cannot move off it.
func (l *linter) largestMsgLen(deadQ string) (int32, string) {
	var largest int32
	var from string
	for _, q := range l.in.Queues {
		if q.Type != mqwatch.QLocal || q.Name == deadQ || strings.HasPrefix(q.Name, "SYSTEM.") {
			continue
		}
		n := q.MaxMsgLen
		if qm := l.in.QMgr.MaxMsgLen; qm > 0 && n > qm {
			n = qm // no message can be longer than the queue manager allows
		}
		if n > largest {
			largest, from = n, q.Name
		}
	}
	return largest, from
}

// maxMsgLFix raises a queue's MAXMSGL to want, and the queue manager's first
// when it is lower: the queue manager refuses any longer message whatever
// the queue allows (MQRC_MSG_TOO_BIG_FOR_Q_MGR).
func (l *linter) maxMsgLFix(queue string, want int64) []string {
	fix := []string{fmt.Sprintf("ALTER QLOCAL(%s) MAXMSGL(%d)", pcf.MQSCName(queue), want)}
	if qm := l.in.QMgr.MaxMsgLen; qm > 0 && int64(qm) < want {
		fix = append([]string{fmt.Sprintf("ALTER QMGR MAXMSGL(%d)", want)}, fix...)
	}
	return fix
}
