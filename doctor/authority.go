package doctor

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/poisonwatch/poisonwatch/codec/mqfmt"
	"github.com/poisonwatch/poisonwatch/mqwatch"
	"github.com/poisonwatch/poisonwatch/mqwatch/pcf"
)

// Features whose authorities are checked.
const (
	FeatureDashboard = "dashboard"
	FeatureActions   = "actions"
	FeatureChanges   = "object changes"
)

// need is what one feature needs on one object.
type need struct {
	feature string
	what    string
	ot      pcf.ObjType
	object  string // "" = the queue manager
	auths   []pcf.Auth
}

// classProfile is the OAM's profile for authority over a whole object
// type: create authority (crt) is held there.
const classProfile = pcf.ClassProfile

// needs lists the authorities poisonwatch's features need on this queue
// manager: the dashboard inquires the queue manager, sends PCF on the
// command queue with replies on a queue made from the model, displays and
// browses the DEADQ and every BOQ; actions get from them and put back with
// the original context (setall on the queue and the queue manager; altusr
// for PUTAUT(CTX)); a rules table's run browses and gets the DEADQ and puts
// with setall (rulesNeeds); object changes need what the steps of the
// fixes offered now need (changeNeeds).
func needs(info mqwatch.QMgrInfo, queues []mqwatch.QueueInfo, cmdQ, replyModel string) []need {
	q := func(f, what, name string, as ...pcf.Auth) need {
		return need{feature: f, what: what, ot: pcf.ObjQueue, object: name, auths: as}
	}
	ns := []need{
		{feature: FeatureDashboard, what: "inquire and display the queue manager", ot: pcf.ObjQMgr, auths: []pcf.Auth{pcf.AuthInq, pcf.AuthDsp}},
		q(FeatureDashboard, "send PCF commands", cmdQ, pcf.AuthPut),
		q(FeatureDashboard, "create the PCF reply queue", replyModel, pcf.AuthGet, pcf.AuthInq),
	}
	if info.DeadQ != "" {
		ns = append(ns, q(FeatureDashboard, "display and browse the DEADQ", info.DeadQ, pcf.AuthBrowse, pcf.AuthDsp))
	}
	inputs, boqs := backoutPairs(queues)
	for _, b := range boqs {
		ns = append(ns, q(FeatureDashboard, "display and browse a BOQ", b, pcf.AuthBrowse, pcf.AuthDsp))
	}
	for _, in := range inputs {
		ns = append(ns, q(FeatureDashboard, "display an input queue", in, pcf.AuthDsp))
	}
	if info.DeadQ != "" {
		ns = append(ns, q(FeatureActions, "take messages off the DEADQ", info.DeadQ, pcf.AuthGet))
	}
	for _, b := range boqs {
		ns = append(ns, q(FeatureActions, "take messages off a BOQ", b, pcf.AuthGet))
	}
	for _, in := range inputs {
		ns = append(ns, q(FeatureActions, "requeue with the original context", in, pcf.AuthPut, pcf.AuthSetAll))
	}
	ns = append(ns, need{feature: FeatureActions, what: "set all context; put as the message's user under PUTAUT(CTX)",
		ot: pcf.ObjQMgr, auths: []pcf.Auth{pcf.AuthSetAll, pcf.AuthAltUsr}})
	ns = append(ns, rulesNeeds(info, inputs)...)
	return append(ns, changeNeeds(info, queues)...)
}

// backoutPairs returns the local queues that name a BOQ and the BOQs, in
// name order, leaving out the queue manager's own SYSTEM queues.
func backoutPairs(queues []mqwatch.QueueInfo) (inputs, boqs []string) {
	for _, q := range queues {
		if q.BackoutQName == "" || strings.HasPrefix(q.Name, "SYSTEM.") {
			continue
		}
		inputs = append(inputs, q.Name)
		if !slices.Contains(boqs, q.BackoutQName) {
			boqs = append(boqs, q.BackoutQName)
		}
	}
	slices.Sort(inputs)
	slices.Sort(boqs)
	return inputs, boqs
}

