package embedded

import (
	"github.com/poisonwatch/poisonwatch/codec/mqfmt"
	"github.com/poisonwatch/poisonwatch/mqwatch/pcf"
)

// The command server's answers to MQCMD_PING_Q_MGR and
// MQCMD_INQUIRE_ENTITY_AUTH (DISPLAY ENTAUTH), which `poisonwatch doctor`
// sends. Called with qm.mu held.

// adminAnswer answers the doctor's commands for principal user.
func (s *CommandServer) adminAnswer(cmd pcf.Command, user string) pcf.Answer {
	qm := s.qm
	switch cmd.Code {
	case pcf.CmdPingQMgr:
		// PING QMGR needs no authority beyond putting the command: an
		// empty positive reply.
		return pcf.Answer{Items: [][]pcf.Param{{}}}
	case pcf.CmdInquireEntityAuth:
		// Displaying authorities needs display authority on the queue
		// manager, as the other inquiries of the queue manager do.
		if !qm.auth.check(user, otQMgr, qm.name, authDsp) {
			return pcf.Answer{Reason: int32(mqfmt.RCNotAuthorized)}
		}
		r, err := pcf.EntityAuthRequestOf(cmd)
		if err != nil {
			return pcf.Answer{Reason: pcf.ReasonCommandFailed}
		}
		ot, name := otQueue, r.Object
		if r.Type == pcf.ObjQMgr {
			ot, name = otQMgr, qm.name
		} else if name == "" {
			return pcf.Answer{Reason: pcf.ReasonCommandFailed}
		}
		entity := r.Entity
		if !r.Group && entity == qm.opts.ProcessUser {
			entity = "" // the process user is the administrator, as in principal
		}
		held := qm.auth.held(entity, r.Group, ot, name)
		return pcf.Answer{Items: [][]pcf.Param{pcf.EntityAuthParams(qm.name, r, authList(held))}}
	}
	return pcf.Answer{Reason: pcf.ReasonCommandUnknown}
}

// held is what entity may do with the object: for a principal its own
// records and its groups' (everything for an administrator), for a group
// its records only.
func (a *authStore) held(entity string, group bool, ot objType, name string) authSet {
	if group {
		if entity == "mqm" {
			return authNames["ALL"]
		}
		return a.lookup(entity, true, ot, name)
	}
	if a.isAdmin(entity) {
		return authNames["ALL"]
	}
	have := a.lookup(entity, false, ot, name)
	for _, g := range a.groups[entity] {
		have |= a.lookup(g, true, ot, name)
	}
	return have
}

// authBits maps the OAM's authorities to the MQAUTH_* values.
var authBits = []struct {
	bit authSet
	pcf pcf.Auth
}{
	{authAltUsr, pcf.AuthAltUsr}, {authBrowse, pcf.AuthBrowse}, {authChg, pcf.AuthChg}, {authClr, pcf.AuthClr},
	{authConnect, pcf.AuthConnect}, {authCrt, pcf.AuthCrt}, {authDlt, pcf.AuthDlt}, {authDsp, pcf.AuthDsp},
	{authGet, pcf.AuthGet}, {authInq, pcf.AuthInq}, {authPut, pcf.AuthPut}, {authPassAll, pcf.AuthPassAll},
	{authPassID, pcf.AuthPassID}, {authSet_, pcf.AuthSet}, {authSetAll, pcf.AuthSetAll}, {authSetID, pcf.AuthSetID},
	{authCtrl, pcf.AuthCtrl}, {authCtrlX, pcf.AuthCtrlX}, {authPub, pcf.AuthPub}, {authSub, pcf.AuthSub},
	{authResume, pcf.AuthResume}, {authSystem, pcf.AuthSystem},
}

func authList(s authSet) []pcf.Auth {
	var out []pcf.Auth
	for _, b := range authBits {
		if s&b.bit != 0 {
			out = append(out, b.pcf)
		}
	}
	return out
}
