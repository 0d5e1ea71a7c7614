package pcf

import (
	"encoding/binary"
	"fmt"
	"strings"
	"time"

	"github.com/poisonwatch/poisonwatch/mqwatch"
)

// The server side of PCF: what a command server needs to read the inquiries
// this package sends and to answer them in IBM's layout. The embedded queue
// manager's command server is built on it, so the client above is tested
// against answers written field by field the way IBM documents them.

// Commands a command server answers.
const (
	CmdInquireQ          = cmdInquireQ
	CmdInquireQStatus    = cmdInquireQStatus
	CmdInquireQMgr       = cmdInquireQMgr
	CmdInquireConnection = cmdInquireConnection
)

// Reasons a command server answers with.
const (
	ReasonCommandFailed  = rccfCommandFailed
	ReasonNoneFound      = rccfNoneFound
	ReasonUnknownObject  = rcUnknownObjectNme
	ReasonCFHTypeError   = 3001 // MQRCCF_CFH_TYPE_ERROR
	ReasonCommandUnknown = 3007 // MQRCCF_CFH_COMMAND_ERROR
)

// Command is a PCF command as a command server reads it.
type Command struct {
	Code    int32
	Name    string // MQCA_Q_NAME: a queue name or generic pattern
	Handles bool   // INQUIRE_Q_STATUS with StatusType MQIACF_Q_HANDLE
	Control int32
	Params  []Param // every parameter, for commands that need more than the above
}

// ParseCommand reads a command message written in byte order bo.
func ParseCommand(data []byte, bo binary.ByteOrder) (Command, error) {
	m, err := Decode(data, bo)
	if err != nil {
		return Command{}, err
	}
	if m.Header.Type != cftCommand && m.Header.Type != cftCommandXR {
		return Command{}, fmt.Errorf("PCF message type %d is not a command", m.Header.Type)
	}
	c := Command{Code: m.Header.Command, Control: m.Header.Control, Params: m.Params}
	c.Name, _ = m.strAttr(caQName)
	if st, ok := m.intAttr(iacfQStatusType); ok && st == iacfQHandle {
		c.Handles = true
	}
	return c, nil
}

// Answer is what a command server found for one command: an item per
// object, and the objects it could not report on.
type Answer struct {
	Items    [][]Param
	Failures []ObjectFailure
	// Reason fails the whole command (2085 for an unknown specific name,
	// 2035 ...); no item is sent then.
	Reason int32
}

// ObjectFailure is one object the command server could not report on.
type ObjectFailure struct {
	Object string
	Reason int32
}

// EncodeAnswer writes the reply messages of a command in byte order bo, as
// the command server on Multiplatforms sends them: one MQCFT_RESPONSE per
// item, an error response naming each failed object, and when anything
// failed a closing MQRCCF_COMMAND_FAILED; the last message has MQCFC_LAST.
// A command that found nothing is answered with MQRCCF_NONE_FOUND.
func EncodeAnswer(bo binary.ByteOrder, command int32, a Answer) ([][]byte, error) {
	type msg struct {
		cc, rc int32
		params []Param
	}
	var ms []msg
	if a.Reason != 0 {
		ms = append(ms, msg{ccFailed, a.Reason, nil})
	} else {
		for _, it := range a.Items {
			ms = append(ms, msg{0, 0, it})
		}
		for _, f := range a.Failures {
			ms = append(ms, msg{ccFailed, f.Reason, []Param{Str(caQName, f.Object)}})
		}
	}
	if a.Reason != 0 || len(a.Failures) > 0 {
		ms = append(ms, msg{ccFailed, rccfCommandFailed, nil})
	} else if len(ms) == 0 {
		ms = append(ms, msg{ccFailed, rccfNoneFound, nil})
	}
	out := make([][]byte, 0, len(ms))
	for i, m := range ms {
		h := Header{Type: cftResponse, Command: command, MsgSeqNumber: int32(i + 1),
			Control: cfcNotLast, CompCode: m.cc, Reason: m.rc}
		if i == len(ms)-1 {
			h.Control = cfcLast
		}
		b, err := Encode(bo, h, m.params)
		if err != nil {
			return nil, err
		}
		out = append(out, b)
	}
	return out, nil
}

// QueueParams answers DISPLAY QUEUE for q with the attributes its type has.
func QueueParams(q mqwatch.QueueInfo) []Param {
	ps := []Param{Str(caQName, q.Name), Int(iaQType, queueTypeValue(q.Type)), Str(caQDesc, q.Description),
		Int(iaInhibitPut, boolValue(q.InhibitPut)), Int(iaDefPersistence, boolValue(q.DefPersistent)),
		Int(iaDefPriority, q.DefPriority)}
	switch q.Type {
	case mqwatch.QLocal, mqwatch.QModel:
		ps = append(ps, Int(iaInhibitGet, boolValue(q.InhibitGet)), Int(iaMaxQDepth, q.MaxDepth),
			Int(iaMaxMsgLength, q.MaxMsgLen), Int(iaBackoutThreshold, q.BackoutThresh),
			Str(caBackoutReqQName, q.BackoutQName), Int(iaHardenGetBackout, boolValue(q.HardenBackout)),
			Int(iaUsage, int32(q.Usage)), Int(iaMonitoringQ, monitoringValue(q.Monitoring)),
			Int(iaDefinitionType, defTypeValue(q.DefType)), Int(iaShareability, boolValue(q.Shareable)),
			Int(iaTriggerControl, boolValue(q.Trigger)), Str(caInitiationQName, q.InitQ), Str(caProcessName, q.Process),
			Int(iaTriggerType, triggerTypeValue(q.TriggerType)))
	case mqwatch.QAlias:
		ps = append(ps, Int(iaInhibitGet, boolValue(q.InhibitGet)), Str(caBaseObjectName, q.Target))
	case mqwatch.QRemote:
		ps = append(ps, Str(caRemoteQName, q.RemoteName), Str(caRemoteQMgrName, q.RemoteQMgr), Str(caXmitQName, q.XmitQ))
	}
	return ps
}

