package actions

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/poisonwatch/poisonwatch/mqwatch"
	"github.com/poisonwatch/poisonwatch/mqwatch/pcf"
)

// A fix is checked against the state of the queues it names before it is
// shown (docs/poison-rules.md R8e): a BOQNAME or DEADQ that names a queue
// which cannot take the messages would turn one finding into another, so the
// commands that make that queue fit run first.

// minRoomDepth is the least MAXDEPTH a fix proposes for a queue that is
// full or nearly so: doubling a 40-message BOQ buys minutes, not an
// incident's worth of room.
const minRoomDepth = 5000

// RoomDepth is the MAXDEPTH that makes room on a queue of maxDepth that is
// full or nearly full: twice its MAXDEPTH, at least minRoomDepth, at most
// IBM MQ's limit. It is the one sizing rule for a queue's room, wherever a
// fix is offered (the lint, the live R8a/R8b alerts, the requeue dialog's
// "fix first"), so one screen never proposes 80 while another applies 5000.
func RoomDepth(maxDepth int32) int64 {
	return min(max(2*int64(maxDepth), minRoomDepth), maxDepthLimit)
}

// RoomFix is the MQSC that makes room on queue q (RoomDepth).
func RoomFix(q mqwatch.QueueInfo) string {
	return fmt.Sprintf("ALTER QLOCAL(%s) MAXDEPTH(%d)", pcf.MQSCName(q.Name), RoomDepth(q.MaxDepth))
}

// roomFix raises the MAXDEPTH of a full or nearly full BOQ or DEADQ.
func (l *linter) roomFix(q mqwatch.QueueInfo) string { return RoomFix(q) }

// addOrNoise adds a MAXMSGL finding, or keeps it for the per-queue-manager
// group when only a maximum-size message plus its header would not fit.
func (l *linter) addOrNoise(f Finding, headerOnly bool) {
	if headerOnly {
		l.noise = append(l.noise, f)
		return
	}
	l.out = append(l.out, f)
}

// groupNoise reports the header-only MAXMSGL shortfalls as one info finding
// per queue manager: every queue defined with the default MAXMSGL has one,
// and eight warnings that all say "4 MB is not 4 MB plus 36 bytes" hide the
// ones that matter.
func (l *linter) groupNoise() {
	if len(l.noise) == 0 {
		return
	}
	g := Finding{Severity: Info, Rule: "R8a"}
	var qmgrMax int64
	for _, f := range l.noise {
		if f.Rule == "R8b" {
			g.Rule = "R8b"
		}
		g.Queues = append(g.Queues, f.Queue)
		for _, c := range f.Fix {
			var n int64
			if _, err := fmt.Sscanf(c, "ALTER QMGR MAXMSGL(%d)", &n); err == nil {
				qmgrMax = max(qmgrMax, n) // the largest serves every queue
				continue
			}
			if !slices.Contains(g.Fix, c) {
				g.Fix = append(g.Fix, c)
			}
		}
	}
	slices.Sort(g.Queues)
	qmgrMax = l.converge(g.Fix, qmgrMax)
	if qmgrMax > 0 {
		g.Fix = append([]string{fmt.Sprintf("ALTER QMGR MAXMSGL(%d)", qmgrMax)}, g.Fix...)
	}
	g.Why = fmt.Sprintf("MAXMSGL of %s only equals that of the queues feeding them: just a message within %d bytes (MQRFH2) or %d (MQDLH) of the limit would not fit, as on every default definition",
		strings.Join(g.Queues, ", "), rfh2FixedLen, dlhLen)
	l.out = append(l.out, g)
}

// fixAttr parses a fix's command (as MQSC reads it, quoted names kept) and
// returns the queue it changes and the value of attribute kw, when the
// command is a change of that kind (CmdChangeQ or CmdChangeQMgr).
func fixAttr(c string, cmd int32, kw string) (queue, value string, ok bool) {
	ch, err := ParseFixCommand(c)
	if err != nil || ch.Command != cmd {
		return "", "", false
	}
	for _, a := range ch.Attrs {
		if a.Keyword == kw {
			return ch.Queue, a.Value, true
		}
	}
	return "", "", false
}

// step is one command a fix needs first, and the finding it fixes.
type step struct{ cmd, after string }

// orderFixes puts, in front of each fix that points poison or dead letters
// at a queue, the commands that make that queue able to take them.
func (l *linter) orderFixes() {
	for i := range l.out {
		f := &l.out[i]
		var first []step
		for _, c := range f.Fix {
			if q, boq, ok := fixAttr(c, pcf.CmdChangeQ, "BOQNAME"); ok && boq != "" {
				in, _ := l.inv.Queue(q)
				first = append(first, l.targetSteps(boq, &in, false)...)
				f.Notes = append(f.Notes, l.cacheNote(q))
			}
			if _, dq, ok := fixAttr(c, pcf.CmdChangeQMgr, "DEADQ"); ok {
				first = append(first, l.targetSteps(dq, nil, true)...)
			}
		}
		var cmds []string
		for _, s := range first {
			if slices.Contains(f.Fix, s.cmd) || slices.Contains(cmds, s.cmd) {
				continue
			}
			cmds = append(cmds, s.cmd)
			f.After = append(f.After, s.after)
		}
		f.Fix = append(cmds, f.Fix...)
		f.Prereq = len(cmds)
	}
}

