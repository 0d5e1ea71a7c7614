package conformance

import (
	"runtime"
	"time"

	"github.com/poisonwatch/poisonwatch/codec/mqfmt"
	"github.com/poisonwatch/poisonwatch/mqwatch"
)

// Message context (IBM MQ "Message context", "MQPMO options"): identity
// context (UserIdentifier, AccountingToken, ApplIdentityData) and origin
// context (PutApplType, PutApplName, PutDate, PutTime, ApplOriginData).
func contextCases() []testCase {
	return []testCase{
		{"default_context_filled_on_put", testDefaultContext},
		{"set_all_context_kept", testSetAllContext},
		{"pass_all_context_from_save_all_context_handle", testPassAllContext},
		{"pass_all_without_saved_context_2098", testPassAllNoContext},
		{"pass_all_from_handle_without_save_all_2097", testPassAllNotSaved},
		{"pass_all_on_handle_not_opened_pass_all_2093", testPassAllNotOpened},
		{"set_all_on_handle_not_opened_set_all_2095", testSetAllNotOpened},
	}
}

// defaultApplType is MQAT_DEFAULT of the platform the application runs on:
// MQAT_WINDOWS_NT on Windows, MQAT_UNIX on AIX, Linux and other Unixes.
func defaultApplType() int32 {
	if runtime.GOOS == "windows" {
		return mqfmt.ATWindowsNT
	}
	return mqfmt.ATUnix
}

// putTimeTolerance is how far PutDate/PutTime may be from the suite's clock:
// tight when the backend's clock is the suite's, loose for a server clock.
func (e *env) putTimeTolerance() time.Duration {
	if _, ok := e.s.b.(Clock); ok {
		return 2 * time.Second
	}
	return 5 * time.Minute
}

// wantPutTime checks that PutDate/PutTime are well formed (YYYYMMDD and
// HHMMSSTH, real calendar values) and, in GMT, within the put's time window.
func (e *env) wantPutTime(md mqfmt.MQMD, before, after time.Time) {
	e.t.Helper()
	at, err := mqfmt.ParsePutTime(md.PutDate, md.PutTime)
	if err != nil {
		e.t.Errorf("PutDate/PutTime: %v", err)
		return
	}
	tol := e.putTimeTolerance()
	if at.Before(before.Add(-tol)) || at.After(after.Add(tol)) {
		e.t.Errorf("PutDate/PutTime %s %s is %s (GMT), want between %s and %s: not the put time in GMT",
			md.PutDate, md.PutTime, at.Format(time.RFC3339Nano),
			before.UTC().Format(time.RFC3339Nano), after.UTC().Format(time.RFC3339Nano))
	}
}

// forged fills every context field with values MQPMO_DEFAULT_CONTEXT must
// replace.
func forged(md *mqfmt.MQMD) {
	md.UserIdentifier = "forged"
	md.AccountingToken = token("forged")
	md.ApplIdentityData = "forged"
	md.PutApplType = mqfmt.ATJava
	md.PutApplName = "forged"
	md.PutDate, md.PutTime = "19990101", "00000000"
	md.ApplOriginData = "XXXX"
}

func testDefaultContext(e *env) {
	c := e.connect(UserApp, "conf-ctx-app")
	q := e.open(c, qMain, ooOut)
	before := e.now()
	e.put(q, "ctx", mqwatch.PutOptions{NewMsgId: true}, forged)
	after := e.now()
	m := e.get(e.open(e.admin(), qMain, ooIn), mqwatch.GetOptions{})
	md := m.MD
	if got := mqfmt.Trim(md.UserIdentifier); got != UserApp {
		e.t.Errorf("UserIdentifier %q, want the connected user %q", got, UserApp)
	}
	if got := mqfmt.Trim(md.PutApplName); got != "conf-ctx-app" {
		e.t.Errorf("PutApplName %q, want the connection's application name %q", got, "conf-ctx-app")
	}
	if md.PutApplType != defaultApplType() {
		e.t.Errorf("PutApplType %d, want MQAT_DEFAULT of this platform (%d)", md.PutApplType, defaultApplType())
	}
	if got := mqfmt.Trim(md.ApplIdentityData); got != "" {
		e.t.Errorf("ApplIdentityData %q, want blanks under MQPMO_DEFAULT_CONTEXT", got)
	}
	if got := mqfmt.Trim(md.ApplOriginData); got != "" {
		e.t.Errorf("ApplOriginData %q, want blanks under MQPMO_DEFAULT_CONTEXT", got)
	}
	e.wantPutTime(md, before, after)
}