// authorities checks each need for the principal the connection runs as.
func (s *session) authorities(ctx context.Context) {
	user := s.principal(ctx)
	s.r.User = user
	if user == "" {
		s.add(Check{Name: "authorities", Why: "the user the connection runs as is unknown: give --user (embedded) or MQ_USER"})
		return
	}
	if s.info.Platform == "ZOS" {
		s.add(Check{Name: "authorities", OK: true, Why: "z/OS checks access with RACF profiles (MQQUEUE, MQADMIN), which PCF cannot inquire: not checked here"})
		return
	}
	queues, err := s.conn.Queues(ctx, "*")
	if _, err = mqwatch.SplitPartial(err); err != nil {
		s.add(Check{Name: "authorities", Feature: FeatureDashboard, Why: "DISPLAY QUEUE(*) failed: " + describe(err)})
	}
	if inputs, _ := backoutPairs(queues); len(inputs) == 0 {
		s.add(Check{Name: "dashboard: list queues", OK: true, Unknown: true, Feature: FeatureDashboard,
			Why: fmt.Sprintf("DISPLAY QUEUE(*) shows %s no queue with a BOQ: without +dsp on the application queues the dashboard shows none of them, and their BOQs cannot be checked here", user)})
	}
	src := &authSource{s: s, user: user, held: map[string][]pcf.Auth{}}
	var checks []Check
	for _, n := range needs(s.info, queues, s.cmdQ, s.replyModel) {
		checks = append(checks, src.check(ctx, n))
	}
	s.r.Checks = append(s.r.Checks, collapse(checks, user)...)
	if src.refused != nil {
		s.add(*src.refused)
	}
}

// collapseAbove is how many passing checks of one kind (the same feature
// and purpose on many queues) are listed one by one; above it they are one
// line, so a queue manager with hundreds of input queues lists only what
// is missing.
const collapseAbove = 3

// collapse folds the passing checks of a kind with more than collapseAbove
// of them into one line at the place of the first, and the unknown ones
// likewise; failures stay one by one.
func collapse(cs []Check, user string) []Check {
	type kind struct {
		name    string
		unknown bool
	}
	count := map[kind]int{}
	for _, c := range cs {
		if c.OK {
			count[kind{c.Name, c.Unknown}]++
		}
	}
	var out []Check
	done := map[kind]bool{}
	for _, c := range cs {
		k := kind{c.Name, c.Unknown}
		n := count[k]
		switch {
		case !c.OK || n <= collapseAbove:
			out = append(out, c)
		case done[k]:
		case c.Unknown:
			done[k] = true
			c.Why = fmt.Sprintf("cannot tell for %d queues (the first: %s)", n, c.Why)
			out = append(out, c)
		default:
			done[k] = true
			out = append(out, Check{Name: c.Name, OK: true, Feature: c.Feature,
				Why: fmt.Sprintf("%s holds what is needed on %d queues", user, n)})
		}
	}
	return out
}

// authSource answers what the principal holds: DISPLAY ENTAUTH through the
// command server, or, when that is refused, opening the queue with the
// options each authority allows.
type authSource struct {
	s       *session
	user    string
	held    map[string][]pcf.Auth // by object type and name
	probe   bool                  // DISPLAY ENTAUTH was refused: open to find out
	refused *Check
}

func (a *authSource) check(ctx context.Context, n need) Check {
	name := n.object
	if name == "" {
		name = a.s.info.Name
	}
	c := Check{Name: fmt.Sprintf("%s: %s", n.feature, n.what), Feature: n.feature}
	have, unknown, err := a.lookup(ctx, n)
	if err != nil {
		c.Why = fmt.Sprintf("%s: %s", mqfmt.Sanitize(name), describe(err))
		return c
	}
	var missing []pcf.Auth
	for _, x := range n.auths {
		if !slices.Contains(have, x) && !slices.Contains(unknown, x) {
			missing = append(missing, x)
		}
	}
	switch {
	case len(missing) > 0:
		c.Why = fmt.Sprintf("%s lacks %s on %s", a.user, pcf.AuthWords(missing, "+"), mqfmt.Sanitize(name))
		c.Fix = grant(a.s.info.Name, n.ot, n.object, a.user, missing)
	case len(unknown) > 0:
		c.OK, c.Unknown = true, true
		c.Why = fmt.Sprintf("%s on %s: cannot tell, %s", pcf.AuthWords(unknown, "+"), mqfmt.Sanitize(name), a.whyUnknown())
	default:
		c.OK = true
		c.Why = fmt.Sprintf("%s holds %s on %s", a.user, pcf.AuthWords(n.auths, "+"), mqfmt.Sanitize(name))
	}
	return c
}

func (a *authSource) whyUnknown() string {
	if a.s.cl == nil {
		return "the command server could not be used to ask (DISPLAY ENTAUTH)"
	}
	return "DISPLAY ENTAUTH was refused"
}

