package conformance

import (
	"github.com/poisonwatch/poisonwatch/codec/mqfmt"
	"github.com/poisonwatch/poisonwatch/mqwatch"
)

// Message order: MSGDLVSQ(PRIORITY), the default, delivers by priority and
// first-in first-out within a priority (IBM MQ "The order in which messages are
// retrieved from a queue").
func orderCases() []testCase {
	return []testCase{
		{"priority_then_fifo", testPriorityThenFIFO},
		{"priority_and_persistence_as_queue_definition", testDefaultsFromQueue},
		{"defaults_from_the_alias_opened", testDefaultsFromAlias},
		{"msgdlvsq_fifo_ignores_priority", testFIFOQueue},
		{"priority_above_maxprty_queued_at_maxprty_warning_2049", testPriorityAboveMaxPriority},
	}
}

func testPriorityThenFIFO(e *env) {
	q := e.open(e.admin(), qMain, ooAll)
	for _, m := range []struct {
		body string
		pri  int32
	}{{"p0-a", 0}, {"p5-a", 5}, {"p9", 9}, {"p5-b", 5}, {"p0-b", 0}} {
		e.put(q, m.body, mqwatch.PutOptions{NewMsgId: true}, withPriority(m.pri))
	}
	want := []string{"p9", "p5-a", "p5-b", "p0-a", "p0-b"}
	e.wantBodies(qMain, want...)
	for i, w := range want {
		m := e.get(q, mqwatch.GetOptions{})
		e.wantBody(m, w, "destructive get in delivery order")
		if m.MD.Priority != []int32{9, 5, 5, 0, 0}[i] {
			e.t.Errorf("message %q has Priority %d", w, m.MD.Priority)
		}
	}
}

// MQPRI_PRIORITY_AS_Q_DEF (-1) and MQPER_PERSISTENCE_AS_Q_DEF (2) take the
// queue's DEFPRTY and DEFPSIST when the message is put; the got message
// carries the resolved values and is ordered by them.
func testDefaultsFromQueue(e *env) {
	q := e.open(e.admin(), qOther, ooAll) // DEFPRTY(7) DEFPSIST(YES)
	asDef := func(md *mqfmt.MQMD) { md.Priority = -1; md.Persistence = mqfmt.PerPersistenceAsDef }
	e.put(q, "low", mqwatch.PutOptions{NewMsgId: true}, withPriority(6))
	e.put(q, "as-def", mqwatch.PutOptions{NewMsgId: true}, asDef)
	e.put(q, "high", mqwatch.PutOptions{NewMsgId: true}, withPriority(8))
	e.wantBodies(qOther, "high", "as-def", "low")
	e.get(q, mqwatch.GetOptions{})
	m := e.get(q, mqwatch.GetOptions{})
	e.wantBody(m, "as-def", "second message")
	if m.MD.Priority != 7 || m.MD.Persistence != mqfmt.PerPersistent {
		e.t.Errorf("as-queue-definition message got Priority %d Persistence %d, want 7 and 1 (DEFPRTY(7) DEFPSIST(YES))",
			m.MD.Priority, m.MD.Persistence)
	}

	q1 := e.open(e.admin(), qMain, ooAll) // DEFPRTY(0) DEFPSIST(NO)
	e.put(q1, "as-def", mqwatch.PutOptions{NewMsgId: true}, asDef)
	m = e.get(q1, mqwatch.GetOptions{})
	if m.MD.Priority != 0 || m.MD.Persistence != mqfmt.PerNotPersistent {
		e.t.Errorf("on %s got Priority %d Persistence %d, want 0 and 0", qMain, m.MD.Priority, m.MD.Persistence)
	}
}

// "All DEF* attributes ... configured on alias and remote queue definitions
// take effect when the alias or remote queue is opened" (IBM MQ "How are
// destination object attributes resolved for aliases..."): DEFPRTY and
// DEFPSIST come from the first definition in the resolution path.
func testDefaultsFromAlias(e *env) {
	a := e.open(e.admin(), qAliasDefs, ooOut) // DEFPRTY(6) DEFPSIST(YES) over CONF.Q1 (0, NO)
	e.put(a, "via-alias", mqwatch.PutOptions{NewMsgId: true},
		func(md *mqfmt.MQMD) { md.Priority = -1; md.Persistence = mqfmt.PerPersistenceAsDef })
	m := e.get(e.open(e.admin(), qMain, ooIn), mqwatch.GetOptions{})
	if m.MD.Priority != 6 || m.MD.Persistence != mqfmt.PerPersistent {
		e.t.Errorf("put through %s got Priority %d Persistence %d, want the alias's 6 and 1",
			qAliasDefs, m.MD.Priority, m.MD.Persistence)
	}
}

// MSGDLVSQ(FIFO): messages are delivered in arrival order whatever their
// priority.
func testFIFOQueue(e *env) {
	q := e.open(e.admin(), qFIFO, ooAll)
	e.put(q, "first-low", mqwatch.PutOptions{NewMsgId: true}, withPriority(0))
	e.put(q, "second-high", mqwatch.PutOptions{NewMsgId: true}, withPriority(9))
	e.wantBodies(qFIFO, "first-low", "second-high")
	e.wantBody(e.get(q, mqwatch.GetOptions{}), "first-low", "get from a FIFO queue")
}

