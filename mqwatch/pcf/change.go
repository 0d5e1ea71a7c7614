package pcf

import (
	"context"
	"encoding/binary"
	"fmt"
	"strconv"

	"github.com/poisonwatch/poisonwatch/mqwatch"
)

// The commands that apply an alert's fix: MQCMD_CHANGE_Q, MQCMD_COPY_Q
// (DEFINE ... LIKE), MQCMD_CREATE_Q and MQCMD_CHANGE_Q_MGR, with only the
// attributes the poison rules cover. IBM: "Change, Copy, and Create Queue"
// and "Change Queue Manager" in the PCF reference.
const (
	CmdChangeQMgr = 1
	CmdChangeQ    = 8
	CmdCopyQ      = 10
	CmdCreateQ    = 11

	cacfFromQName = 3001 // MQCACF_FROM_Q_NAME
	cacfToQName   = 3002 // MQCACF_TO_Q_NAME

	ReasonObjectAlreadyExists = 4001 // MQRCCF_OBJECT_ALREADY_EXISTS
	ReasonObjectWrongType     = 4002 // MQRCCF_OBJECT_WRONG_TYPE
	ReasonLikeWrongType       = 4003 // MQRCCF_LIKE_OBJECT_WRONG_TYPE
	ReasonParmIDError         = 3014 // MQRCCF_CFIN_PARM_ID_ERROR
)

// Attr is one attribute a change sets, by its MQSC keyword and value as
// MQSC writes it: MAXDEPTH 5000, BOQNAME ORDERS.BO, PUT DISABLED,
// HARDENBO YES.
type Attr struct{ Keyword, Value string }

// attrParam is how each keyword travels in PCF, and which objects have it.
var attrParam = map[string]struct {
	id    int32
	str   bool
	onOff bool // ENABLED/DISABLED (inhibit) or YES/NO
	qmgr  bool // an attribute of the queue manager, not of a queue
	enum  []string
}{
	"BOTHRESH": {id: iaBackoutThreshold},
	"BOQNAME":  {id: caBackoutReqQName, str: true},
	"HARDENBO": {id: iaHardenGetBackout, onOff: true},
	"MAXDEPTH": {id: iaMaxQDepth},
	"MAXMSGL":  {id: iaMaxMsgLength},
	"GET":      {id: iaInhibitGet, onOff: true},
	"PUT":      {id: iaInhibitPut, onOff: true},
	"DEADQ":    {id: caDeadLetterQName, str: true, qmgr: true},
	// Triggering: a parking queue is defined NOTRIGGER (R10h); TRIGGER
	// travels as YES/NO, as HARDENBO does.
	"TRIGGER":  {id: iaTriggerControl, onOff: true},
	"INITQ":    {id: caInitiationQName, str: true},
	"PROCESS":  {id: caProcessName, str: true},
	"TRIGTYPE": {id: iaTriggerType, enum: triggerTypes},
}

// Change is one command of a fix.
type Change struct {
	Command int32             // CmdChangeQ, CmdCopyQ, CmdCreateQ or CmdChangeQMgr
	Queue   string            // the queue changed or created; "" for the queue manager
	Type    mqwatch.QueueType // the queue's type (QType is required)
	Like    string            // CmdCopyQ: the queue copied (FromQName)
	Attrs   []Attr
}

// Params are the command's PCF parameters: the queue's name (ToQName and
// FromQName for a copy) and type first, then each attribute.
func (c Change) Params() ([]Param, error) {
	var ps []Param
	switch c.Command {
	case CmdChangeQ, CmdCreateQ:
		ps = append(ps, Str(caQName, c.Queue), Int(iaQType, queueTypeValue(c.Type)))
	case CmdCopyQ:
		ps = append(ps, Str(cacfFromQName, c.Like), Str(cacfToQName, c.Queue), Int(iaQType, queueTypeValue(c.Type)))
	case CmdChangeQMgr:
	default:
		return nil, fmt.Errorf("PCF command %d is not a change", c.Command)
	}
	for _, a := range c.Attrs {
		p, err := attrPCF(a, c.Command == CmdChangeQMgr)
		if err != nil {
			return nil, err
		}
		ps = append(ps, p)
	}
	return ps, nil
}

func attrPCF(a Attr, qmgr bool) (Param, error) {
	def, ok := attrParam[a.Keyword]
	if !ok || (def.qmgr != qmgr && a.Keyword != "MAXMSGL") {
		return Param{}, fmt.Errorf("%s is not an attribute a fix may change here", a.Keyword)
	}
	switch {
	case def.str:
		return Str(def.id, a.Value), nil
	case def.enum != nil:
		if v := triggerTypeValue(a.Value); v >= 0 && a.Value != "" {
			return Int(def.id, v), nil
		}
		return Param{}, fmt.Errorf("%s(%s): want one of %v", a.Keyword, a.Value, def.enum)
	case def.onOff:
		switch a.Value {
		case "DISABLED", "YES":
			return Int(def.id, 1), nil
		case "ENABLED", "NO":
			return Int(def.id, 0), nil
		}
		return Param{}, fmt.Errorf("%s(%s): want ENABLED/DISABLED or YES/NO", a.Keyword, a.Value)
	}
	n, err := strconv.ParseInt(a.Value, 10, 32)
	if err != nil || n < 0 {
		return Param{}, fmt.Errorf("%s(%s): want a number", a.Keyword, a.Value)
	}
	return Int(def.id, int32(n)), nil
}