// lookup returns the authorities held among n's, and those it cannot tell.
func (a *authSource) lookup(ctx context.Context, n need) (have, unknown []pcf.Auth, err error) {
	if a.s.cl != nil && !a.probe {
		key := fmt.Sprint(n.ot, "/", n.object)
		if h, ok := a.held[key]; ok {
			return h, nil, nil
		}
		h, err := a.s.cl.EntityAuth(ctx, pcf.EntityAuthRequest{Entity: a.user, Type: n.ot, Object: n.object})
		switch {
		case err == nil:
			a.held[key] = h
			return h, nil, nil
		case mqwatch.ReasonOf(err) != mqfmt.RCNotAuthorized:
			return nil, nil, err
		}
		a.probe = true
		a.refused = &Check{Name: "authority inquiry", Feature: FeatureDashboard,
			Why: fmt.Sprintf("DISPLAY ENTAUTH refused (2035): %s may not display the queue manager; the queues were checked by opening them", a.user),
			Fix: grant(a.s.info.Name, pcf.ObjQMgr, "", a.user, []pcf.Auth{pcf.AuthDsp})}
	}
	return a.probeOpen(ctx, n)
}

// probeOpen finds the MQI authorities of a queue by opening it with the
// options each one allows (closed at once); the rest cannot be told.
func (a *authSource) probeOpen(ctx context.Context, n need) (have, unknown []pcf.Auth, err error) {
	for _, x := range n.auths {
		oo, ok := openFor(x)
		if n.ot != pcf.ObjQueue || n.object == classProfile || !ok {
			if n.ot == pcf.ObjQMgr && x == pcf.AuthConnect {
				have = append(have, x) // this connection is the proof
				continue
			}
			unknown = append(unknown, x)
			continue
		}
		od := mqwatch.ObjectDesc{Name: n.object}
		if n.object == a.s.replyModel {
			od.DynamicName = pcf.ReplyQueuePattern
		}
		q, err := a.s.conn.Open(ctx, od, oo)
		switch rc := mqwatch.ReasonOf(err); {
		case err == nil:
			_ = q.Close(ctx)
			have = append(have, x)
		case rc == mqfmt.RCNotAuthorized:
		default:
			return nil, nil, err
		}
	}
	return have, unknown, nil
}

// openFor is the open that needs authority x (and put, for the context ones).
func openFor(x pcf.Auth) (mqwatch.OpenOptions, bool) {
	switch x {
	case pcf.AuthBrowse:
		return mqwatch.OpenOptions{Browse: true}, true
	case pcf.AuthGet:
		return mqwatch.OpenOptions{Input: true}, true
	case pcf.AuthPut:
		return mqwatch.OpenOptions{Output: true}, true
	case pcf.AuthInq:
		return mqwatch.OpenOptions{Inquire: true}, true
	case pcf.AuthSetAll:
		return mqwatch.OpenOptions{Output: true, SetAllContext: true}, true
	case pcf.AuthPassAll:
		return mqwatch.OpenOptions{Output: true, PassAllContext: true}, true
	}
	return mqwatch.OpenOptions{}, false
}

// grant returns the setmqaut line and the SET AUTHREC command that give
// user the authorities on the object, saying that on Linux and UNIX the
// OAM keeps authorities by group, so -p (PRINCIPAL) grants them to the
// user's primary group, everyone in it; then the same for a group of the
// administrator's choosing (-g, GROUP).
func grant(qmgr string, ot pcf.ObjType, object, user string, as []pcf.Auth) []string {
	words := make([]string, len(as))
	for i, x := range as {
		words[i] = strings.ToUpper(x.Keyword())
	}
	cmd := "setmqaut -m " + shellQuote(qmgr) + " -t " + ot.Keyword()
	rec := "SET AUTHREC"
	if object != "" {
		cmd += " -n " + shellQuote(object)
		rec += " PROFILE('" + mqscQuote(object) + "')"
	}
	rec += " OBJTYPE(" + ot.AuthrecType() + ")"
	add := " AUTHADD(" + strings.Join(words, ",") + ")"
	auths := " " + pcf.AuthWords(as, "+")
	return []string{
		mqfmt.Sanitize("# on Linux and UNIX -p grants to " + user + "'s primary group (the OAM is group-based): everyone in it gets this"),
		mqfmt.Sanitize(cmd + " -p " + shellQuote(user) + auths),
		mqfmt.Sanitize(rec + " PRINCIPAL('" + mqscQuote(user) + "')" + add),
		"# or to a group of your choosing:",
		mqfmt.Sanitize(cmd + " -g GROUP" + auths),
		mqfmt.Sanitize(rec + " GROUP('GROUP')" + add),
	}
}

// shellQuote quotes s for a POSIX shell when it holds anything but MQ name
// characters and a few safe ones.
func shellQuote(s string) string {
	safe := s != ""
	for _, r := range s {
		if !(r >= 'A' && r <= 'Z' || r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || strings.ContainsRune("._/%@-", r)) {
			safe = false
		}
	}
	if safe {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

func mqscQuote(s string) string { return strings.ReplaceAll(s, "'", "''") }
