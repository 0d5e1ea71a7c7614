package conformance

import (
	"github.com/poisonwatch/poisonwatch/mqwatch"
)

// handleCases check the handle-status fields both backends report the same
// way: those of DISPLAY QSTATUS TYPE(HANDLE) and, from DISPLAY CONN, the
// connection id and the start of the unit of work.
func handleCases() []testCase {
	return []testCase{
		{"handles_of_one_connection_agree", testHandlesOfOneConnection},
		{"uow_start_is_known_or_unknown_never_wrong", testUOWStart},
	}
}

// Two handles one connection opened share everything that belongs to the
// connection: application, user, process, channel, connection name, unit of
// work and connection id (or both say the id is unknown). Channel and
// connection name are both given (a client) or both blank (bindings).
func testHandlesOfOneConnection(e *env) {
	app := e.connect(UserApp, "conf-handle-pair")
	e.open(app, qStatus, ooInBrw)
	e.open(app, qStatus, mqwatch.OpenOptions{Inquire: true})
	var mine []mqwatch.Handle
	for _, h := range e.handles() {
		if h.ApplTag == "conf-handle-pair" {
			mine = append(mine, h)
		}
	}
	if len(mine) != 2 {
		e.t.Fatalf("%d handles of the connection, want 2: %+v", len(mine), mine)
	}
	a, b := mine[0], mine[1]
	if a.User != b.User || a.PID != b.PID || a.Channel != b.Channel || a.ConnName != b.ConnName ||
		a.UOW != b.UOW || a.ConnID != b.ConnID || a.ApplType != b.ApplType {
		e.t.Errorf("handles of one connection disagree:\n%+v\n%+v", a, b)
	}
	if a.PID == 0 {
		e.t.Errorf("handle without a process id: %+v", a)
	}
	if (a.Channel == "") != (a.ConnName == "") {
		e.t.Errorf("channel %q with connection name %q", a.Channel, a.ConnName)
	}
	if a.Input == b.Input || a.Inquire == b.Inquire {
		e.t.Errorf("open options of the two handles: %+v %+v", a, b)
	}
}

// A handle's UOWStart is zero without a unit of work; with one it is zero
// (not known) or a time no later than now.
func testUOWStart(e *env) {
	e.putTo(qStatus, "held")
	app := e.connect(UserApp, "conf-handle-uow")
	in := e.open(app, qStatus, ooInBrw)
	if h, ok := handleByTag(e.handles(), "conf-handle-uow"); !ok || h.UOW || !h.UOWStart.IsZero() {
		e.t.Errorf("handle without a unit of work: %+v", h)
	}
	e.get(in, syncGet)
	after := e.now().Add(e.timeTolerance())
	h, ok := handleByTag(e.handles(), "conf-handle-uow")
	if !ok || !h.UOW || (!h.UOWStart.IsZero() && h.UOWStart.After(after)) {
		e.t.Errorf("handle with a unit of work: %+v", h)
	}
	e.wantNoErr(app.Backout(e.ctx), "backout")
}
