package conformance

import (
	"time"

	"github.com/poisonwatch/poisonwatch/mqwatch"
)

// Queue status as DISPLAY QSTATUS reports it, and the queue manager's facts.
func statusCases() []testCase {
	return []testCase{
		{"ipprocs_opprocs_count_handles", testOpenCounts},
		{"handles_show_application_user_and_options", testHandles},
		{"monq_off_leaves_age_and_times_unknown", testMonitoringOff},
		{"monq_on_reports_age_and_last_put_get", testMonitoringOn},
		{"qmgr_facts", testQMgrFacts},
	}
}

// IPPROCS counts handles open for input (a browse-only handle does not
// count), OPPROCS handles open for output.
func testOpenCounts(e *env) {
	c := e.connect(UserAdmin, "conf-status")
	in1 := e.open(c, qStatus, ooIn)
	e.open(c, qStatus, ooInBrw)
	e.open(c, qStatus, ooOut)
	e.open(c, qStatus, ooBrowse)
	s := e.status(qStatus)
	if s.OpenInput != 2 || s.OpenOutput != 1 {
		e.t.Errorf("IPPROCS %d OPPROCS %d, want 2 and 1 (two input handles, one output, one browse-only)", s.OpenInput, s.OpenOutput)
	}
	e.closeQ(in1)
	if s := e.status(qStatus); s.OpenInput != 1 {
		e.t.Errorf("IPPROCS %d after closing one input handle, want 1", s.OpenInput)
	}
}

// handleByTag finds the handle an application opened.
func handleByTag(hs []mqwatch.Handle, tag string) (mqwatch.Handle, bool) {
	for _, h := range hs {
		if h.ApplTag == tag {
			return h, true
		}
	}
	return mqwatch.Handle{}, false
}

// handles lists the handles on qStatus, failing the test on error.
func (e *env) handles() []mqwatch.Handle {
	e.t.Helper()
	hs, err := e.admin().Handles(e.ctx, qStatus)
	e.wantNoErr(err, "handles of "+qStatus)
	return hs
}

// The scenario "which app is even reading this queue?": each handle names
// its application, user and open options, and whether a unit of work is open.
func testHandles(e *env) {
	e.putTo(qStatus, "held")
	app := e.connect(UserApp, "conf-handle-in")
	in := e.open(app, qStatus, ooInBrw)
	e.open(e.connect(UserAdmin, "conf-handle-out"), qStatus, mqwatch.OpenOptions{Output: true, Inquire: true})

	hs := e.handles()
	if len(hs) != 2 {
		e.t.Errorf("%d handles on %s, want 2: %+v", len(hs), qStatus, hs)
	}
	if h, ok := handleByTag(hs, "conf-handle-in"); !ok {
		e.t.Errorf("no handle with APPLTAG conf-handle-in: %+v", hs)
	} else if h.Queue != qStatus || h.User != UserApp || !h.Input || !h.Browse || h.Output || h.UOW {
		e.t.Errorf("input handle %+v, want queue %s user %s input and browse, no output, no unit of work", h, qStatus, UserApp)
	}
	if h, ok := handleByTag(hs, "conf-handle-out"); !ok {
		e.t.Errorf("no handle with APPLTAG conf-handle-out: %+v", hs)
	} else if h.User != UserAdmin || !h.Output || !h.Inquire || h.Input || h.Browse {
		e.t.Errorf("output handle %+v, want user %s output and inquire only", h, UserAdmin)
	}

	e.get(in, syncGet)
	if h, ok := handleByTag(e.handles(), "conf-handle-in"); !ok || !h.UOW {
		e.t.Errorf("handle of a connection with an uncommitted get: %+v, want UOW active", h)
	}
	e.wantNoErr(app.Backout(e.ctx), "backout")
	e.closeQ(in)
	if hs := e.handles(); len(hs) != 1 {
		e.t.Errorf("%d handles after closing one of two, want 1: %+v", len(hs), hs)
	}
}

// With MONQ(OFF) the queue manager keeps no age or put/get times: the port
// must say unknown, not zero age or "never".
func testMonitoringOff(e *env) {
	e.putTo(qUnmonitor, "a")
	s := e.status(qUnmonitor)
	if s.Depth != 1 || s.Monitored || s.OldestAge != 0 || !s.LastPut.IsZero() || !s.LastGet.IsZero() {
		e.t.Errorf("MONQ(OFF) status %+v, want depth 1 and Monitored false with no age or times", s)
	}
}

// timeTolerance is how far a queue manager timestamp with one-second
// resolution may be from the suite's clock.
func (e *env) timeTolerance() time.Duration {
	if _, ok := e.s.b.(Clock); ok {
		return 2 * time.Second
	}
	return 5 * time.Minute
}

// wantNear checks that a status time lies in [before, after] within tolerance.
func (e *env) wantNear(got, before, after time.Time, what string) {
	e.t.Helper()
	tol := e.timeTolerance()
	if got.IsZero() || got.Before(before.Add(-tol)) || got.After(after.Add(tol)) {
		e.t.Errorf("%s %v, want between %v and %v", what, got, before, after)
	}
}

func testMonitoringOn(e *env) {
	before := e.now()
	e.putTo(qMonitored, "a")
	after := e.now()
	s := e.status(qMonitored)
	if !s.Monitored {
		e.t.Fatalf("MONQ(MEDIUM) status %+v, want Monitored", s)
	}
	e.wantNear(s.LastPut, before, after, "LPUTDATE/LPUTTIME")
	wantAge := time.Duration(0)
	if clock, ok := e.s.b.(Clock); ok {
		clock.Advance(5 * time.Second)
		wantAge = 5 * time.Second
	}
	s = e.status(qMonitored)
	if s.OldestAge < wantAge || s.OldestAge > wantAge+e.timeTolerance() {
		e.t.Errorf("MSGAGE %v, want %v (within %v)", s.OldestAge, wantAge, e.timeTolerance())
	}
	before = e.now()
	e.clearQueues(qMonitored)
	after = e.now()
	e.wantNear(e.status(qMonitored).LastGet, before, after, "LGETDATE/LGETTIME")
}

func testQMgrFacts(e *env) {
	info, err := e.admin().QMgr(e.ctx)
	e.wantNoErr(err, "inquire the queue manager")
	if info.Name != e.s.b.QMgrName() || info.DeadQ != qDeadQ {
		e.t.Errorf("queue manager %q DEADQ %q, want %q and %q (ALTER QMGR DEADQ in SetupMQSC)",
			info.Name, info.DeadQ, e.s.b.QMgrName(), qDeadQ)
	}
	if info.MaxMsgLen <= 0 || info.CommandLevel <= 0 {
		e.t.Errorf("queue manager MAXMSGL %d CMDLEVEL %d, want positive values", info.MaxMsgLen, info.CommandLevel)
	}
}
