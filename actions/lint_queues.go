package actions

import (
	"fmt"
	"slices"
	"strings"

	"github.com/poisonwatch/poisonwatch/mqwatch"
	"github.com/poisonwatch/poisonwatch/mqwatch/pcf"
)

// inputQueues applies R1c, R2c and R8c to every application queue that is
// not itself a BOQ or the DEADQ.
func (l *linter) inputQueues() {
	deadQ := strings.TrimSpace(l.in.QMgr.DeadQ)
	for _, q := range l.in.Queues {
		if !isApplicationQueue(q) || q.Name == deadQ || l.boqUsers[q.Name] != nil {
			continue
		}
		seen, known := l.in.MaxBackoutSeen[q.Name]
		boq := strings.TrimSpace(q.BackoutQName)
		switch {
		case q.BackoutThresh == 0:
			l.disabled(q, seen, known)
		case boq == "":
			l.add(Warning, "R2c", q.Name, fmt.Sprintf("BOTHRESH %d without BOQNAME: JMS poison goes to the DEADQ or is discarded by its Report options", q.BackoutThresh),
				l.boqFix(q, suggestBOQ(q.Name))...)
		}
		if q.BackoutThresh > 0 && known && seen >= q.BackoutThresh {
			l.add(Critical, "R8c", q.Name, fmt.Sprintf("stuck poison: BackoutCount %d >= BOTHRESH %d still on the input queue (no JMS-aware consumer, or the BOQ/DEADQ put failed)", seen, q.BackoutThresh))
		}
	}
}

// disabled reports BOTHRESH 0 (R1c): a loop when messages are being backed
// out, a risk when consumers are attached.
func (l *linter) disabled(q mqwatch.QueueInfo, seen int32, known bool) {
	fix := l.boqFix(q, suggestBOQ(q.Name))
	switch {
	case known && seen >= l.in.LoopAlarm:
		l.add(Critical, "R1c", q.Name, fmt.Sprintf("BOTHRESH 0 and a message backed out %d times: poison loop, nothing will move it", seen), fix...)
	case known && seen > 0:
		l.add(Warning, "R1c", q.Name, fmt.Sprintf("BOTHRESH 0 and messages backed out (BackoutCount up to %d): a poison message would loop forever", seen), fix...)
	case l.status[q.Name].OpenInput > 0:
		l.add(Info, "R1c", q.Name, "BOTHRESH 0: poison handling is disabled for the consumers of this queue", fix...)
	}
}

// boqFix proposes BOTHRESH and a BOQNAME, defining the BOQ if it is missing.
func (l *linter) boqFix(q mqwatch.QueueInfo, boq string) []string {
	kind := "QLOCAL"
	if q.Type == mqwatch.QModel {
		kind = "QMODEL"
	}
	thresh := q.BackoutThresh
	if thresh == 0 {
		thresh = suggestedBOTHRESH
	}
	alter := fmt.Sprintf("ALTER %s(%s) BOTHRESH(%d) BOQNAME(%s)", kind, pcf.MQSCName(q.Name), thresh, pcf.MQSCName(boq))
	if _, ok := l.inv.Queue(boq); ok {
		return []string{alter}
	}
	return []string{defineBOQ(boq, q), alter}
}

// backoutQueues applies R8b once per BOQ, however many input queues share it.
func (l *linter) backoutQueues() {
	names := make([]string, 0, len(l.boqUsers))
	for n := range l.boqUsers {
		names = append(names, n)
	}
	slices.Sort(names)
	for _, name := range names {
		l.backoutQueue(name, l.boqUsers[name])
	}
}

