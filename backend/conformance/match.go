package conformance

import (
	"time"

	"github.com/poisonwatch/poisonwatch/codec/mqfmt"
	"github.com/poisonwatch/poisonwatch/mqwatch"
)

// Getting a chosen message (MQMO_MATCH_MSG_ID, MQMO_MATCH_CORREL_ID): the
// first message in delivery order that matches every identifier given.
func matchCases() []testCase {
	return []testCase{
		{"by_msgid_correlid_and_both_with_duplicates", testMatch},
		{"duplicate_msgids_follow_priority", testMatchPriority},
	}
}

func testMatch(e *env) {
	q := e.open(e.admin(), qMain, ooAll)
	for _, m := range []struct{ body, msgID, correlID string }{
		{"m1", "X", "C1"}, {"m2", "Y", "C2"}, {"m3", "X", "C2"}, {"m4", "Z", "C1"}, {"m5", "X", "C1"},
	} {
		e.put(q, m.body, mqwatch.PutOptions{}, withIDs(m.msgID, m.correlID))
	}
	x, y, c1, c2 := id("X"), id("Y"), id("C1"), id("C2")
	steps := []struct {
		what     string
		msgID    *[24]byte
		correlID *[24]byte
		want     string // "" = MQRC_NO_MSG_AVAILABLE
	}{
		{"by MsgId", &y, nil, "m2"},
		{"by MsgId and CorrelId, skipping an earlier duplicate MsgId", &x, &c2, "m3"},
		{"by a duplicate MsgId: the first in order", &x, nil, "m1"},
		{"by CorrelId: the first in order", nil, &c1, "m4"},
		{"by MsgId and CorrelId: the last duplicate", &x, &c1, "m5"},
		{"by MsgId once every duplicate is gone", &x, nil, ""},
	}
	for _, s := range steps {
		m, err := q.Get(e.ctx, mqwatch.GetOptions{MsgId: s.msgID, CorrelId: s.correlID})
		if s.want == "" {
			e.wantReason(err, mqfmt.RCNoMsgAvailable, s.what)
			continue
		}
		if err != nil {
			e.t.Errorf("%s: %v", s.what, err)
			continue
		}
		e.wantBody(m, s.want, s.what)
	}
	e.wantBodies(qMain)
}

func testMatchPriority(e *env) {
	q := e.open(e.admin(), qMain, ooAll)
	e.put(q, "low", mqwatch.PutOptions{}, withIDs("DUP", ""), withPriority(1))
	e.put(q, "other", mqwatch.PutOptions{}, withIDs("ELSE", ""), withPriority(9))
	e.put(q, "high", mqwatch.PutOptions{}, withIDs("DUP", ""), withPriority(8))
	dup := id("DUP")
	e.wantBody(e.get(q, mqwatch.GetOptions{MsgId: &dup}), "high", "first DUP in delivery order")
	e.wantBody(e.get(q, mqwatch.GetOptions{MsgId: &dup}), "low", "second DUP")
	e.wantBodies(qMain, "other")
}

// Expiry (MQMD Expiry, in tenths of a second): an expired message is never
// returned; it is discarded when a browse or get would have returned it, and
// the Expiry a get returns is what remains of the original.
func expiryCases() []testCase {
	return []testCase{
		{"expired_message_is_never_returned", testExpiryRealTime},
		{"expired_message_removed_when_reached", testExpiryRemoved},
		{"expiry_counts_down", testExpiryCountsDown},
	}
}

func withExpiry(tenths int32) func(*mqfmt.MQMD) {
	return func(md *mqfmt.MQMD) { md.Expiry = tenths }
}

// testExpiryRealTime needs no clock capability, so it also runs against a
// real queue manager.
func testExpiryRealTime(e *env) {
	q := e.open(e.admin(), qMain, ooAll)
	e.put(q, "short-lived", mqwatch.PutOptions{NewMsgId: true}, withExpiry(2), withPriority(9))
	e.put(q, "lasting", mqwatch.PutOptions{NewMsgId: true})
	time.Sleep(700 * time.Millisecond) // 0.2 s expiry, well past
	e.wantBrowse(q, bFirst, "lasting", "browse after the first message expired")
	e.wantBody(e.get(q, mqwatch.GetOptions{}), "lasting", "get after expiry")
	_, err := q.Get(e.ctx, mqwatch.GetOptions{})
	e.wantReason(err, mqfmt.RCNoMsgAvailable, "nothing left")
}

func testExpiryRemoved(e *env) {
	clock := capability[Clock](e, "clock")
	q := e.open(e.admin(), qMain, ooAll)
	e.put(q, "expires", mqwatch.PutOptions{NewMsgId: true}, withExpiry(10), withPriority(9))
	e.put(q, "stays", mqwatch.PutOptions{NewMsgId: true})
	clock.Advance(2 * time.Second)
	e.wantBrowse(q, bFirst, "stays", "browse skips the expired message")
	e.wantDepth(qMain, 1, 0, "after a browse reached the expired message")
}

func testExpiryCountsDown(e *env) {
	clock := capability[Clock](e, "clock")
	q := e.open(e.admin(), qMain, ooAll)
	e.put(q, "ten-seconds", mqwatch.PutOptions{NewMsgId: true}, withExpiry(100))
	clock.Advance(3 * time.Second)
	m := e.browse(q, bFirst)
	if m.MD.Expiry < 60 || m.MD.Expiry > 70 {
		e.t.Errorf("Expiry %d after 3 s of 10 s, want the remaining 70 tenths (within a second)", m.MD.Expiry)
	}
	clock.Advance(8 * time.Second)
	_, err := q.Get(e.ctx, mqwatch.GetOptions{})
	e.wantReason(err, mqfmt.RCNoMsgAvailable, "get after the whole expiry passed")
}
