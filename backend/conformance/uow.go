package conformance

import (
	"github.com/poisonwatch/poisonwatch/codec/mqfmt"
	"github.com/poisonwatch/poisonwatch/mqwatch"
)

// Units of work (IBM MQ "Committing and backing out units of work", MQCMIT,
// MQBACK, CurrentQDepth, DISPLAY QSTATUS UNCOM).
func uowCases() []testCase {
	return []testCase{
		{"get_under_syncpoint_invisible_until_commit", testGetSyncpointInvisible},
		{"backout_restores_order_and_increments_backout_count", testBackoutRestoresOrder},
		{"backout_count_accumulates", testBackoutCountAccumulates},
		{"put_under_syncpoint_invisible_until_commit", testPutSyncpointInvisible},
		{"backout_discards_uncommitted_put", testBackoutDiscardsPut},
		{"close_with_open_uow_backs_out", testCloseBacksOut},
		{"curdepth_and_uncom_as_ibm_defines", testDepthAndUncom},
		{"commit_and_backout_without_uow_succeed", testEmptyUOW},
		{"backout_may_take_depth_past_maxdepth", testBackoutPastMaxDepth},
		{"batch_move_is_all_or_nothing", testBatchMove},
	}
}

var syncGet = mqwatch.GetOptions{Syncpoint: true}

func testGetSyncpointInvisible(e *env) {
	e.putTo(qMain, "a", "b")
	c1 := e.connect(UserAdmin, "conf-uow-1")
	m := e.get(e.open(c1, qMain, ooIn), syncGet)
	e.wantBody(m, "a", "get under syncpoint")

	q2 := e.open(e.connect(UserAdmin, "conf-uow-2"), qMain, ooInBrw)
	e.wantBody(e.browse(q2, mqwatch.BrowseOptions{First: true}), "b", "another connection's browse")
	_, err := q2.Get(e.ctx, mqwatch.GetOptions{MsgId: &m.MD.MsgId})
	e.wantReason(err, mqfmt.RCNoMsgAvailable, "another connection's get by the MsgId of an uncommitted get")
	e.wantDepth(qMain, 1, 1, "while the get is uncommitted") // held, not gone

	e.wantNoErr(c1.Commit(e.ctx), "commit")
	e.wantDepth(qMain, 1, 0, "after commit")
	e.wantBodies(qMain, "b")
}

func testBackoutRestoresOrder(e *env) {
	e.putTo(qMain, "a", "b", "c")
	c1 := e.connect(UserAdmin, "conf-uow-1")
	held := e.get(e.open(c1, qMain, ooIn), syncGet)
	e.wantBody(held, "a", "get under syncpoint")
	q2 := e.open(e.connect(UserAdmin, "conf-uow-2"), qMain, ooIn)
	e.wantBody(e.get(q2, mqwatch.GetOptions{}), "b", "another connection's get while a is held")
	e.wantNoErr(c1.Backout(e.ctx), "backout")

	m := e.get(q2, mqwatch.GetOptions{})
	e.wantBody(m, "a", "first get after backout (original position)")
	if m.MD.BackoutCount != 1 {
		e.t.Errorf("backed-out message has BackoutCount %d, want 1", m.MD.BackoutCount)
	}
	if m.MD.MsgId != held.MD.MsgId || m.MD.PutDate != held.MD.PutDate || m.MD.PutTime != held.MD.PutTime {
		e.t.Errorf("backout changed the message: MsgId %x put %s %s, was %x %s %s",
			m.MD.MsgId, m.MD.PutDate, m.MD.PutTime, held.MD.MsgId, held.MD.PutDate, held.MD.PutTime)
	}
	m = e.get(q2, mqwatch.GetOptions{})
	e.wantBody(m, "c", "next message")
	if m.MD.BackoutCount != 0 {
		e.t.Errorf("untouched message has BackoutCount %d, want 0", m.MD.BackoutCount)
	}
}

func testBackoutCountAccumulates(e *env) {
	e.putTo(qMain, "poison")
	c := e.connect(UserAdmin, "conf-uow")
	q := e.open(c, qMain, ooInBrw)
	for i := int32(0); i < 3; i++ {
		m := e.get(q, syncGet)
		if m.MD.BackoutCount != i {
			e.t.Errorf("delivery %d: BackoutCount %d, want %d", i+1, m.MD.BackoutCount, i)
		}
		e.wantNoErr(c.Backout(e.ctx), "backout")
	}
	if m := e.browse(q, mqwatch.BrowseOptions{First: true}); m.MD.BackoutCount != 3 {
		e.t.Errorf("after three backouts BackoutCount %d, want 3", m.MD.BackoutCount)
	}
}

func testPutSyncpointInvisible(e *env) {
	c1 := e.connect(UserAdmin, "conf-uow-1")
	e.put(e.open(c1, qMain, ooOut), "u", mqwatch.PutOptions{Syncpoint: true, NewMsgId: true})
	q2 := e.open(e.connect(UserAdmin, "conf-uow-2"), qMain, ooInBrw)
	_, err := q2.Browse(e.ctx, mqwatch.BrowseOptions{First: true})
	e.wantReason(err, mqfmt.RCNoMsgAvailable, "browse of an uncommitted put")
	_, err = q2.Get(e.ctx, mqwatch.GetOptions{})
	e.wantReason(err, mqfmt.RCNoMsgAvailable, "get of an uncommitted put")
	e.wantDepth(qMain, 1, 1, "uncommitted put")
	e.wantNoErr(c1.Commit(e.ctx), "commit")
	e.wantBody(e.get(q2, mqwatch.GetOptions{}), "u", "get after commit")
}