// targetSteps are the commands that make queue name able to take the poison
// of input (a BOQ) or the dead letters of the queue manager (dead), each
// with the finding it resolves. A missing queue needs none here: the fix
// itself defines it.
func (l *linter) targetSteps(name string, input *mqwatch.QueueInfo, dead bool) []step {
	q, ok := l.inv.Queue(name)
	if !ok {
		return nil
	}
	base := q
	if q.Type == mqwatch.QAlias {
		if base, ok = l.inv.Queue(q.Target); !ok {
			return nil
		}
	}
	if base.Type != mqwatch.QLocal {
		return nil
	}
	rule := "R8b"
	if dead {
		rule = "R8a"
	}
	var out []step
	if q.InhibitPut || base.InhibitPut {
		out = append(out, step{fmt.Sprintf("ALTER %s(%s) PUT(ENABLED)", qlType(q), pcf.MQSCName(name)), fmt.Sprintf("%s %s: PUT(DISABLED)", rule, name)})
	}
	switch c, depth := l.capacity(base); c {
	case 2:
		out = append(out, step{l.roomFix(base), fmt.Sprintf("%s %s: full, %d of MAXDEPTH %d", rule, base.Name, depth, base.MaxDepth)})
	case 1:
		out = append(out, step{l.roomFix(base), fmt.Sprintf("%s %s: near MAXDEPTH, %d of %d", rule, base.Name, depth, base.MaxDepth)})
	}
	var largest int32
	var from string
	if dead {
		largest, from = l.largestMsgLen(base.Name)
	} else if input != nil && input.Name != "" {
		largest, from = input.MaxMsgLen, input.Name
	}
	if largest > base.MaxMsgLen {
		hdr := int64(rfh2FixedLen)
		if dead {
			hdr = dlhLen
		}
		for _, c := range l.maxMsgLFix(base.Name, min(int64(largest)+hdr, maxMAXMSGL)) {
			out = append(out, step{c, fmt.Sprintf("%s %s: MAXMSGL %d, smaller than %s's %d", rule, base.Name, base.MaxMsgLen, from, largest)})
		}
	}
	return out
}

// cacheNote says what a JMS consumer needs before a BOTHRESH or BOQNAME
// change reaches it (R1b).
func (l *linter) cacheNote(queue string) string {
	n := l.status[queue].OpenInput
	if n == 0 {
		return fmt.Sprintf("R1b JMS consumers read BOTHRESH and BOQNAME at their first backed-out message and keep them until they reconnect; %s has no consumer open now, so the next one reads the new values", queue)
	}
	return fmt.Sprintf("R1b JMS consumers read BOTHRESH and BOQNAME at their first backed-out message and keep them until they reconnect: restart the %d consumer(s) of %s (or recycle their connection pool or MDB activation) after the change. A plain MQI consumer ignores both (R1f)", n, queue)
}

// converge sizes the DEADQ for the BOQs as they will be after the same fix:
// a BOQ raised to hold its input's messages plus the MQRFH2 can hand the
// DEADQ a message that much longer, plus the MQDLH; and the queue manager's
// MAXMSGL must let the longest through. Without this, applying the group
// would leave a new, smaller finding behind. It edits fix in place and
// returns the queue manager's MAXMSGL to set (0: none).
func (l *linter) converge(fix []string, qmgrMax int64) int64 {
	deadQ := strings.TrimSpace(l.in.QMgr.DeadQ)
	var boqMax int64
	dead := -1
	for i, c := range fix {
		q, v, ok := fixAttr(c, pcf.CmdChangeQ, "MAXMSGL")
		if !ok || !strings.HasPrefix(c, "ALTER QLOCAL") {
			continue
		}
		n, _ := strconv.ParseInt(v, 10, 64)
		if q == deadQ {
			dead = i
			continue
		}
		boqMax = max(boqMax, n)
	}
	top := boqMax
	if dead >= 0 {
		_, v, _ := fixAttr(fix[dead], pcf.CmdChangeQ, "MAXMSGL")
		n, _ := strconv.ParseInt(v, 10, 64)
		n = max(n, min(boqMax+dlhLen, maxMAXMSGL))
		fix[dead] = fmt.Sprintf("ALTER QLOCAL(%s) MAXMSGL(%d)", pcf.MQSCName(deadQ), n)
		top = max(top, n)
	}
	if qm := int64(l.in.QMgr.MaxMsgLen); qm > 0 && qm < top {
		qmgrMax = max(qmgrMax, top)
	}
	return qmgrMax
}
