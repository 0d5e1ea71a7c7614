package embedded

import (
	"maps"
	"slices"
	"strings"

	"github.com/poisonwatch/poisonwatch/codec/mqfmt"
	"github.com/poisonwatch/poisonwatch/mqwatch"
	"github.com/poisonwatch/poisonwatch/mqwatch/pcf"
)

// answer runs one inquiry for principal user under the queue manager's lock.
func (s *CommandServer) answer(cmd pcf.Command, user string) pcf.Answer {
	qm := s.qm
	qm.mu.Lock()
	defer qm.mu.Unlock()
	switch cmd.Code {
	case pcf.CmdInquireQMgr:
		if !qm.auth.check(user, otQMgr, qm.name, authDsp) {
			return pcf.Answer{Reason: int32(mqfmt.RCNotAuthorized)}
		}
		info := mqwatch.QMgrInfo{Name: qm.name, DeadQ: qm.attrs.deadQ, MaxMsgLen: qm.attrs.maxMsgLen,
			CommandLevel: commandLevel, Platform: platform}
		return pcf.Answer{Items: [][]pcf.Param{pcf.QMgrParams(info)}}
	case pcf.CmdInquireConnection:
		if !qm.auth.check(user, otQMgr, qm.name, authDsp) {
			return pcf.Answer{Reason: int32(mqfmt.RCNotAuthorized)}
		}
		return pcf.Answer{Items: qm.connectionItems()}
	case pcf.CmdInquireQ, pcf.CmdInquireQStatus:
		return s.queueAnswer(cmd, user)
	case pcf.CmdPingQMgr, pcf.CmdInquireEntityAuth:
		return s.adminAnswer(cmd, user)
	}
	return pcf.Answer{Reason: pcf.ReasonCommandUnknown}
}

// queueAnswer answers INQUIRE_Q and INQUIRE_Q_STATUS, with the injected
// per-object failures among the items.
func (s *CommandServer) queueAnswer(cmd pcf.Command, user string) pcf.Answer {
	qm := s.qm
	status := cmd.Code == pcf.CmdInquireQStatus
	qs, rc := qm.visibleQueues(user, cmd.Name, status)
	if rc != 0 {
		return pcf.Answer{Reason: int32(rc)}
	}
	fail := s.failures(cmd.Name)
	var a pcf.Answer
	for _, q := range qs {
		if rc, ok := fail[q.name]; ok {
			a.Failures = append(a.Failures, pcf.ObjectFailure{Object: q.name, Reason: int32(rc)})
			delete(fail, q.name)
			continue
		}
		switch {
		case !status:
			a.Items = append(a.Items, pcf.QueueParams(q.info()))
		case cmd.Handles:
			a.Items = append(a.Items, qm.handleItems(q)...)
		default:
			a.Items = append(a.Items, pcf.QueueStatusParams(qm.status(q), q.attrs.Monitoring, nil))
		}
	}
	// A failing queue that is not (or no longer) there was listed and then
	// vanished while the command ran.
	for _, name := range slices.Sorted(maps.Keys(fail)) {
		a.Failures = append(a.Failures, pcf.ObjectFailure{Object: name, Reason: int32(fail[name])})
	}
	return a
}

// failures returns the injected failures of queues that pattern covers.
func (s *CommandServer) failures(pattern string) map[string]mqfmt.Reason {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := map[string]mqfmt.Reason{}
	for name, rc := range s.fail {
		if pcf.MatchGeneric(pattern, name) {
			out[name] = rc
		}
	}
	return out
}

// handleItems answers handle status for q, each handle tied to its
// connection by the fields DISPLAY CONN shares with it.
func (qm *QMgr) handleItems(q *queue) [][]pcf.Param {
	var out [][]pcf.Param
	for _, h := range handleStatus(q) {
		for c := range q.handles {
			if c.c.idHex == h.ConnID {
				out = append(out, pcf.HandleParams(h, connectionOf(c.c)))
				break
			}
		}
	}
	return out
}

// connectionItems answers DISPLAY CONN(*) TYPE(CONN), in connection id order.
func (qm *QMgr) connectionItems() [][]pcf.Param {
	cs := make([]*conn, 0, len(qm.conns))
	for c := range qm.conns {
		cs = append(cs, c)
	}
	slices.SortFunc(cs, func(a, b *conn) int { return strings.Compare(a.idHex, b.idHex) })
	out := make([][]pcf.Param, 0, len(cs))
	for _, c := range cs {
		out = append(out, pcf.ConnectionParams(connectionOf(c), connIDBytes(c.idHex), nil))
	}
	return out
}

// connectionOf describes c as DISPLAY CONN does. Every embedded connection
// runs on one thread of its own process; its unit-of-work id is derived from
// its connection id while a unit of work is active. The embedded queue
// manager does not record when a unit of work started: UOWStart stays
// unknown, as Handles reports it.
func connectionOf(c *conn) pcf.Connection {
	user := c.user
	if user == "" {
		user = c.identity
	}
	pc := pcf.Connection{ID: c.idHex, ApplTag: c.applName, User: user, PID: c.pid, TID: 1}
	if c.uow.active() {
		id := connIDBytes(c.idHex)
		pc.UOWID = append([]byte(nil), id[len(id)-8:]...)
		pc.UOWID[0] |= 0x80 // never all zeros
	}
	return pc
}
