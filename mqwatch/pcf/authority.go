package pcf

import (
	"context"
	"fmt"
	"slices"
	"strings"
)

// The doctor's two administrative commands: MQCMD_PING_Q_MGR, which proves
// the command server answers, and MQCMD_INQUIRE_ENTITY_AUTH (DISPLAY
// ENTAUTH), which says what one principal or group may do with one object,
// its groups' authorities and generic profiles included.

// Commands of the doctor.
const (
	CmdPingQMgr          = cmdPingQMgr
	CmdInquireEntityAuth = cmdInquireEntityAuth
)

const (
	cmdPingQMgr          = 40
	cmdInquireEntityAuth = 88

	cacfEntityName        = 3068
	cacfObjectName        = 3046
	iacfEntityType        = 1118
	iacfObjectType        = 1016
	iacfAuthProfileAttrs  = 1114
	iacfAuthorizationList = 1115
	iacfAll               = 1009

	zaetPrincipal = 1
	zaetGroup     = 2

	otQueue = 1
	otQMgr  = 5
)

// ObjType is the MQOT_* an authority applies to.
type ObjType int32

// Object types the doctor checks.
const (
	ObjQueue ObjType = otQueue
	ObjQMgr  ObjType = otQMgr
)

// Keyword is setmqaut's -t keyword; SetAuthrecType is SET AUTHREC's OBJTYPE.
func (t ObjType) Keyword() string {
	if t == ObjQMgr {
		return "qmgr"
	}
	return "q"
}

// AuthrecType is SET AUTHREC's OBJTYPE.
func (t ObjType) AuthrecType() string {
	if t == ObjQMgr {
		return "QMGR"
	}
	return "QUEUE"
}

// Auth is one MQAUTH_* value.
type Auth int32

// The MQAUTH_* values (cmqcfc.h).
const (
	AuthAltUsr  Auth = 1
	AuthBrowse  Auth = 2
	AuthChg     Auth = 3
	AuthClr     Auth = 4
	AuthConnect Auth = 5
	AuthCrt     Auth = 6
	AuthDlt     Auth = 7
	AuthDsp     Auth = 8
	AuthGet     Auth = 9 // MQAUTH_INPUT
	AuthInq     Auth = 10
	AuthPut     Auth = 11 // MQAUTH_OUTPUT
	AuthPassAll Auth = 12
	AuthPassID  Auth = 13
	AuthSet     Auth = 14
	AuthSetAll  Auth = 15
	AuthSetID   Auth = 16
	AuthCtrl    Auth = 17
	AuthCtrlX   Auth = 18
	AuthPub     Auth = 19
	AuthSub     Auth = 20
	AuthResume  Auth = 21
	AuthSystem  Auth = 22
	authNone    Auth = 0
	authAll     Auth = -1
	authAllAdm  Auth = -2
	authAllMQI  Auth = -3
)

var authKeywords = map[Auth]string{
	AuthAltUsr: "altusr", AuthBrowse: "browse", AuthChg: "chg", AuthClr: "clr", AuthConnect: "connect",
	AuthCrt: "crt", AuthDlt: "dlt", AuthDsp: "dsp", AuthGet: "get", AuthInq: "inq", AuthPut: "put",
	AuthPassAll: "passall", AuthPassID: "passid", AuthSet: "set", AuthSetAll: "setall", AuthSetID: "setid",
	AuthCtrl: "ctrl", AuthCtrlX: "ctrlx", AuthPub: "pub", AuthSub: "sub", AuthResume: "resume", AuthSystem: "system",
}

// Keyword is the authority as setmqaut spells it (without the sign); SET
// AUTHREC takes the same word in capitals.
func (a Auth) Keyword() string {
	if k, ok := authKeywords[a]; ok {
		return k
	}
	return fmt.Sprintf("MQAUTH(%d)", int32(a))
}

// allMQI and allAdmin are what MQAUTH_ALL_MQI and MQAUTH_ALL_ADMIN stand for.
var (
	allMQI   = []Auth{AuthAltUsr, AuthBrowse, AuthConnect, AuthGet, AuthInq, AuthPut, AuthPassAll, AuthPassID, AuthSet, AuthSetAll, AuthSetID, AuthPub, AuthSub, AuthResume}
	allAdmin = []Auth{AuthChg, AuthClr, AuthDlt, AuthDsp, AuthCtrl, AuthCtrlX}
)