func (l *linter) backoutQueue(name string, users []mqwatch.QueueInfo) {
	from := usersText(users)
	q, ok := l.inv.Queue(name)
	if !ok {
		l.add(Critical, "R8b", name, fmt.Sprintf("BOQNAME of %s, but no such queue: poison falls back to the DEADQ (R2b)", from), defineBOQ(name, widest(users)))
		return
	}
	base := q
	if q.Type == mqwatch.QAlias {
		b, ok := l.inv.Queue(q.Target)
		if !ok || b.Type != mqwatch.QLocal {
			l.add(Critical, "R8b", name, fmt.Sprintf("BOQNAME of %s is an alias whose base %s is not a local queue", from, q.Target))
			return
		}
		base = b
	}
	if q.Type != mqwatch.QLocal {
		l.add(Warning, "R8b", name, fmt.Sprintf("BOQNAME of %s is a %s, not a local queue", from, q.Type))
	}
	if base.Type != mqwatch.QLocal {
		return
	}
	l.backoutQueueLimits(name, q, base, users, from)
}

// backoutQueueLimits checks what makes puts to a BOQ fail or grow risky.
func (l *linter) backoutQueueLimits(name string, q, base mqwatch.QueueInfo, users []mqwatch.QueueInfo, from string) {
	if q.InhibitPut || base.InhibitPut {
		l.add(Critical, "R8b", name, fmt.Sprintf("BOQ of %s is PUT(DISABLED): poison falls back to the DEADQ (R2b)", from),
			fmt.Sprintf("ALTER %s(%s) PUT(ENABLED)", qlType(q), pcf.MQSCName(name)))
	}
	switch c, depth := l.capacity(base); c {
	case 2:
		l.add(Critical, "R8b", name, fmt.Sprintf("BOQ of %s is full (%d of MAXDEPTH %d): poison falls back to the DEADQ (R2b)", from, depth, base.MaxDepth),
			l.roomFix(base))
	case 1:
		l.add(Warning, "R8b", name, fmt.Sprintf("BOQ of %s is near MAXDEPTH (%d of %d)", from, depth, base.MaxDepth), l.roomFix(base))
	}
	w := widest(users)
	if need := min(int64(w.MaxMsgLen)+rfh2FixedLen, maxMAXMSGL); int64(base.MaxMsgLen) < need {
		f := Finding{Severity: Warning, Rule: "R8b", Queue: name, Fix: l.maxMsgLFix(base.Name, need),
			Why: fmt.Sprintf("BOQ MAXMSGL %d cannot hold a %d-byte message from %s once R5b adds its %d-byte MQRFH2", base.MaxMsgLen, w.MaxMsgLen, w.Name, rfh2FixedLen)}
		l.addOrNoise(f, base.MaxMsgLen >= w.MaxMsgLen)
	}
	if base.BackoutThresh > 0 || strings.TrimSpace(base.BackoutQName) != "" {
		l.add(Info, "R8b", name, fmt.Sprintf("BOQ has its own BOTHRESH %d BOQNAME %s; a BOQ is normally an ordinary queue without them", base.BackoutThresh, orNone(strings.TrimSpace(base.BackoutQName))))
	}
}

func qlType(q mqwatch.QueueInfo) string {
	if q.Type == mqwatch.QAlias {
		return "QALIAS"
	}
	return "QLOCAL"
}

// widest returns the user queue with the largest MAXMSGL.
func widest(users []mqwatch.QueueInfo) mqwatch.QueueInfo {
	w := users[0]
	for _, u := range users[1:] {
		if u.MaxMsgLen > w.MaxMsgLen {
			w = u
		}
	}
	return w
}

func usersText(users []mqwatch.QueueInfo) string {
	names := make([]string, len(users))
	for i, u := range users {
		names[i] = u.Name
	}
	slices.Sort(names)
	return strings.Join(names, ", ")
}

// suggestBOQ names a backout queue after its input queue, the way the
// scenarios and IBM's examples do: ORDERS.IN → ORDERS.BO, TESTQ → TESTQ.BO.
func suggestBOQ(input string) string {
	return strings.TrimSuffix(input, ".IN") + boqSuffix
}