// token turns a short string into a 32-byte AccountingToken.
func token(s string) [32]byte {
	var b [32]byte
	copy(b[:], s)
	return b
}

// setAllValues is a full context an application sets with MQPMO_SET_ALL_CONTEXT.
func setAllValues(md *mqfmt.MQMD) {
	md.UserIdentifier = "setuser"
	md.AccountingToken = token("acct-token")
	md.ApplIdentityData = "identity-data"
	md.PutApplType = mqfmt.ATJava
	md.PutApplName = "set-appl"
	md.PutDate, md.PutTime = "20200102", "03040506"
	md.ApplOriginData = "orig"
}

// wantSameContext compares every context field of got with want.
func (e *env) wantSameContext(got, want mqfmt.MQMD, what string) {
	e.t.Helper()
	type field struct {
		name      string
		got, want any
	}
	for _, f := range []field{
		{"UserIdentifier", mqfmt.Trim(got.UserIdentifier), mqfmt.Trim(want.UserIdentifier)},
		{"AccountingToken", got.AccountingToken, want.AccountingToken},
		{"ApplIdentityData", mqfmt.Trim(got.ApplIdentityData), mqfmt.Trim(want.ApplIdentityData)},
		{"PutApplType", got.PutApplType, want.PutApplType},
		{"PutApplName", mqfmt.Trim(got.PutApplName), mqfmt.Trim(want.PutApplName)},
		{"PutDate", got.PutDate, want.PutDate},
		{"PutTime", got.PutTime, want.PutTime},
		{"ApplOriginData", mqfmt.Trim(got.ApplOriginData), mqfmt.Trim(want.ApplOriginData)},
	} {
		if f.got != f.want {
			e.t.Errorf("%s: %s is %q, want %q", what, f.name, f.got, f.want)
		}
	}
}

func testSetAllContext(e *env) {
	q := e.open(e.admin(), qMain, mqwatch.OpenOptions{Output: true, SetAllContext: true})
	want := newMD(setAllValues)
	e.put(q, "set", mqwatch.PutOptions{NewMsgId: true, Context: mqwatch.ContextSetAll}, setAllValues)
	m := e.get(e.open(e.admin(), qMain, ooIn), mqwatch.GetOptions{})
	e.wantSameContext(m.MD, want, "MQPMO_SET_ALL_CONTEXT")
}

// testPassAllContext is the requeue of docs/poison-rules.md R10a done as MQ classes
// for JMS do it: get under syncpoint from a handle opened SAVE_ALL_CONTEXT,
// put with PASS_ALL_CONTEXT, commit. The copy keeps the original's context
// and MsgId, not the mover's, and starts with BackoutCount 0.
func testPassAllContext(e *env) {
	orig := e.connect(UserApp, "conf-origin")
	e.put(e.open(orig, qMain, ooOut), "orig", mqwatch.PutOptions{NewMsgId: true})
	first := e.browse(e.open(e.admin(), qMain, ooBrowse), mqwatch.BrowseOptions{First: true})

	mover := e.connect(UserAdmin, "conf-mover")
	src := e.open(mover, qMain, mqwatch.OpenOptions{Input: true, SaveAllContext: true})
	e.get(src, mqwatch.GetOptions{Syncpoint: true})
	e.wantNoErr(mover.Backout(e.ctx), "backout")
	m := e.get(src, mqwatch.GetOptions{Syncpoint: true})
	if m.MD.BackoutCount != 1 {
		e.t.Errorf("BackoutCount %d after one backout, want 1", m.MD.BackoutCount)
	}
	dst := e.open(mover, qOther, mqwatch.OpenOptions{Output: true, PassAllContext: true})
	md := m.MD
	md.UserIdentifier = "forged" // ignored: the context comes from src
	err := dst.Put(e.ctx, &md, m.Data, mqwatch.PutOptions{Syncpoint: true, Context: mqwatch.ContextPassAll, ContextFrom: src})
	e.wantNoErr(err, "put with MQPMO_PASS_ALL_CONTEXT")
	e.wantNoErr(mover.Commit(e.ctx), "commit")

	e.wantBodies(qMain)
	got := e.get(e.open(e.admin(), qOther, ooIn), mqwatch.GetOptions{})
	e.wantBody(got, "orig", "moved message")
	e.wantSameContext(got.MD, first.MD, "MQPMO_PASS_ALL_CONTEXT")
	if got.MD.MsgId != first.MD.MsgId {
		e.t.Errorf("moved message has MsgId %x, original %x", got.MD.MsgId, first.MD.MsgId)
	}
	if got.MD.BackoutCount != 0 {
		e.t.Errorf("moved message has BackoutCount %d, want 0", got.MD.BackoutCount)
	}
}