func testBackoutDiscardsPut(e *env) {
	c := e.connect(UserAdmin, "conf-uow")
	e.put(e.open(c, qMain, ooOut), "x", mqwatch.PutOptions{Syncpoint: true, NewMsgId: true})
	e.wantNoErr(c.Backout(e.ctx), "backout")
	e.wantBodies(qMain)
	e.wantDepth(qMain, 0, 0, "after backout of a put")
}

// The port's Close backs the unit of work out. A bare MQDISC on IBM MQ
// commits it when it can (MQDISC usage notes), which would lose a message
// half-way through a move: an IBM MQ backend must issue MQBACK before MQDISC.
func testCloseBacksOut(e *env) {
	e.putTo(qMain, "a")
	c := e.connect(UserAdmin, "conf-uow")
	e.get(e.open(c, qMain, ooIn), syncGet)
	e.put(e.open(c, qOther, ooOut), "moved", mqwatch.PutOptions{Syncpoint: true, NewMsgId: true})
	e.wantNoErr(c.Close(), "close with an open unit of work")

	q := e.open(e.admin(), qMain, ooBrowse)
	m := e.browse(q, mqwatch.BrowseOptions{First: true})
	e.wantBody(m, "a", "message got in the closed connection's unit of work")
	if m.MD.BackoutCount != 1 {
		e.t.Errorf("BackoutCount %d after close backed out, want 1", m.MD.BackoutCount)
	}
	e.wantBodies(qOther)
}

// CurrentQDepth counts uncommitted puts and excludes uncommitted gets; UNCOM is
// the number of uncommitted puts and gets.
func testDepthAndUncom(e *env) {
	e.putTo(qMain, "a", "b", "c")
	e.wantDepth(qMain, 3, 0, "three committed messages")
	c := e.connect(UserAdmin, "conf-uow")
	in := e.open(c, qMain, ooIn)
	out := e.open(c, qMain, ooOut)
	e.get(in, syncGet)
	e.wantDepth(qMain, 2, 1, "after a get under syncpoint")
	e.put(out, "d", mqwatch.PutOptions{Syncpoint: true, NewMsgId: true})
	e.wantDepth(qMain, 3, 2, "after a put under syncpoint")
	e.wantNoErr(c.Commit(e.ctx), "commit")
	e.wantDepth(qMain, 3, 0, "after commit")
	e.get(in, syncGet)
	e.wantDepth(qMain, 2, 1, "after another get under syncpoint")
	e.wantNoErr(c.Backout(e.ctx), "backout")
	e.wantDepth(qMain, 3, 0, "after backout")
	e.wantBodies(qMain, "b", "c", "d")
}

func testEmptyUOW(e *env) {
	c := e.connect(UserAdmin, "conf-uow")
	e.wantNoErr(c.Commit(e.ctx), "commit with no unit of work")
	e.wantNoErr(c.Backout(e.ctx), "backout with no unit of work")
}

// "Unit-of-work processing ... can cause CurrentQDepth to exceed MaxQDepth"
// (CurrentQDepth): a backed-out get returns its message even to a full queue.
func testBackoutPastMaxDepth(e *env) {
	e.putTo(qSmall, "a", "b") // MAXDEPTH(2)
	c := e.connect(UserAdmin, "conf-uow")
	e.get(e.open(c, qSmall, ooIn), syncGet)
	out := e.open(e.admin(), qSmall, ooOut)
	e.put(out, "c", mqwatch.PutOptions{NewMsgId: true})
	md := newMD()
	e.wantReason(out.Put(e.ctx, &md, []byte("d"), mqwatch.PutOptions{NewMsgId: true}), mqfmt.RCQFull, "put to a full queue")
	e.wantNoErr(c.Backout(e.ctx), "backout")
	e.wantDepth(qSmall, 3, 0, "after backout into a full queue")
	e.wantBodies(qSmall, "a", "b", "c")
}

// moveBatch gets every message of qMain under syncpoint and puts each to
// qOther under syncpoint, as one unit of work (docs/poison-rules.md R10a).
func (e *env) moveBatch(c mqwatch.Conn, n int) {
	e.t.Helper()
	src := e.open(c, qMain, ooIn)
	dst := e.open(c, qOther, ooOut)
	for i := 0; i < n; i++ {
		m := e.get(src, syncGet)
		md := m.MD
		e.wantNoErr(dst.Put(e.ctx, &md, m.Data, mqwatch.PutOptions{Syncpoint: true}), "put under syncpoint")
	}
}

func testBatchMove(e *env) {
	e.putTo(qMain, "m1", "m2", "m3")
	c := e.connect(UserAdmin, "conf-move")
	e.moveBatch(c, 3)
	e.wantDepth(qMain, 0, 3, "source during the batch")
	e.wantDepth(qOther, 3, 3, "target during the batch")
	e.wantNoErr(c.Backout(e.ctx), "backout the batch")
	e.wantBodies(qMain, "m1", "m2", "m3")
	e.wantBodies(qOther)

	e.moveBatch(c, 3)
	e.wantNoErr(c.Commit(e.ctx), "commit the batch")
	e.wantBodies(qMain)
	e.wantBodies(qOther, "m1", "m2", "m3")
	m := e.browse(e.open(e.admin(), qOther, ooBrowse), bFirst)
	if m.MD.BackoutCount != 0 {
		e.t.Errorf("moved copy has BackoutCount %d, want 0 (a put starts at 0)", m.MD.BackoutCount)
	}
}