// Message descriptor fields MQPUT fills or resolves. MsgId: MQPUT generates one with MQPMO_NEW_MSG_ID or when the caller passes
// MQMI_NONE, keeps a given one otherwise, and writes the value back into the
// caller's MQMD (IBM MQ "MsgId (MQBYTE24)").
func msgIDCases() []testCase {
	return []testCase{
		{"generated_unique_and_written_back", testMsgIDGenerated},
		{"given_msgid_kept", testMsgIDGiven},
		{"none_msgid_generated", testMsgIDNone},
		{"new_msgid_replaces_given", testMsgIDReplaced},
		{"put_ignores_backout_count", testPutIgnoresBackoutCount},
		{"ccsid_q_mgr_is_replaced_on_put", testCCSIDQMgrReplaced},
	}
}

func testMsgIDGenerated(e *env) {
	q := e.open(e.admin(), qMain, ooAll)
	const n = 50
	seen := map[[24]byte]bool{}
	var order [][24]byte
	for i := 0; i < n; i++ {
		md := e.put(q, "m", mqwatch.PutOptions{NewMsgId: true})
		if md.MsgId == ([24]byte{}) {
			e.t.Fatalf("put %d: MsgId not written back into the MQMD", i)
		}
		if seen[md.MsgId] {
			e.t.Fatalf("put %d: MsgId %x generated twice", i, md.MsgId)
		}
		seen[md.MsgId] = true
		order = append(order, md.MsgId)
	}
	for i := 0; i < n; i++ {
		m := e.get(q, mqwatch.GetOptions{})
		if m.MD.MsgId != order[i] {
			e.t.Fatalf("message %d has MsgId %x, put returned %x", i, m.MD.MsgId, order[i])
		}
	}
}

func testMsgIDGiven(e *env) {
	q := e.open(e.admin(), qMain, ooAll)
	md := e.put(q, "given", mqwatch.PutOptions{}, withIDs("GIVEN-1", "CORREL-1"))
	if md.MsgId != id("GIVEN-1") {
		e.t.Errorf("MQPUT changed a given MsgId to %x", md.MsgId)
	}
	m := e.get(q, mqwatch.GetOptions{})
	if m.MD.MsgId != id("GIVEN-1") || m.MD.CorrelId != id("CORREL-1") {
		e.t.Errorf("got MsgId %q CorrelId %q, want GIVEN-1 and CORREL-1", m.MD.MsgId[:], m.MD.CorrelId[:])
	}
}

func testMsgIDNone(e *env) {
	q := e.open(e.admin(), qMain, ooAll)
	md := e.put(q, "none", mqwatch.PutOptions{})
	m := e.get(q, mqwatch.GetOptions{})
	if m.MD.MsgId == ([24]byte{}) {
		e.t.Errorf("MQMI_NONE without MQPMO_NEW_MSG_ID: message has no MsgId, want a generated one")
	}
	if md.MsgId != m.MD.MsgId {
		e.t.Errorf("MQPUT wrote back MsgId %x, message has %x", md.MsgId, m.MD.MsgId)
	}
}

func testMsgIDReplaced(e *env) {
	q := e.open(e.admin(), qMain, ooAll)
	md := e.put(q, "replaced", mqwatch.PutOptions{NewMsgId: true}, withIDs("GIVEN-2", ""))
	m := e.get(q, mqwatch.GetOptions{})
	if m.MD.MsgId == id("GIVEN-2") || m.MD.MsgId == ([24]byte{}) {
		e.t.Errorf("MQPMO_NEW_MSG_ID kept MsgId %q, want a new one", m.MD.MsgId[:])
	}
	if md.MsgId != m.MD.MsgId {
		e.t.Errorf("MQPUT wrote back MsgId %x, message has %x", md.MsgId, m.MD.MsgId)
	}
}

// BackoutCount is an output field of MQGET, ignored on MQPUT: a copy of a
// backed-out message starts again at 0 (what docs/poison-rules.md R10e relies on).
func testPutIgnoresBackoutCount(e *env) {
	q := e.open(e.admin(), qMain, ooAll)
	e.put(q, "bc", mqwatch.PutOptions{NewMsgId: true}, func(md *mqfmt.MQMD) { md.BackoutCount = 7 })
	if m := e.get(q, mqwatch.GetOptions{}); m.MD.BackoutCount != 0 {
		e.t.Errorf("BackoutCount %d after a put with BackoutCount 7, want 0", m.MD.BackoutCount)
	}
}

// MQCCSI_Q_MGR (0) on MQPUT is replaced by a real CCSID, "as a result, the
// value MQCCSI_Q_MGR is never returned by the MQGET call" (MQMD
// CodedCharSetId). The tool copies this CCSID into an added MQRFH2 (R5b).
func testCCSIDQMgrReplaced(e *env) {
	q := e.open(e.admin(), qMain, ooAll)
	e.put(q, "ccsid", mqwatch.PutOptions{NewMsgId: true}, func(md *mqfmt.MQMD) { md.CodedCharSetId = 0 })
	if m := e.get(q, mqwatch.GetOptions{}); m.MD.CodedCharSetId <= 0 {
		e.t.Errorf("CodedCharSetId %d returned, want the real CCSID that replaced MQCCSI_Q_MGR", m.MD.CodedCharSetId)
	}
}
