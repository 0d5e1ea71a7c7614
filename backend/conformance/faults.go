package conformance

import (
	"github.com/poisonwatch/poisonwatch/codec/mqfmt"
	"github.com/poisonwatch/poisonwatch/mqwatch"
)

// Failures the watcher and the engine must survive.
func faultCases() []testCase {
	return []testCase{
		{"broken_connection_2009_and_uow_backed_out", testBrokenConnection},
	}
}

// A broken connection fails every later call with MQRC_CONNECTION_BROKEN and
// the queue manager backs out its unit of work, incrementing BackoutCount:
// the guarantee that a move interrupted mid-batch loses and duplicates
// nothing (docs/poison-rules.md R10a).
func testBrokenConnection(e *env) {
	breaker := capability[ConnectionBreaker](e, "connection-breaking")
	e.putTo(qMain, "in-flight")
	c := e.connect(UserAdmin, "conf-broken")
	in := e.open(c, qMain, ooInBrw)
	out := e.open(c, qOther, ooOut)
	e.get(in, syncGet)
	e.put(out, "half-moved", mqwatch.PutOptions{Syncpoint: true, NewMsgId: true})
	e.wantNoErr(breaker.BreakConnection(c), "break the connection")

	_, err := c.QMgr(e.ctx)
	e.wantReason(err, mqfmt.RCConnectionBroken, "inquire on a broken connection")
	_, err = in.Browse(e.ctx, bFirst)
	e.wantReason(err, mqfmt.RCConnectionBroken, "browse on a broken connection")
	e.wantReason(e.putErr(out, "more", mqwatch.PutOptions{}), mqfmt.RCConnectionBroken, "put on a broken connection")
	e.wantReason(c.Commit(e.ctx), mqfmt.RCConnectionBroken, "commit on a broken connection")

	m := e.browse(e.open(e.admin(), qMain, ooBrowse), bFirst)
	e.wantBody(m, "in-flight", "message got under the broken connection's unit of work")
	if m.MD.BackoutCount != 1 {
		e.t.Errorf("BackoutCount %d after the broken connection's unit of work was backed out, want 1", m.MD.BackoutCount)
	}
	e.wantBodies(qOther)
	e.wantDepth(qMain, 1, 0, "after the backout")

	_ = c.Close() // must return; its result on a dead connection does not matter
	again := e.connect(UserAdmin, "conf-reconnected")
	if _, err := again.QMgr(e.ctx); err != nil {
		e.t.Errorf("a new connection after the break: %v", err)
	}
}
