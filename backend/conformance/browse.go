package conformance

import (
	"strings"

	"github.com/poisonwatch/poisonwatch/codec/mqfmt"
	"github.com/poisonwatch/poisonwatch/mqwatch"
)

// Browsing (IBM MQ "The browse cursor", MQGMO_ACCEPT_TRUNCATED_MSG,
// MQGMO_UNMARKED_BROWSE_MSG with MQGMO_MARK_BROWSE_HANDLE).
func browseCases() []testCase {
	return []testCase{
		{"first_next_in_delivery_order", testBrowseFirstNext},
		{"next_on_a_new_handle_starts_at_the_head", testBrowseNextFresh},
		{"truncated_browse_reports_full_length", testBrowseTruncated},
		{"get_truncated_2080_keeps_message", testGetTruncatedFails},
		{"get_accept_truncated_removes_message", testGetAcceptTruncated},
		{"mark_browse_returns_unmarked_and_new_arrivals", testMarkBrowse},
		{"marks_belong_to_the_handle", testMarksPerHandle},
		{"backed_out_at_the_mark_position_returns_unmarked", testBackedOutAtMarkPosition},
	}
}

var (
	bFirst = mqwatch.BrowseOptions{First: true}
	bNext  = mqwatch.BrowseOptions{}
)

// wantBrowse checks that a browse returns body.
func (e *env) wantBrowse(q mqwatch.Queue, o mqwatch.BrowseOptions, body, what string) mqwatch.Message {
	e.t.Helper()
	m := e.browse(q, o)
	e.wantBody(m, body, what)
	return m
}

// wantBrowseEnd checks that a browse finds no (more) message.
func (e *env) wantBrowseEnd(q mqwatch.Queue, o mqwatch.BrowseOptions, what string) {
	e.t.Helper()
	m, err := q.Browse(e.ctx, o)
	if err == nil {
		e.t.Errorf("%s: got message %q, want %s", what, m.Data, mqfmt.RCNoMsgAvailable.Describe())
		return
	}
	e.wantReason(err, mqfmt.RCNoMsgAvailable, what)
}

func testBrowseFirstNext(e *env) {
	q := e.open(e.admin(), qMain, ooAll)
	e.put(q, "a", mqwatch.PutOptions{NewMsgId: true})
	e.put(q, "b", mqwatch.PutOptions{NewMsgId: true}, withPriority(5))
	e.put(q, "c", mqwatch.PutOptions{NewMsgId: true})
	e.wantBrowse(q, bFirst, "b", "browse first")
	e.wantBrowse(q, bNext, "a", "browse next")
	e.wantBrowse(q, bNext, "c", "browse next")
	e.wantBrowseEnd(q, bNext, "browse next past the last message")
	e.put(q, "d", mqwatch.PutOptions{NewMsgId: true})
	e.wantBrowse(q, bNext, "d", "browse next after a new arrival")
	e.wantBrowse(q, bFirst, "b", "browse first again")
	e.wantDepth(qMain, 4, 0, "browsing removes nothing")
}

// MQOPEN positions the cursor before the first message, so BROWSE_NEXT on a
// new handle returns the head.
func testBrowseNextFresh(e *env) {
	e.putTo(qMain, "a", "b")
	q := e.open(e.admin(), qMain, ooBrowse)
	e.wantBrowse(q, bNext, "a", "first browse-next on a new handle")
}

func testBrowseTruncated(e *env) {
	long := strings.Repeat("0123456789", 10)
	e.putTo(qMain, long, "second")
	q := e.open(e.admin(), qMain, ooBrowse)
	m, err := q.Browse(e.ctx, mqwatch.BrowseOptions{First: true, MaxBytes: 10})
	e.wantNoErr(err, "browse with a 10-byte buffer (accept truncated)")
	if string(m.Data) != long[:10] || m.Length != 100 || !m.Truncated() {
		e.t.Errorf("truncated browse: data %q length %d, want %q and the full length 100", m.Data, m.Length, long[:10])
	}
	e.wantBrowse(q, bNext, "second", "browse next after a truncated browse")
	m = e.wantBrowse(q, bFirst, long, "browse first with no bound")
	if m.Length != 100 || m.Truncated() {
		e.t.Errorf("whole browse: length %d truncated %v", m.Length, m.Truncated())
	}
}

// MQRC_TRUNCATED_MSG_FAILED: without ACCEPT_TRUNCATED_MSG a destructive get of a
// message larger than the buffer fails and leaves the message on the queue.
func testGetTruncatedFails(e *env) {
	long := strings.Repeat("x", 100)
	e.putTo(qMain, long)
	q := e.open(e.admin(), qMain, ooIn)
	_, err := q.Get(e.ctx, mqwatch.GetOptions{MaxBytes: 10})
	e.wantReason(err, mqfmt.RCTruncatedMsgFailed, "get of 100 bytes into 10")
	m := e.get(q, mqwatch.GetOptions{})
	e.wantBody(m, long, "the message is still there, whole")
}

