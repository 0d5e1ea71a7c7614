package conformance

import (
	"context"
	"errors"
	"time"

	"github.com/poisonwatch/poisonwatch/codec/mqfmt"
	"github.com/poisonwatch/poisonwatch/mqwatch"
)

// MQGMO_WAIT, context cancellation and the one-call-at-a-time rule of a
// connection handle.
func waitCases() []testCase {
	return []testCase{
		{"wait_returns_arriving_message", testWaitArrival},
		{"wait_ignores_an_uncommitted_put_until_commit", testWaitUncommitted},
		{"wait_times_out_2033", testWaitTimeout},
		{"wait_honours_ctx_cancellation", testWaitCancel},
		{"cancelled_ctx_call_has_no_effect", testCancelledCtx},
		{"concurrent_call_on_one_connection_2219", testCallInProgress},
	}
}

// Bounds for calls running in the background. They are deadlines for a
// result, not performance assertions.
const (
	longWait   = 20 * time.Second // MQGMO_WAIT interval of a get that others release
	settle     = 200 * time.Millisecond
	resultWait = 15 * time.Second
	// probeWindow is how long a concurrent call is retried while the get it
	// should collide with may not have started yet.
	probeWindow = 5 * time.Second
)

type getResult struct {
	m   mqwatch.Message
	err error
}

// getAsync starts a waiting get and returns where its result arrives.
func getAsync(ctx context.Context, q mqwatch.Queue, wait time.Duration) <-chan getResult {
	ch := make(chan getResult, 1)
	go func() {
		m, err := q.Get(ctx, mqwatch.GetOptions{Wait: wait})
		ch <- getResult{m, err}
	}()
	return ch
}

// await returns the background get's result, or fails the test when none
// arrives in time.
func (e *env) await(ch <-chan getResult, what string) getResult {
	e.t.Helper()
	select {
	case r := <-ch:
		return r
	case <-time.After(resultWait):
		e.t.Fatalf("%s: no result within %v", what, resultWait)
		return getResult{}
	}
}

func testWaitArrival(e *env) {
	q := e.open(e.connect(UserAdmin, "conf-wait"), qMain, ooIn)
	ch := getAsync(e.ctx, q, longWait)
	time.Sleep(settle) // let the get start waiting; the result is the same if it has not
	e.putTo(qMain, "late")
	r := e.await(ch, "waiting get")
	e.wantNoErr(r.err, "waiting get")
	e.wantBody(r.m, "late", "waiting get")
}

// A waiting get is not satisfied by a message put under syncpoint until the
// putter commits (the target half of a move must stay invisible).
func testWaitUncommitted(e *env) {
	q := e.open(e.connect(UserAdmin, "conf-wait"), qMain, ooIn)
	ch := getAsync(e.ctx, q, longWait)
	putter := e.connect(UserAdmin, "conf-putter")
	e.put(e.open(putter, qMain, ooOut), "pending", mqwatch.PutOptions{Syncpoint: true, NewMsgId: true})
	select {
	case r := <-ch:
		e.t.Fatalf("waiting get returned before the commit: %q %s", r.m.Data, errText(r.err))
	case <-time.After(settle):
	}
	e.wantNoErr(putter.Commit(e.ctx), "commit")
	r := e.await(ch, "waiting get after the commit")
	e.wantNoErr(r.err, "waiting get after the commit")
	e.wantBody(r.m, "pending", "waiting get after the commit")
}

func testWaitTimeout(e *env) {
	q := e.open(e.admin(), qMain, ooIn)
	const wait = 300 * time.Millisecond
	start := time.Now()
	_, err := q.Get(e.ctx, mqwatch.GetOptions{Wait: wait})
	elapsed := time.Since(start)
	e.wantReason(err, mqfmt.RCNoMsgAvailable, "get with a wait interval on an empty queue")
	if elapsed < wait-20*time.Millisecond {
		e.t.Errorf("get with MQGMO_WAIT %v gave up after %v", wait, elapsed)
	}
}