// QueueStatusParams answers DISPLAY QSTATUS TYPE(QUEUE) for s, with the
// monitoring figures as IBM reports them when monitoring is off (MSGAGE -1,
// blank dates and times). Times are written in loc.
func QueueStatusParams(s mqwatch.QueueStatus, monq mqwatch.Monitoring, loc *time.Location) []Param {
	age := int32(monNotAvailable)
	var lpd, lpt, lgd, lgt string
	if s.Monitored {
		age = int32(s.OldestAge / time.Second)
		lpd, lpt = statusDateTime(s.LastPut, loc)
		lgd, lgt = statusDateTime(s.LastGet, loc)
	}
	return []Param{Str(caQName, s.Name), Int(iaCurrentQDepth, s.Depth), Int(iaOpenInputCount, s.OpenInput),
		Int(iaOpenOutputCount, s.OpenOutput), Int(iacfUncommitted, s.Uncommitted), Int(iacfOldestMsgAge, age),
		Str(cacfLastPutDate, lpd), Str(cacfLastPutTime, lpt), Str(cacfLastGetDate, lgd), Str(cacfLastGetTime, lgt),
		Int(iaMonitoringQ, monitoringValue(monq))}
}

// HandleParams answers DISPLAY QSTATUS TYPE(HANDLE) for h, opened by
// connection c (whose fields tie the handle to DISPLAY CONN).
func HandleParams(h mqwatch.Handle, c Connection) []Param {
	var oo int32
	for _, b := range []struct {
		on  bool
		bit int32
	}{{h.Input, ooInputShared}, {h.Output, ooOutput}, {h.Browse, ooBrowse}, {h.Inquire, ooInquire}} {
		if b.on {
			oo |= b.bit
		}
	}
	return []Param{Str(caQName, h.Queue), Str(cacfApplTag, h.ApplTag), Int(iaApplType, h.ApplType),
		Str(cacfUserID, h.User), Str(cachChannelName, h.Channel), Str(cachConnName, h.ConnName),
		Int(iacfProcessID, int32(h.PID)), Int(iacfThreadID, int32(c.TID)), Int(iacfOpenOptions, oo),
		ByteStr(bacfQMgrUOWID, uowID(c.UOWID))}
}

// ConnectionParams answers DISPLAY CONN TYPE(CONN) for c. UOW start date and
// time are blank when no unit of work is active or its start is unknown.
func ConnectionParams(c Connection, id []byte, loc *time.Location) []Param {
	d, t := "", ""
	if !allZero(c.UOWID) {
		d, t = statusDateTime(c.UOWStart, loc)
	}
	return []Param{ByteStr(bacfConnectionID, id), Str(cacfApplTag, c.ApplTag), Str(cacfUserID, c.User),
		Str(cachChannelName, c.Channel), Str(cachConnName, c.ConnName), Int(iacfProcessID, int32(c.PID)),
		Int(iacfThreadID, int32(c.TID)), ByteStr(bacfQMgrUOWID, uowID(c.UOWID)),
		Str(cacfUOWStartDate, d), Str(cacfUOWStartTime, t)}
}

// QMgrParams answers DISPLAY QMGR.
func QMgrParams(q mqwatch.QMgrInfo) []Param {
	return []Param{Str(caQMgrName, q.Name), Str(caDeadLetterQName, q.DeadQ), Int(iaMaxMsgLength, q.MaxMsgLen),
		Int(iaCommandLevel, q.CommandLevel), Int(iaPlatform, platformValue(q.Platform))}
}

// uowID is an 8-byte QMURID: all zeros when none.
func uowID(b []byte) []byte {
	out := make([]byte, 8)
	copy(out, b)
	return out
}

// statusDateTime writes t as "yyyy-mm-dd" and "hh.mm.ss" in loc; blank when zero.
func statusDateTime(t time.Time, loc *time.Location) (string, string) {
	if t.IsZero() {
		return "", ""
	}
	if loc == nil {
		loc = time.Local
	}
	t = t.In(loc)
	return t.Format("2006-01-02"), t.Format("15.04.05")
}

// MatchGeneric reports whether name matches an MQSC generic pattern.
func MatchGeneric(pattern, name string) bool {
	if isGeneric(pattern) {
		return strings.HasPrefix(name, pattern[:len(pattern)-1])
	}
	return pattern == name
}
