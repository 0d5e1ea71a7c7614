package ops

import (
	"context"
	"fmt"
	"slices"

	"github.com/poisonwatch/poisonwatch/codec/mqfmt"
	"github.com/poisonwatch/poisonwatch/mqwatch"
	"github.com/poisonwatch/poisonwatch/mqwatch/pcf"
)

// authView answers, for the change gate's dry run, whether the user the
// engine connects as holds what each step needs: DISPLAY ENTAUTH
// (MQCMD_INQUIRE_ENTITY_AUTH) for that principal, its groups included, one
// inquiry per object.
type authView struct {
	qmgr  string
	user  string // "" when it cannot be told
	cl    *pcf.Client
	pt    *pcf.PortTransport
	held  map[string][]pcf.Auth
	why   string // why authorities cannot be told, when they cannot
	noDsp bool   // DISPLAY ENTAUTH was refused: no dsp on the queue manager
}

// newAuthView opens the command server's queues and finds the principal:
// the engine's connect user, else the user DISPLAY CONN shows for its
// application name.
func newAuthView(ctx context.Context, e *Engine, c mqwatch.Conn, qmgr string) *authView {
	a := &authView{qmgr: qmgr, held: map[string][]pcf.Auth{}}
	pt, err := pcf.OpenPort(ctx, c, pcf.DefaultCommandQueue, pcf.DefaultReplyModel)
	if err != nil {
		a.why = "the command server's queues cannot be opened: " + DescribeReason(err)
		return a
	}
	a.pt, a.cl = pt, &pcf.Client{T: pt, Wait: commandWait}
	a.user = e.opts.Connect.User
	if a.user == "" {
		a.user = a.connUser(ctx, e.opts.Connect.ApplName)
	}
	if a.user == "" {
		a.why = "the user the connection runs as is unknown (DISPLAY CONN names none for this application)"
	}
	return a
}

func (a *authView) connUser(ctx context.Context, appl string) string {
	conns, err := a.cl.Connections(ctx)
	if _, err = mqwatch.SplitPartial(err); err != nil {
		if mqwatch.ReasonOf(err) == mqfmt.RCNotAuthorized {
			a.noDsp = true
		}
		return ""
	}
	user := ""
	for _, c := range conns {
		if appl != "" && c.ApplTag != appl {
			continue
		}
		if user != "" && c.User != user {
			return "" // several users: cannot tell which is ours
		}
		user = c.User
	}
	return user
}

func (a *authView) close(ctx context.Context) {
	if a.pt != nil {
		_ = a.pt.Close(context.WithoutCancel(ctx))
	}
}

// check returns 2035 and what is missing when the principal lacks one of
// the needs; unknown when its authorities cannot be read.
func (a *authView) check(ctx context.Context, needs []pcf.AuthNeed) (rc int32, why string, unknown bool) {
	for _, n := range needs {
		have, err := a.lookup(ctx, n)
		if err != nil {
			if a.noDsp && n.Type == pcf.ObjQMgr && slices.Contains(n.Auths, pcf.AuthDsp) {
				return int32(mqfmt.RCNotAuthorized), "lacks +dsp on the queue manager " + a.qmgr + " (DISPLAY ENTAUTH and DISPLAY CONN were refused)", false
			}
			return 0, "authority not checked: " + err.Error(), true
		}
		var missing []pcf.Auth
		for _, x := range n.Auths {
			if !slices.Contains(have, x) {
				missing = append(missing, x)
			}
		}
		if len(missing) > 0 {
			return int32(mqfmt.RCNotAuthorized), fmt.Sprintf("%s lacks %s on %s", a.user, pcf.AuthWords(missing, "+"), a.object(n)), false
		}
	}
	return 0, "", false
}

func (a *authView) object(n pcf.AuthNeed) string {
	if n.Type == pcf.ObjQMgr {
		return "the queue manager " + a.qmgr
	}
	if n.Object == pcf.ClassProfile {
		return "queues (profile @class)"
	}
	return n.Object
}

// lookup is DISPLAY ENTAUTH for the principal on n's object, cached.
func (a *authView) lookup(ctx context.Context, n pcf.AuthNeed) ([]pcf.Auth, error) {
	if a.cl == nil || a.user == "" {
		return nil, fmt.Errorf("%s", a.why)
	}
	key := fmt.Sprint(n.Type, "/", n.Object)
	if h, ok := a.held[key]; ok {
		return h, nil
	}
	h, err := a.cl.EntityAuth(ctx, pcf.EntityAuthRequest{Entity: a.user, Type: n.Type, Object: n.Object})
	if err != nil {
		if mqwatch.ReasonOf(err) == mqfmt.RCNotAuthorized {
			a.noDsp = true
		}
		return nil, fmt.Errorf("DISPLAY ENTAUTH: %s", DescribeReason(err))
	}
	a.held[key] = h
	return h, nil
}