func testWaitCancel(e *env) {
	c := e.connect(UserAdmin, "conf-wait")
	q := e.open(c, qMain, ooIn)
	cctx, cancel := context.WithCancel(e.ctx)
	ch := getAsync(cctx, q, longWait)
	time.Sleep(settle)
	cancel()
	r := e.await(ch, "get waiting when its context is cancelled")
	if !errors.Is(r.err, context.Canceled) {
		e.t.Errorf("cancelled waiting get returned %s, want an error wrapping context.Canceled", errText(r.err))
	}
	if _, err := c.QMgr(e.ctx); err != nil {
		e.t.Errorf("connection unusable after a cancelled get: %v", err)
	}
	e.putTo(qMain, "after")
	e.wantBodies(qMain, "after") // the cancelled get took nothing
}

func testCancelledCtx(e *env) {
	cctx, cancel := context.WithCancel(e.ctx)
	cancel()
	if c, err := e.s.b.Connect(cctx, mqwatch.ConnectOptions{User: UserAdmin, ApplName: "conf-cancel"}); !errors.Is(err, context.Canceled) {
		if err == nil {
			_ = c.Close()
		}
		e.t.Errorf("connect with a cancelled context returned %s, want context.Canceled", errText(err))
	}
	q := e.open(e.admin(), qMain, ooAll)
	md := newMD()
	if err := q.Put(cctx, &md, []byte("never"), mqwatch.PutOptions{NewMsgId: true}); !errors.Is(err, context.Canceled) {
		e.t.Errorf("put with a cancelled context returned %s, want context.Canceled", errText(err))
	}
	e.wantBodies(qMain)
	e.putTo(qMain, "kept")
	if _, err := q.Get(cctx, mqwatch.GetOptions{}); !errors.Is(err, context.Canceled) {
		e.t.Errorf("get with a cancelled context returned %s, want context.Canceled", errText(err))
	}
	e.wantBodies(qMain, "kept")
}

// A connection handle allows one MQI call at a time: a second call while a
// get waits fails with MQRC_CALL_IN_PROGRESS instead of queueing behind it
// (MQCNO_HANDLE_SHARE_NO_BLOCK semantics, which the port documents).
func testCallInProgress(e *env) {
	c := e.connect(UserAdmin, "conf-busy")
	q := e.open(c, qMain, ooIn)
	var ch <-chan getResult
	seen, verdict := false, ""
	for attempt := 1; ; attempt++ {
		ch = getAsync(e.ctx, q, longWait)
		var raced bool
		seen, verdict, raced = e.probeInProgress(c, ch)
		if !raced {
			break
		}
		if attempt == 10 {
			e.t.Fatalf("the get never started before a probing call: %s", verdict)
		}
	}
	e.putTo(qMain, "release")
	r := e.await(ch, "get that was in progress")
	e.wantNoErr(r.err, "get that was in progress")
	if !seen {
		e.t.Errorf("second call on a connection with a get in progress: %s, want %s", verdict, mqfmt.RCCallInProgress.Describe())
	}
	if _, err := c.QMgr(e.ctx); err != nil {
		e.t.Errorf("connection unusable after the concurrent call: %v", err)
	}
}

// probeInProgress calls QMgr on c until it fails with 2219 or it is clear it
// never will (it blocks, or fails otherwise). raced reports that the get
// itself failed with 2219 because a probe got in first: the caller starts
// the get again.
func (e *env) probeInProgress(c mqwatch.Conn, get <-chan getResult) (seen bool, verdict string, raced bool) {
	deadline := time.Now().Add(probeWindow)
	for time.Now().Before(deadline) {
		select {
		case r := <-get:
			if mqwatch.IsReason(r.err, mqfmt.RCCallInProgress) {
				return false, "the get collided with a probe", true
			}
			e.t.Fatalf("the get ended before any second call: %s, want it to wait", errText(r.err))
		default:
		}
		done := make(chan error, 1)
		go func() { _, err := c.QMgr(e.ctx); done <- err }()
		select {
		case err := <-done:
			switch {
			case mqwatch.IsReason(err, mqfmt.RCCallInProgress):
				return true, "", false
			case err != nil:
				return false, errText(err), false
			}
			time.Sleep(10 * time.Millisecond) // the get has not started yet
		case <-time.After(2 * time.Second):
			// It returns once the caller releases the get.
			return false, "the call blocked behind the get", false
		}
	}
	return false, "every call succeeded", false
}
