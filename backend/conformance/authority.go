package conformance

import (
	"github.com/poisonwatch/poisonwatch/codec/mqfmt"
	"github.com/poisonwatch/poisonwatch/mqwatch"
)

// Authority as the object authority manager checks it on MQCONN and MQOPEN
// (SET AUTHREC in SetupMQSC; docs/poison-rules.md R7).
func authorityCases() []testCase {
	return []testCase{
		{"connect_without_authority_2035", testConnectNotAuthorized},
		{"pass_all_without_passall_2035", testPassAllNotAuthorized},
		{"set_all_without_setall_2035", testSetAllNotAuthorized},
		{"pass_all_granted_by_authrec_keeps_context", testPassAllGranted},
		{"most_specific_profile_wins", testMostSpecificProfile},
	}
}

func testConnectNotAuthorized(e *env) {
	c, err := e.s.b.Connect(e.ctx, mqwatch.ConnectOptions{User: UserNone, ApplName: "conf-none"})
	if err == nil {
		_ = c.Close()
	}
	e.wantReason(err, mqfmt.RCNotAuthorized, "connect as a user without +connect")
}

// The developer-container trap (mq-container issue 469): an application user
// can get and put, but a requeue that passes context needs +passall.
func testPassAllNotAuthorized(e *env) {
	c := e.connect(UserApp, "conf-app")
	e.open(c, qOther, ooOut) // control: plain output is granted
	e.wantOpenFails(c, mqwatch.ObjectDesc{Name: qOther}, mqwatch.OpenOptions{Output: true, PassAllContext: true},
		mqfmt.RCNotAuthorized, "open with PASS_ALL_CONTEXT as "+UserApp)
}

func testSetAllNotAuthorized(e *env) {
	for _, user := range []string{UserApp, UserMover} {
		c := e.connect(user, "conf-"+user)
		e.wantOpenFails(c, mqwatch.ObjectDesc{Name: qOther}, mqwatch.OpenOptions{Output: true, SetAllContext: true},
			mqfmt.RCNotAuthorized, "open with SET_ALL_CONTEXT as "+user)
	}
}

func testPassAllGranted(e *env) {
	e.put(e.open(e.connect(UserApp, "conf-origin"), qMain, ooOut), "orig", mqwatch.PutOptions{NewMsgId: true})
	c := e.connect(UserMover, "conf-mover")
	src := e.open(c, qMain, mqwatch.OpenOptions{Input: true, SaveAllContext: true})
	dst := e.open(c, qOther, mqwatch.OpenOptions{Output: true, PassAllContext: true})
	m := e.get(src, mqwatch.GetOptions{Syncpoint: true})
	md := m.MD
	e.wantNoErr(dst.Put(e.ctx, &md, m.Data, mqwatch.PutOptions{Syncpoint: true, Context: mqwatch.ContextPassAll, ContextFrom: src}),
		"put with PASS_ALL_CONTEXT as "+UserMover)
	e.wantNoErr(c.Commit(e.ctx), "commit")
	got := e.get(e.open(e.admin(), qOther, ooIn), mqwatch.GetOptions{})
	if u := mqfmt.Trim(got.MD.UserIdentifier); u != UserApp {
		e.t.Errorf("moved message UserIdentifier %q, want the original putter %q", u, UserApp)
	}
}

// IBM MQ "Profile priorities": when several generic profiles match, only the
// most specific applies. CONF.SECURE grants inq only, although CONF.** grants
// put and get.
func testMostSpecificProfile(e *env) {
	c := e.connect(UserApp, "conf-app")
	q := e.open(c, qSecure, mqwatch.OpenOptions{Inquire: true})
	if _, err := q.Inquire(e.ctx); err != nil {
		e.t.Errorf("inquire %s as %s: %v", qSecure, UserApp, err)
	}
	for _, o := range []mqwatch.OpenOptions{ooOut, ooIn, ooBrowse} {
		e.wantOpenFails(c, mqwatch.ObjectDesc{Name: qSecure}, o, mqfmt.RCNotAuthorized,
			"open "+qSecure+" beyond its specific profile")
	}
}