func testGetAcceptTruncated(e *env) {
	long := strings.Repeat("y", 100)
	e.putTo(qMain, long)
	q := e.open(e.admin(), qMain, ooIn)
	m, err := q.Get(e.ctx, mqwatch.GetOptions{MaxBytes: 10, AcceptTruncated: true})
	e.wantNoErr(err, "get with ACCEPT_TRUNCATED_MSG")
	if string(m.Data) != long[:10] || m.Length != 100 {
		e.t.Errorf("truncated get: data %q length %d, want %q and 100", m.Data, m.Length, long[:10])
	}
	e.wantBodies(qMain)
}

var unmarked = mqwatch.BrowseOptions{First: true, Unmarked: true}

// The watcher's incremental read: each pass browses first-unmarked until 2033,
// so it sees exactly the messages it has not seen, wherever they sit.
func testMarkBrowse(e *env) {
	q := e.open(e.admin(), qMain, ooAll)
	e.putAll(q, "a", "b")
	e.wantBrowse(q, unmarked, "a", "first unmarked")
	e.wantBrowse(q, unmarked, "b", "second unmarked")
	e.wantBrowseEnd(q, unmarked, "all marked")
	e.putAll(q, "c")
	e.put(q, "urgent", mqwatch.PutOptions{NewMsgId: true}, withPriority(9))
	e.wantBrowse(q, unmarked, "urgent", "new arrival ahead of marked messages")
	e.wantBrowse(q, unmarked, "c", "new arrival behind marked messages")
	e.wantBrowseEnd(q, unmarked, "all marked again")
	e.wantBrowse(q, bFirst, "urgent", "a plain browse still sees marked messages")
	e.wantBrowse(q, bNext, "a", "a plain browse still sees marked messages")
}

func testMarksPerHandle(e *env) {
	e.putTo(qMain, "a", "b")
	q1 := e.open(e.admin(), qMain, ooBrowse)
	e.wantBrowse(q1, unmarked, "a", "handle 1")
	e.wantBrowse(q1, unmarked, "b", "handle 1")
	q2 := e.open(e.admin(), qMain, ooBrowse)
	e.wantBrowse(q2, unmarked, "a", "handle 2 ignores handle 1's marks")
	e.closeQ(q1)
	q3 := e.open(e.admin(), qMain, ooBrowse)
	e.wantBrowse(q3, unmarked, "a", "a new handle starts unmarked")
}

// Get under the browse cursor (MQGMO_MSG_UNDER_CURSOR, MQRC_NO_MSG_UNDER_CURSOR):
// the way an operator acts on exactly the message they saw.
func cursorCases() []testCase {
	return []testCase{
		{"get_under_cursor_removes_browsed_message", testGetUnderCursor},
		{"under_cursor_taken_by_another_2034", testUnderCursorTaken},
		{"under_cursor_before_any_browse_2034", testUnderCursorNoBrowse},
	}
}

var underCursor = mqwatch.GetOptions{UnderCursor: true}

func testGetUnderCursor(e *env) {
	e.putTo(qMain, "a", "b", "c")
	q := e.open(e.admin(), qMain, ooInBrw)
	e.wantBrowse(q, bFirst, "a", "browse first")
	m := e.wantBrowse(q, bNext, "b", "browse next")
	got := e.get(q, underCursor)
	e.wantBody(got, "b", "get under cursor")
	if got.MD.MsgId != m.MD.MsgId {
		e.t.Errorf("get under cursor returned MsgId %x, browsed %x", got.MD.MsgId, m.MD.MsgId)
	}
	_, err := q.Get(e.ctx, underCursor)
	e.wantReason(err, mqfmt.RCNoMsgUnderCursor, "second get under the same cursor")
	e.wantBrowse(q, bNext, "c", "browse next continues after the removed message")
	e.wantBodies(qMain, "a", "c")
}

func testUnderCursorTaken(e *env) {
	e.putTo(qMain, "a", "b")
	q := e.open(e.connect(UserAdmin, "conf-cursor"), qMain, ooInBrw)
	m := e.wantBrowse(q, bFirst, "a", "browse first")
	other := e.open(e.connect(UserAdmin, "conf-other"), qMain, ooIn)
	e.get(other, mqwatch.GetOptions{MsgId: &m.MD.MsgId})
	_, err := q.Get(e.ctx, underCursor)
	e.wantReason(err, mqfmt.RCNoMsgUnderCursor, "get under cursor of a message another connection took")
	e.wantBodies(qMain, "b")
}

func testUnderCursorNoBrowse(e *env) {
	e.putTo(qMain, "a")
	q := e.open(e.admin(), qMain, ooInBrw)
	_, err := q.Get(e.ctx, underCursor)
	e.wantReason(err, mqfmt.RCNoMsgUnderCursor, "get under cursor before any browse")
	e.wantBodies(qMain, "a")
}
