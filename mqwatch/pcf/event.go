package pcf

import (
	"encoding/hex"
	"fmt"
	"strconv"
	"strings"

	"github.com/poisonwatch/poisonwatch/codec/mqfmt"
)

// cftEvent is MQCFT_EVENT, the header type of an instrumentation event.
const cftEvent = 7

// Event is one instrumentation event message (SYSTEM.ADMIN.QMGR.EVENT,
// PERFM.EVENT, CHANNEL.EVENT ...): its category, the event (the reason)
// and its parameters, in the order the queue manager wrote them.
type Event struct {
	Command   int32  // MQCMD_Q_MGR_EVENT, MQCMD_PERFM_EVENT, ...
	Category  string // "MQCMD_PERFM_EVENT"
	Reason    mqfmt.Reason
	Qualifier int32 // MQIACF_REASON_QUALIFIER, 0 when absent
	Name      string
	QMgr      string
	Queue     string // MQCA_Q_NAME or MQCA_BASE_OBJECT_NAME: the queue the event is about
	User      string
	Appl      string
	Params    []mqfmt.Field
}

// DecodeEvent reads an event message's data (MQFMT_EVENT) written in
// encoding enc, its strings in ccsid unless a string says otherwise. Data
// that is no event is an error; nothing is trusted that was not checked.
func DecodeEvent(data []byte, enc mqfmt.Encoding, ccsid int32) (Event, error) {
	bo, err := enc.ByteOrder()
	if err != nil {
		return Event{}, err
	}
	m, err := Decode(data, bo)
	if err != nil {
		return Event{}, err
	}
	if m.Header.Type != cftEvent {
		return Event{}, fmt.Errorf("PCF message type %d is not an event (MQCFT_EVENT)", m.Header.Type)
	}
	cat, ok := mqfmt.EventCommandName(m.Header.Command)
	if !ok {
		cat = "MQCMD_" + strconv.Itoa(int(m.Header.Command))
	}
	if err := toUTF8(m.Params, ccsid); err != nil {
		return Event{}, fmt.Errorf("event strings in CCSID %d: %w", ccsid, err)
	}
	e := Event{Command: m.Header.Command, Category: cat, Reason: mqfmt.Reason(m.Header.Reason)}
	if q, ok := m.intAttr(iacfReasonQualifier); ok {
		e.Qualifier = int32(q)
	}
	e.Name = mqfmt.EventName(e.Reason, e.Qualifier)
	e.QMgr, e.User, e.Appl = m.str(caQMgrName), m.str(cacfUserID), m.str(cacfApplName)
	if e.Queue = m.str(caQName); e.Queue == "" {
		e.Queue = m.str(caBaseObjectName)
	}
	for i := range m.Params {
		e.Params = append(e.Params, eventField(&m.Params[i]))
	}
	return e, nil
}

// Fields describes the event for decode and the message screen.
func (e *Event) Fields() []mqfmt.Field {
	out := []mqfmt.Field{
		{Name: "Event", Value: e.Name, Meaning: e.Reason.Describe()},
		{Name: "Category", Value: e.Category},
	}
	return append(out, e.Params...)
}

// Summary is one line: "Queue Full: APP.IN (user app1, appl orders)".
func (e *Event) Summary() string {
	var who []string
	if e.User != "" {
		who = append(who, "user "+e.User)
	}
	if e.Appl != "" {
		who = append(who, "appl "+e.Appl)
	}
	s := e.Name
	if e.Queue != "" {
		s += ": " + e.Queue
	}
	if len(who) > 0 {
		s += " (" + strings.Join(who, ", ") + ")"
	}
	return mqfmt.Sanitize(s)
}

func eventField(p *Param) mqfmt.Field {
	f := mqfmt.Field{Name: eventParamName(p.Param)}
	switch p.Type {
	case cftInteger, cftInteger64:
		f.Value = strconv.FormatInt(p.Int, 10)
		f.Meaning = eventIntMeaning(p.Param, p.Int)
	case cftString:
		f.Value = "'" + mqfmt.Sanitize(mqfmt.Trim(p.Str)) + "'"
	case cftIntegerList, cftInteger64List:
		vs := make([]string, len(p.Ints))
		for i, v := range p.Ints {
			vs[i] = strconv.FormatInt(v, 10)
		}
		f.Value = strings.Join(vs, ", ")
	case cftStringList:
		vs := make([]string, len(p.Strs))
		for i, v := range p.Strs {
			vs[i] = "'" + mqfmt.Sanitize(mqfmt.Trim(v)) + "'"
		}
		f.Value = strings.Join(vs, ", ")
	case cftByteString:
		f.Value = strings.ToUpper(hex.EncodeToString(p.Bytes))
	case cftGroup:
		f.Value = fmt.Sprintf("group of %d parameters", len(p.Group))
	}
	return f
}

