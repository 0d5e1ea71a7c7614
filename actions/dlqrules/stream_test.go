package dlqrules

import (
	"encoding/binary"
	"fmt"
	"strings"
	"testing"

	"github.com/poisonwatch/poisonwatch/actions"
	"github.com/poisonwatch/poisonwatch/codec/mqfmt"
	"github.com/poisonwatch/poisonwatch/mqwatch"
)

// mixedMQSC adds to the fixture's queue manager what a mixed DEADQ meets:
// a queue with room for five, one through an alias, one that takes small
// messages only, and a JMS consumer's input queue whose BOQ is full.
const mixedMQSC = `
DEFINE QLOCAL(LIMITED.Q) MAXDEPTH(5)
DEFINE QALIAS(LIMITED.ALIAS) TARGET(LIMITED.Q)
DEFINE QLOCAL(SMALL.IN) MAXMSGL(80)
DEFINE QLOCAL(JMS.BO) MAXDEPTH(1)
DEFINE QLOCAL(JMS.IN) BOTHRESH(3) BOQNAME(JMS.BO)
`

// mixedTables are tables of every kind of rule over the mixed DEADQ: two
// rules sending to one queue (requests split to keep the queue's order),
// targets that fill, & references, PUTAUT(CTX), fields a summary lacks, a
// loop to the DEADQ, remote queue managers, a FWD that keeps the MQDLH,
// a fallback for what fails.
var mixedTables = []string{`
REASON(MQRC_Q_FULL) ACTION(RETRY) RETRY(3)
DESTQ(PAYMENTS.*) ACTION(FWD) FWDQ(LIMITED.Q) HEADER(NO)
DESTQ(ORDERS.IN) APPLNAME('billing*') ACTION(FWD) FWDQ(LIMITED.ALIAS)
REASON(MQRC_BACKOUT_THRESHOLD_REACHED) ACTION(RETRY)
DESTQ(SECURE.Q) ACTION(RETRY) PUTAUT(CTX)
DESTQ(SMALL.IN) ACTION(RETRY)
APPLNAME('audit') DESTQ(OFF.IN) ACTION(IGNORE)
APPLNAME('billing*') DESTQ(OFF.IN) ACTION(FWD) FWDQ(&REPLYQ)
DESTQM(QM2) ACTION(FWD) FWDQ(&DESTQ) FWDQM(&DESTQM)
MSGTYPE(MQMT_REQUEST) ACTION(DISCARD)
DESTQ(QM1.DEADQ) ACTION(RETRY)
DESTQ(GONE.*) ACTION(RETRY)
PERSIST(MQPER_NOT_PERSISTENT) ACTION(FWD) FWDQ(PARKING.Q) HEADER(YES)
ACTION(FWD) FWDQ(LIMITED.Q)
ACTION(IGNORE)
`, `
ACTION(RETRY)
`, `
DESTQ(NEVER.*) ACTION(DISCARD)
REASON(MQRC_NOT_AUTHORIZED) ACTION(RETRY) PUTAUT(DEF)
DESTQ(FULL.IN) ACTION(FWD) FWDQ(LIMITED.Q) HEADER(NO)
DESTQ(ORDERS.IN) ACTION(FWD) FWDQ(LIMITED.Q) HEADER(NO)
ACTION(FWD) FWDQ(NOPE.Q)
`}

