package embedded

import (
	"encoding/binary"
	"strings"

	"github.com/poisonwatch/poisonwatch/codec/mqfmt"
	"github.com/poisonwatch/poisonwatch/codec/mqsc"
	"github.com/poisonwatch/poisonwatch/mqwatch"
	"github.com/poisonwatch/poisonwatch/mqwatch/pcf"
)

// isChange reports whether a command is one of the changes the command
// server applies (pcf.Change): a fix's ALTER, DEFINE and DEFINE LIKE.
func isChange(code int32) bool {
	switch code {
	case pcf.CmdChangeQ, pcf.CmdCopyQ, pcf.CmdCreateQ, pcf.CmdChangeQMgr:
		return true
	}
	return false
}

// change applies one change command for principal user and writes its one
// reply. The attributes go through the same code as MQSC, so a change made
// by PCF and one made by runmqsc leave the queue manager in the same state.
func (s *CommandServer) change(data []byte, bo binary.ByteOrder, code int32, user string) ([][]byte, error) {
	c, rc, _ := pcf.ParseChange(data, bo)
	if rc == 0 {
		rc = s.applyChange(c, user)
	}
	b, err := pcf.EncodeChangeAnswer(bo, code, rc)
	return [][]byte{b}, err
}

// applyChange checks authority as IBM's OAM does for these commands (dsp
// on the queue manager, checked in serve for every command; chg on the
// queue or the queue manager; crt on the @class profile for a new queue and
// dsp on the queue it copies: the LIKE queue or SYSTEM.DEFAULT.LOCAL.QUEUE)
// and applies the change.
func (s *CommandServer) applyChange(c pcf.Change, user string) int32 {
	qm := s.qm
	qm.mu.Lock()
	defer qm.mu.Unlock()
	params := mqscParams(c.Attrs)
	if c.Command == pcf.CmdChangeQMgr {
		if !qm.auth.check(user, otQMgr, qm.name, authChg) {
			return int32(mqfmt.RCNotAuthorized)
		}
		return outcome(qm.alterQMgr(&mqsc.Command{Verb: "ALTER", Object: "QMGR", Params: params}))
	}
	obj := mqscObject(c.Type)
	if obj == "" {
		return pcf.ReasonObjectWrongType
	}
	q := qm.queues[c.Queue]
	cmd := &mqsc.Command{Verb: "ALTER", Object: obj, Name: c.Queue, HasName: true, Params: params}
	switch c.Command {
	case pcf.CmdChangeQ:
		switch {
		case q == nil:
			return int32(mqfmt.RCUnknownObjectName)
		case q.typ != c.Type:
			return pcf.ReasonObjectWrongType
		case !qm.auth.check(user, otQueue, c.Queue, authChg):
			return int32(mqfmt.RCNotAuthorized)
		}
	case pcf.CmdCreateQ, pcf.CmdCopyQ:
		if rc := qm.canCreate(c, user, q); rc != 0 {
			return rc
		}
		cmd.Verb = "DEFINE"
		if c.Command == pcf.CmdCopyQ {
			cmd.Params = append([]mqsc.Param{{Key: "LIKE", Values: []string{c.Like}, HasValue: true}}, cmd.Params...)
		}
	}
	rc := outcome(qm.applyQueueCommand(cmd))
	if rc == 0 && cmd.Verb == "DEFINE" {
		qm.auth.grantCreator(user, c.Queue)
	}
	return rc
}

// canCreate checks a CREATE_Q or COPY_Q before it runs.
func (qm *QMgr) canCreate(c pcf.Change, user string, existing *queue) int32 {
	if !qm.auth.check(user, otQueue, "@class", authCrt) {
		return int32(mqfmt.RCNotAuthorized)
	}
	// dsp on the object the new queue takes its attributes from: the LIKE
	// queue, else the SYSTEM.DEFAULT.* queue of its type.
	from := c.Like
	if c.Command != pcf.CmdCopyQ {
		from = pcf.DefaultQueueOf(c.Type)
	}
	if !qm.auth.check(user, otQueue, from, authDsp) {
		return int32(mqfmt.RCNotAuthorized)
	}
	if existing != nil {
		return pcf.ReasonObjectAlreadyExists
	}
	if c.Command != pcf.CmdCopyQ {
		return 0
	}
	like := qm.queues[c.Like]
	switch {
	case like == nil:
		return int32(mqfmt.RCUnknownObjectName)
	case like.typ != c.Type:
		return pcf.ReasonLikeWrongType
	}
	return 0
}

func outcome(r Result) int32 {
	if r.Outcome == Applied {
		return 0
	}
	return pcf.ReasonCommandFailed
}

func mqscObject(t mqwatch.QueueType) string {
	for name, typ := range queueTypes {
		if typ == t {
			return name
		}
	}
	return ""
}

// mqscParams are a change's attributes as the MQSC parser gives them.
func mqscParams(attrs []pcf.Attr) []mqsc.Param {
	var ps []mqsc.Param
	for _, a := range attrs {
		if a.Keyword == "HARDENBO" || a.Keyword == "TRIGGER" {
			key := a.Keyword
			if a.Value == "NO" {
				key = "NO" + a.Keyword
			}
			ps = append(ps, mqsc.Param{Key: key})
			continue
		}
		ps = append(ps, mqsc.Param{Key: a.Keyword, Values: []string{strings.TrimSpace(a.Value)}, HasValue: true})
	}
	return ps
}