// expandAuths turns an authorization list into single authorities: the
// groupings a queue manager may answer with are spelled out.
func expandAuths(list []int64) []Auth {
	var out []Auth
	for _, v := range list {
		switch a := Auth(v); a {
		case authNone:
		case authAll:
			out = append(append(append(out, allMQI...), allAdmin...), AuthCrt, AuthSystem)
		case authAllMQI:
			out = append(out, allMQI...)
		case authAllAdm:
			out = append(out, allAdmin...)
		default:
			out = append(out, a)
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// EntityAuthRequest is one MQCMD_INQUIRE_ENTITY_AUTH.
type EntityAuthRequest struct {
	Entity string
	Group  bool
	Type   ObjType
	Object string // "" for the queue manager
}

// Params are the command's parameters, as DISPLAY ENTAUTH AUTHLIST sends
// them: the entity, its type, the object and the authorization list asked for.
func (r EntityAuthRequest) Params() []Param {
	et := int32(zaetPrincipal)
	if r.Group {
		et = zaetGroup
	}
	ps := []Param{Str(cacfEntityName, r.Entity), Int(iacfEntityType, et), Int(iacfObjectType, int32(r.Type))}
	if r.Object != "" {
		ps = append(ps, Str(cacfObjectName, r.Object))
	}
	return append(ps, IntList(iacfAuthProfileAttrs, iacfAuthorizationList))
}

// EntityAuthRequestOf reads the request a command carries (server side).
func EntityAuthRequestOf(c Command) (EntityAuthRequest, error) {
	m := Message{Params: c.Params}
	var r EntityAuthRequest
	var ok bool
	if r.Entity, ok = m.strAttr(cacfEntityName); !ok || r.Entity == "" {
		return r, fmt.Errorf("MQCMD_INQUIRE_ENTITY_AUTH without an entity name (MQCACF_ENTITY_NAME)")
	}
	et, _ := m.intAttr(iacfEntityType)
	ot, _ := m.intAttr(iacfObjectType)
	if et != zaetPrincipal && et != zaetGroup || ot != otQueue && ot != otQMgr {
		return r, fmt.Errorf("MQCMD_INQUIRE_ENTITY_AUTH: entity type %d or object type %d not supported", et, ot)
	}
	r.Group, r.Type = et == zaetGroup, ObjType(ot)
	r.Object, _ = m.strAttr(cacfObjectName)
	return r, nil
}

// EntityAuthParams answers an INQUIRE_ENTITY_AUTH with the authorities held.
func EntityAuthParams(qmgr string, r EntityAuthRequest, held []Auth) []Param {
	list := make([]int32, len(held))
	for i, a := range held {
		list[i] = int32(a)
	}
	if len(list) == 0 {
		list = []int32{int32(authNone)}
	}
	et := int32(zaetPrincipal)
	if r.Group {
		et = zaetGroup
	}
	return []Param{Str(caQMgrName, qmgr), Str(cacfObjectName, r.Object), Int(iacfOptions, 0),
		Str(cacfEntityName, r.Entity), Int(iacfEntityType, et), Int(iacfObjectType, int32(r.Type)),
		IntList(iacfAuthorizationList, list...)}
}

const iacfOptions = 1076

// Ping is MQCMD_PING_Q_MGR: it succeeds when the command server reads the
// command queue and answers on the reply queue.
func (c *Client) Ping(ctx context.Context) error {
	_, _, err := c.Run(ctx, "MQCMD_PING_Q_MGR", "", cmdPingQMgr, nil, nil)
	return err
}

// EntityAuth is DISPLAY ENTAUTH for one entity and object: the authorities
// it holds there, from its own records and its groups'.
func (c *Client) EntityAuth(ctx context.Context, r EntityAuthRequest) ([]Auth, error) {
	const verb = "MQCMD_INQUIRE_ENTITY_AUTH"
	ms, _, err := c.Run(ctx, verb, r.Object, cmdInquireEntityAuth, r.Params(), nil)
	if err != nil {
		return nil, err
	}
	var out []Auth
	for i := range ms {
		if p := ms[i].find(iacfAuthorizationList); p != nil && p.Type == cftIntegerList {
			out = append(out, expandAuths(p.Ints)...)
		}
	}
	slices.Sort(out)
	return slices.Compact(out), nil
}

// AuthWords joins authorities as setmqaut grants them: "+browse +inq".
func AuthWords(as []Auth, sign string) string {
	ws := make([]string, len(as))
	for i, a := range as {
		ws[i] = sign + a.Keyword()
	}
	return strings.Join(ws, " ")
}