// mixedDeadQ puts n dead letters of every kind on the fixture's DEADQ:
// reasons, destinations (full, put-inhibited, missing, secured, small,
// remote, the DEADQ itself, a JMS consumer's), writers, users, lengths,
// expiries, persistence and message types, and 300 destinations that do
// not exist (more targets than one plan opens).
func mixedDeadQ(t *testing.T, f *fixture, n int) {
	f.qm.MQSC(mixedMQSC)
	f.put("FULL.IN", "fills it")
	f.put("JMS.BO", "fills it")
	reasons := []mqfmt.Reason{mqfmt.RCQFull, mqfmt.RCPutInhibited, mqfmt.RCUnknownObjectName, mqfmt.RCNotAuthorized,
		mqfmt.RCBackoutThresholdReached, mqfmt.RCJMSFormatError, mqfmt.Reason(2189)}
	dests := []string{"ORDERS.IN", "PAYMENTS.IN", "FULL.IN", "OFF.IN", "NOPE.IN", "SECURE.Q", "SMALL.IN", "JMS.IN",
		"QM1.DEADQ", "PARKING.Q", "LIMITED.Q"}
	for i := range n {
		md := mqfmt.NewMQMD()
		md.Format, md.Persistence, md.MsgType = mqfmt.FmtString, mqfmt.PerPersistent, mqfmt.MTDatagram
		binary.BigEndian.PutUint64(md.MsgId[16:], uint64(i+1))
		md.PutApplName = []string{"orders-app", "billing-app", "audit"}[i%3]
		md.UserIdentifier = []string{"alice", "bob"}[i/5%2]
		if i%11 == 0 {
			md.Persistence = mqfmt.PerNotPersistent
		}
		if i%13 == 0 {
			md.MsgType, md.ReplyToQ = mqfmt.MTRequest, "REPLY.Q"
		}
		if i%17 == 0 {
			md.Expiry = int32(600000 + i%3)
		}
		dest, destQM := dests[i/2%len(dests)], "QM1"
		switch {
		case i%19 == 0:
			destQM = "QM2"
		case i%23 == 0:
			dest = fmt.Sprintf("GONE.%03d", i%300)
		}
		body := fmt.Appendf(nil, `{"n":%d,"pad":"%s"}`, i, strings.Repeat("x", i%4*20))
		writer := []string{"amqrmppa", "orders-consumer"}[i%2]
		dmd, data, err := actions.ToDeadLetter(md, body, actions.DeadLetterOptions{Reason: reasons[i%len(reasons)],
			DestQName: dest, DestQMgrName: destQM, PutApplType: mqfmt.ATUnix, PutApplName: writer, Now: f.clk.Now()})
		if err != nil {
			t.Fatal(err)
		}
		f.qm.Put("QM1.DEADQ", dmd, data)
	}
	for i := range 300 { // one message to each of 300 missing queues: more targets than a plan opens
		f.dead(n+i, fmt.Sprintf("GONE.%03d", i), mqfmt.RCQFull, nil)
	}
}

// inventoryOf is the DEADQ as the dashboard's watcher holds it.
func inventoryOf(f *fixture) *mqwatch.Inventory {
	var sums []mqwatch.Summary
	for i, m := range f.browse("QM1.DEADQ") {
		s := mqwatch.Summarize(&m)
		s.Arrival, s.BodyPrefix = uint64(i+1), nil
		sums = append(sums, s)
	}
	return (*mqwatch.Inventory)(nil).Append(sums...)
}