// ParseChange reads a change command written in byte order bo, for a
// command server. A parameter it does not know fails the command with
// MQRCCF_CFIN_PARM_ID_ERROR, never silently.
func ParseChange(data []byte, bo binary.ByteOrder) (Change, int32, error) {
	m, err := Decode(data, bo)
	if err != nil {
		return Change{}, ReasonCFHTypeError, err
	}
	c := Change{Command: m.Header.Command}
	qmgr := c.Command == CmdChangeQMgr
	for _, p := range m.Params {
		switch p.Param {
		case caQName, cacfToQName:
			c.Queue, _ = m.strAttr(p.Param)
			continue
		case cacfFromQName:
			c.Like, _ = m.strAttr(p.Param)
			continue
		case iaQType:
			c.Type = queueTypeOf(int32(p.Int))
			continue
		}
		a, ok := attrOf(p, qmgr)
		if !ok {
			return c, ReasonParmIDError, fmt.Errorf("parameter %d is not one a fix changes", p.Param)
		}
		c.Attrs = append(c.Attrs, a)
	}
	return c, 0, nil
}

func attrOf(p Param, qmgr bool) (Attr, bool) {
	for kw, def := range attrParam {
		if def.id != p.Param || (def.qmgr != qmgr && kw != "MAXMSGL") {
			continue
		}
		switch {
		case def.str:
			return Attr{kw, trimName(p.Str)}, true
		case def.enum != nil:
			return Attr{kw, TriggerTypeName(int32(p.Int))}, true
		case def.onOff && (kw == "HARDENBO" || kw == "TRIGGER"):
			return Attr{kw, map[bool]string{true: "YES", false: "NO"}[p.Int != 0]}, true
		case def.onOff:
			return Attr{kw, map[bool]string{true: "DISABLED", false: "ENABLED"}[p.Int != 0]}, true
		}
		return Attr{kw, strconv.FormatInt(p.Int, 10)}, true
	}
	return Attr{}, false
}

func trimName(s string) string {
	for len(s) > 0 && (s[len(s)-1] == ' ' || s[len(s)-1] == 0) {
		s = s[:len(s)-1]
	}
	return s
}

func queueTypeOf(v int32) mqwatch.QueueType {
	for _, t := range []mqwatch.QueueType{mqwatch.QLocal, mqwatch.QModel, mqwatch.QAlias, mqwatch.QRemote} {
		if queueTypeValue(t) == v {
			return t
		}
	}
	return mqwatch.QueueType(-1)
}

// ReasonName names the PCF reasons a change can fail with that are not MQRC
// codes; "" for any other value.
func ReasonName(rc int32) string {
	return map[int32]string{
		ReasonObjectAlreadyExists: "MQRCCF_OBJECT_ALREADY_EXISTS (4001): the queue already exists",
		ReasonObjectWrongType:     "MQRCCF_OBJECT_WRONG_TYPE (4002): a queue of that name has another type",
		ReasonLikeWrongType:       "MQRCCF_LIKE_OBJECT_WRONG_TYPE (4003): the queue copied has another type",
		ReasonParmIDError:         "MQRCCF_CFIN_PARM_ID_ERROR (3014): a parameter the command does not take",
		ReasonCommandFailed:       "MQRCCF_COMMAND_FAILED (3008): the command failed",
		ReasonCommandUnknown:      "MQRCCF_CFH_COMMAND_ERROR (3007): the command server does not know this command",
	}[rc]
}

// Apply sends a change and waits for its answer: nil when the command
// server applied it, else an error carrying its reason.
func (c *Client) Apply(ctx context.Context, ch Change) error {
	ps, err := ch.Params()
	if err != nil {
		return err
	}
	obj := ch.Queue
	if obj == "" {
		obj = "QMGR"
	}
	_, _, err = c.Run(ctx, CommandName(ch.Command), obj, ch.Command, ps, nil)
	return err
}

// CommandName is IBM's name of a change command: MQCMD_CHANGE_Q, ...
func CommandName(cmd int32) string {
	return map[int32]string{CmdChangeQ: "MQCMD_CHANGE_Q", CmdCopyQ: "MQCMD_COPY_Q", CmdCreateQ: "MQCMD_CREATE_Q", CmdChangeQMgr: "MQCMD_CHANGE_Q_MGR"}[cmd]
}

// EncodeChangeAnswer writes the one reply a command server sends to a
// change: an empty MQCFT_RESPONSE with MQCFC_LAST, failed with reason when
// rc is not 0 (MQRC_NOT_AUTHORIZED, MQRC_UNKNOWN_OBJECT_NAME, MQRCCF_...).
func EncodeChangeAnswer(bo binary.ByteOrder, command, rc int32) ([]byte, error) {
	h := Header{Type: cftResponse, Command: command, MsgSeqNumber: 1, Control: cfcLast}
	if rc != 0 {
		h.CompCode, h.Reason = ccFailed, rc
	}
	return Encode(bo, h, nil)
}
