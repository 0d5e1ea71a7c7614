package pcf

import "github.com/poisonwatch/poisonwatch/mqwatch"

// AuthNeed is one authority check the command server makes before it
// applies a change: the authorities needed on one object.
type AuthNeed struct {
	Type   ObjType
	Object string // "" for the queue manager; "@class" for create authority
	Auths  []Auth
	Why    string // "send a PCF command", "change ORDERS.BO", ...
}

// ClassProfile is the OAM profile that holds create authority for a type.
const ClassProfile = "@class"

// DefaultQueueOf is the SYSTEM.DEFAULT.* queue a CREATE_Q of type t takes
// its attributes from, which the user must be able to display.
func DefaultQueueOf(t mqwatch.QueueType) string {
	switch t {
	case mqwatch.QAlias:
		return "SYSTEM.DEFAULT.ALIAS.QUEUE"
	case mqwatch.QModel:
		return "SYSTEM.DEFAULT.MODEL.QUEUE"
	case mqwatch.QRemote:
		return "SYSTEM.DEFAULT.REMOTE.QUEUE"
	}
	return "SYSTEM.DEFAULT.LOCAL.QUEUE"
}

// ChangeAuthorities is what IBM MQ's OAM checks before the command server
// applies c ("Authorizations for PCF commands"): dsp on the queue manager
// for every PCF command; chg on the queue or the queue manager changed;
// for a new queue crt on the queue class (@class) and dsp on the object it
// copies, the LIKE queue or the SYSTEM.DEFAULT.* queue of its type. It is
// the one place both the change gate's 2035 prediction and the doctor's
// checks take it from.
func ChangeAuthorities(c Change) []AuthNeed {
	out := []AuthNeed{{Type: ObjQMgr, Auths: []Auth{AuthDsp}, Why: "send a PCF command"}}
	switch c.Command {
	case CmdChangeQMgr:
		out = append(out, AuthNeed{Type: ObjQMgr, Auths: []Auth{AuthChg}, Why: "change the queue manager"})
	case CmdChangeQ:
		out = append(out, AuthNeed{Type: ObjQueue, Object: c.Queue, Auths: []Auth{AuthChg}, Why: "change " + c.Queue})
	case CmdCreateQ, CmdCopyQ:
		like := c.Like
		if c.Command == CmdCreateQ {
			like = DefaultQueueOf(c.Type)
		}
		out = append(out, AuthNeed{Type: ObjQueue, Object: ClassProfile, Auths: []Auth{AuthCrt}, Why: "create a queue"},
			AuthNeed{Type: ObjQueue, Object: like, Auths: []Auth{AuthDsp}, Why: "copy the attributes of " + like})
	}
	return out
}