// PredictInventory, kind by kind, says of every message of a mixed DEADQ
// what Predict says of it listed one by one, for tables that split
// requests, fill targets, fall to the next rule, open targets refused or
// unknown, come back, loop and are dead-lettered again; its distinct
// verdicts are numbered as the messages first meet them.
func TestPredictInventoryEqualsPredictOnAMixedDeadQ(t *testing.T) {
	f := newFixture(t)
	mixedDeadQ(t, f, 700)
	inv := inventoryOf(f)
	subs := make([]Subject, inv.Len())
	for i := range subs {
		subs[i] = SubjectOfSummary(inv.At(i))
	}
	src := f.source("ops")
	seen := map[Prediction]int{}
	var noRoom, atMax, thens, uncertain int
	for n, text := range mixedTables {
		tb := mustParse(t, text)
		want, err := Predict(f.ctx, src, tb, "QM1.DEADQ", subs)
		if err != nil {
			t.Fatal(err)
		}
		got, err := PredictInventory(f.ctx, src, tb, "QM1.DEADQ", inv)
		if err != nil {
			t.Fatal(err)
		}
		if len(got.At) != len(want) {
			t.Fatalf("table %d: %d verdicts, want %d", n+1, len(got.At), len(want))
		}
		first := map[Verdict]bool{}
		var order []Verdict
		for i := range want {
			if g := got.Of(i); *g != want[i] {
				t.Fatalf("table %d, message %d:\nkind by kind %+v\none by one   %+v", n+1, i, *g, want[i])
			}
			if !first[want[i]] {
				first[want[i]] = true
				order = append(order, want[i])
			}
			v := &want[i]
			seen[v.Predicted]++
			noRoom += strings.Count(v.Outcome+v.Then, "no room:")
			atMax += strings.Count(v.Outcome+v.Then, "is at MAXDEPTH")
			thens += min(len(v.Then), 1)
			uncertain += map[bool]int{false: 1}[v.Certain]
		}
		if fmt.Sprint(order) != fmt.Sprint(got.Distinct) {
			t.Errorf("table %d: distinct verdicts\n%v\nwant, in the order the messages meet them,\n%v", n+1, got.Distinct, order)
		}
	}
	// The DEADQ and the tables meet every outcome the preview predicts.
	for p := WouldSucceed; p <= WouldComeBack; p++ {
		if seen[p] == 0 {
			t.Errorf("no verdict of kind %d: the test does not exercise it (%v)", p, seen)
		}
	}
	if noRoom == 0 || atMax == 0 || thens == 0 || uncertain == 0 {
		t.Errorf("no room %d, at MAXDEPTH %d, thens %d, uncertain %d: want some of each", noRoom, atMax, thens, uncertain)
	}
}

// A request whose batches name more targets than one plan opens is planned
// batch by batch, as Predict plans it: every target is opened, and each
// refuses the operator (MQRC_NOT_AUTHORIZED), none left unopened to be
// predicted a success.
func TestPredictInventoryOpensEveryTargetAsEachBatchDoes(t *testing.T) {
	f := newFixture(t)
	mqsc := "SET AUTHREC PROFILE('SECURE.*') PRINCIPAL('ops') OBJTYPE(QUEUE) AUTHADD(BROWSE,INQ,DSP)\n"
	for i := range 300 {
		mqsc += fmt.Sprintf("DEFINE QLOCAL(SECURE.%03d)\n", i)
	}
	f.qm.MQSC(mqsc)
	// The first batch of rule 1 takes 200 targets; rule 2's message to the
	// first of them starts a second, which takes it again and the other 100.
	n := 0
	dead := func(dest string, rc mqfmt.Reason) { f.dead(n, dest, rc, nil); n++ }
	for i := range 200 {
		dead(fmt.Sprintf("SECURE.%03d", i), mqfmt.RCNotAuthorized)
	}
	dead("SECURE.000", mqfmt.RCUnknownObjectName)
	dead("SECURE.000", mqfmt.RCNotAuthorized)
	for i := 200; i < 300; i++ {
		dead(fmt.Sprintf("SECURE.%03d", i), mqfmt.RCNotAuthorized)
	}
	tb := mustParse(t, "REASON(MQRC_NOT_AUTHORIZED) ACTION(RETRY) PUTAUT(DEF)\nDESTQ(SECURE.*) ACTION(FWD) FWDQ(&DESTQ)\n")
	inv := inventoryOf(f)
	subs := make([]Subject, inv.Len())
	for i := range subs {
		subs[i] = SubjectOfSummary(inv.At(i))
	}
	src := f.source("ops")
	want, err := Predict(f.ctx, src, tb, "QM1.DEADQ", subs)
	if err != nil {
		t.Fatal(err)
	}
	got, err := PredictInventory(f.ctx, src, tb, "QM1.DEADQ", inv)
	if err != nil {
		t.Fatal(err)
	}
	for i := range want {
		if !strings.Contains(want[i].Outcome, "MQRC_NOT_AUTHORIZED") {
			t.Fatalf("message %d, one by one: %q, want refused", i, want[i].String())
		}
		if g := got.Of(i); *g != want[i] {
			t.Fatalf("message %d:\nkind by kind %+v\none by one   %+v", i, *g, want[i])
		}
	}
}