func eventIntMeaning(param int32, v int64) string {
	switch param {
	case iacfReasonQualifier:
		return mqfmt.ReasonQualifierName(int32(v))
	case iaApplType:
		return mqfmt.ApplTypeName(int32(v))
	case iacfOpenOptions:
		return fmt.Sprintf("MQOO options 0x%X", v)
	case iacfObjectType:
		if n, ok := objectTypeNames[int32(v)]; ok {
			return n
		}
	case iaCurrentQDepth, iaHighQDepth, iaMsgEnqCount, iaMsgDeqCount:
		return "messages"
	case iaTimeSinceReset:
		return "seconds"
	}
	return ""
}

var objectTypeNames = map[int32]string{1: "MQOT_Q", 2: "MQOT_NAMELIST", 3: "MQOT_PROCESS", 5: "MQOT_Q_MGR", 6: "MQOT_CHANNEL", 8: "MQOT_TOPIC"}

// Parameters that events carry.
const (
	iacfReasonQualifier = 1020
	cacfApplName        = 3024
	iaHighQDepth        = 36
	iaMsgEnqCount       = 37
	iaMsgDeqCount       = 38
	iaTimeSinceReset    = 35
)

var eventParamNames = map[int32]string{
	caQMgrName: "QMgrName", caQName: "QName", caBaseObjectName: "BaseObjectName", caXmitQName: "XmitQName",
	iacfReasonQualifier: "ReasonQualifier", cacfUserID: "UserIdentifier", iaApplType: "ApplType",
	cacfApplName: "ApplName", iacfOpenOptions: "Options", 1108: "ConnectOptions", iacfObjectType: "ObjectType",
	iaHighQDepth: "HighQDepth", iaMsgEnqCount: "MsgEnqCount", iaMsgDeqCount: "MsgDeqCount",
	iaTimeSinceReset: "TimeSinceReset", iaCurrentQDepth: "CurrentQDepth", cachChannelName: "ChannelName",
	cachConnName: "ConnectionName", 3505: "XmitQName", 3206: "CSPUserIdentifier", 1070: "AuxErrorDataInt1",
	1071: "AuxErrorDataInt2", 3026: "AuxErrorDataStr1", 3027: "AuxErrorDataStr2", 3028: "AuxErrorDataStr3",
	1013: "ErrorIdentifier", 1511: "ChannelType", 3544: "SSLCipherSpec", 3546: "SSLHandshakeStage",
	3547: "SSLShortPeerName", 3533: "Format", 1533: "SSLReturnCode", 3049: "EventApplIdentity",
	3050: "EventApplName", 1010: "EventApplType", 1011: "EventOrigin", 3047: "EventQMgr", 3045: "EventUserId",
	1021: "Command", bacfConnectionID: "ConnectionId", 2012: "ProcessName",
}

func eventParamName(id int32) string {
	if n, ok := eventParamNames[id]; ok {
		return n
	}
	return "Parameter " + strconv.Itoa(int(id))
}

// EncodeEvent writes an event message as a queue manager does (for tests
// and the embedded queue manager): MQCFT_EVENT, MQCC_WARNING and the event
// as the reason.
func EncodeEvent(enc mqfmt.Encoding, command int32, reason mqfmt.Reason, params []Param) ([]byte, error) {
	bo, err := enc.ByteOrder()
	if err != nil {
		return nil, err
	}
	return Encode(bo, Header{Type: cftEvent, Command: command, MsgSeqNumber: 1, Control: cfcLast,
		CompCode: ccWarning, Reason: int32(reason)}, params)
}

// Event parameters a test or a queue manager writes.
const (
	EventParamQMgrName        = caQMgrName
	EventParamQName           = caQName
	EventParamReasonQualifier = iacfReasonQualifier
	EventParamUserIdentifier  = cacfUserID
	EventParamApplName        = cacfApplName
	EventParamApplType        = iaApplType
	EventParamOpenOptions     = iacfOpenOptions
	EventParamHighQDepth      = iaHighQDepth
)