// passAll puts a copy with MQPMO_PASS_ALL_CONTEXT from src to dst.
func (e *env) passAll(dst, src mqwatch.Queue) error {
	md := newMD()
	return dst.Put(e.ctx, &md, []byte("copy"), mqwatch.PutOptions{NewMsgId: true, Context: mqwatch.ContextPassAll, ContextFrom: src})
}

// MQRC_CONTEXT_NOT_AVAILABLE: no message got with the handle yet, or the last
// successful MQGET on it was a browse. An engine that browses between its get
// and its put must get again before it passes context.
func testPassAllNoContext(e *env) {
	e.putTo(qMain, "a", "b")
	src := e.open(e.admin(), qMain, mqwatch.OpenOptions{Input: true, Browse: true, SaveAllContext: true})
	dst := e.open(e.admin(), qOther, mqwatch.OpenOptions{Output: true, PassAllContext: true})
	e.wantReason(e.passAll(dst, src), rcContextNotAvail, "pass-all before any get")
	e.browse(src, mqwatch.BrowseOptions{First: true})
	e.wantReason(e.passAll(dst, src), rcContextNotAvail, "pass-all after a browse")
	e.get(src, mqwatch.GetOptions{})
	e.wantNoErr(e.passAll(dst, src), "pass-all after a get")
	e.browse(src, mqwatch.BrowseOptions{First: true})
	e.wantReason(e.passAll(dst, src), rcContextNotAvail, "pass-all when a browse followed the get")
	e.wantBodies(qOther, "copy")
}

// MQRC_CONTEXT_HANDLE_ERROR: the context handle was not opened SAVE_ALL_CONTEXT.
func testPassAllNotSaved(e *env) {
	e.putTo(qMain, "a")
	src := e.open(e.admin(), qMain, ooIn)
	e.get(src, mqwatch.GetOptions{})
	dst := e.open(e.admin(), qOther, mqwatch.OpenOptions{Output: true, PassAllContext: true})
	e.wantReason(e.passAll(dst, src), mqfmt.RCContextHandleError, "pass-all from a handle without SAVE_ALL_CONTEXT")
	e.wantBodies(qOther)
}

// MQRC_NOT_OPEN_FOR_PASS_ALL: the target was not opened PASS_ALL_CONTEXT.
func testPassAllNotOpened(e *env) {
	e.putTo(qMain, "a")
	src := e.open(e.admin(), qMain, mqwatch.OpenOptions{Input: true, SaveAllContext: true})
	e.get(src, mqwatch.GetOptions{})
	dst := e.open(e.admin(), qOther, ooOut)
	e.wantReason(e.passAll(dst, src), rcNotOpenForPassAll, "pass-all to a handle opened without PASS_ALL_CONTEXT")
	e.wantBodies(qOther)
}

// MQRC_NOT_OPEN_FOR_SET_ALL: MQPMO_SET_ALL_CONTEXT on a handle opened without
// MQOO_SET_ALL_CONTEXT.
func testSetAllNotOpened(e *env) {
	q := e.open(e.admin(), qMain, ooOut)
	md := newMD(setAllValues)
	err := q.Put(e.ctx, &md, []byte("set"), mqwatch.PutOptions{NewMsgId: true, Context: mqwatch.ContextSetAll})
	e.wantReason(err, rcNotOpenForSetAll, "set-all put on a handle opened without SET_ALL_CONTEXT")
	e.wantBodies(qMain)
}
