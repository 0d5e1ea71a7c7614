package mqwatch_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/poisonwatch/poisonwatch/backend/embedded/embeddedtest"
	"github.com/poisonwatch/poisonwatch/codec/mqfmt"
	"github.com/poisonwatch/poisonwatch/mqwatch"
)

// benchScenario sizes the queue manager the refresh benchmarks poll and the
// tests behind them check, so that both run the same code at different scales.
type benchScenario struct {
	Queues    int // watched queues: the DEADQ, the BOQs and the input queues
	DeadDepth int // messages kept on the DEADQ
	BOQs      int // backout queues, each the BOQNAME of one input queue
	BOQDepth  int
	// PerPoll dead letters arrive between polls, and a consumer (runmqdlq)
	// takes as many from the head, so the DEADQ stays DeadDepth deep however
	// many polls a benchmark runs.
	PerPoll int
	// Every LoadedEvery-th input queue holds LoadedDepth messages, so that
	// the watcher browses its head each poll.
	LoadedEvery, LoadedDepth int
	// Stuck loaded queues have a head message rolled back twice (below
	// BOTHRESH 3): the watcher then reads deeper than the first message.
	Stuck int
}

// issue5 is the steady state issue 5 asks to measure.
var issue5 = benchScenario{
	Queues: 1000, DeadDepth: 100_000, BOQs: 10, BOQDepth: 10_000, PerPoll: 100,
	LoadedEvery: 10, LoadedDepth: 3, Stuck: 5,
}

// deadQ is IBM's default dead-letter queue, made the DEADQ as most
// installations do.
const deadQ = "SYSTEM.DEAD.LETTER.QUEUE"

func (sc benchScenario) inputs() int       { return sc.Queues - 1 - sc.BOQs }
func inputName(i int) string               { return fmt.Sprintf("APP.%04d.IN", i) }
func boqName(i int) string                 { return fmt.Sprintf("APP.%04d.BO", i) }
func (sc benchScenario) loaded(i int) bool { return i%sc.LoadedEvery == 0 }
func (sc benchScenario) stuck(i int) bool  { return sc.loaded(i) && i/sc.LoadedEvery < sc.Stuck }
func (sc benchScenario) loadedQueues() (n int) {
	return (sc.inputs() + sc.LoadedEvery - 1) / sc.LoadedEvery
}

// mqsc defines the queues: MONQ on, as a monitored production queue manager
// has it, so queue status carries message age and last put/get times.
func (sc benchScenario) mqsc() string {
	var b strings.Builder
	fmt.Fprintf(&b, "ALTER QMGR DEADQ(%s) MONQ(MEDIUM)\n", deadQ)
	fmt.Fprintf(&b, "ALTER QLOCAL(%s) MAXDEPTH(%d)\n", deadQ, 2*sc.DeadDepth+sc.PerPoll)
	for i := 0; i < sc.BOQs; i++ {
		fmt.Fprintf(&b, "DEFINE QLOCAL(%s) MAXDEPTH(%d)\n", boqName(i), 2*sc.BOQDepth)
	}
	for i := 0; i < sc.inputs(); i++ {
		fmt.Fprintf(&b, "DEFINE QLOCAL(%s) MAXDEPTH(50000)", inputName(i))
		if i < sc.BOQs {
			fmt.Fprintf(&b, " BOTHRESH(3) BOQNAME(%s)", boqName(i))
		}
		b.WriteByte('\n')
	}
	return b.String()
}

// newScenarioQM builds the queue manager with every queue filled. It takes
// seconds at issue-5 scale; benchmarks call it before their timers run.
func newScenarioQM(tb testing.TB, sc benchScenario) *embeddedtest.QM {
	tb.Helper()
	qm := embeddedtest.New(tb, embeddedtest.Options{Name: "QM1", MQSC: sc.mqsc()})
	ctx := context.Background()
	c, err := qm.Connect(ctx, mqwatch.ConnectOptions{ApplName: "amqrmppa"})
	if err != nil {
		tb.Fatal(err)
	}
	defer c.Close()
	putAll(tb, c, deadQ, sc.DeadDepth, deadLetterMessage)
	for i := 0; i < sc.BOQs; i++ {
		putAll(tb, c, boqName(i), sc.BOQDepth, func(n int) (mqfmt.MQMD, []byte) {
			return backoutMessage(inputName(i), n)
		})
	}
	for i := 0; i < sc.inputs(); i++ {
		if sc.loaded(i) {
			putAll(tb, c, inputName(i), sc.LoadedDepth, orderMessage)
		}
		if sc.stuck(i) {
			rollBackHead(tb, c, inputName(i), 2)
		}
	}
	return qm
}

// putAll puts n messages made by mk, each with a new MsgId.
func putAll(tb testing.TB, c mqwatch.Conn, queue string, n int, mk func(int) (mqfmt.MQMD, []byte)) {
	tb.Helper()
	ctx := context.Background()
	q, err := c.Open(ctx, mqwatch.ObjectDesc{Name: queue}, mqwatch.OpenOptions{Output: true})
	if err != nil {
		tb.Fatalf("open %s for output: %v", queue, err)
	}
	defer q.Close(ctx)
	for i := 0; i < n; i++ {
		md, data := mk(i)
		if err := q.Put(ctx, &md, data, mqwatch.PutOptions{NewMsgId: true}); err != nil {
			tb.Fatalf("put %d on %s: %v", i, queue, err)
		}
	}
}

// rollBackHead gets the head message under syncpoint and backs out, times
// times, as a plain MQI consumer that fails on it does (R1f).
func rollBackHead(tb testing.TB, c mqwatch.Conn, queue string, times int) {
	tb.Helper()
	ctx := context.Background()
	q, err := c.Open(ctx, mqwatch.ObjectDesc{Name: queue}, mqwatch.OpenOptions{Input: true})
	if err != nil {
		tb.Fatalf("open %s for input: %v", queue, err)
	}
	defer q.Close(ctx)
	for i := 0; i < times; i++ {
		if _, err := q.Get(ctx, mqwatch.GetOptions{Syncpoint: true}); err != nil {
			tb.Fatalf("get %s: %v", queue, err)
		}
		if err := c.Backout(ctx); err != nil {
			tb.Fatalf("backout %s: %v", queue, err)
		}
	}
}

// Dead-letter reasons, destinations and writers in the mix a busy DEADQ shows:
// unknown queues and full queues from channels, authority failures, and the
// JMS ConnectionConsumer's removals (R6a).
var (
	dlqReasons = []mqfmt.Reason{mqfmt.RCUnknownObjectName, mqfmt.RCQFull, mqfmt.RCNotAuthorized,
		mqfmt.RCPutInhibited, mqfmt.RCMsgTooBigForQ, mqfmt.RCBackoutThresholdReached}
	dlqDests = []string{"INVOICE.IN", "PAYMENTS.IN", "ORDERS.IN", "AUDIT.IN", "SHIPPING.IN",
		"CUSTOMER.UPDATE", "STOCK.RESERVE", "PRICING.IN", "LEDGER.POST", "NOTIFY.EMAIL", "RETURNS.IN", "FX.RATES"}
	dlqWriters = []struct {
		name string
		typ  int32
	}{{"amqrmppa", mqfmt.ATUnix}, {"MQ JMS ConnectionConsumer", mqfmt.ATJava}, {"runmqtrm", mqfmt.ATUnix}}
)

// jmsMessage is an MQ classes for JMS text message: MQMD in Java's encoding,
// an MQRFH2 with the mcd and jms folders, a JSON body of a few hundred bytes.
func jmsMessage(dst, typ string, n int) (mqfmt.MQMD, []byte) {
	md := mqfmt.NewMQMD()
	md.Format, md.Encoding, md.CodedCharSetId = mqfmt.FmtRFH2, mqfmt.EncodingNormal, mqfmt.CCSIDUTF8
	md.Persistence = mqfmt.PerPersistent
	return md, appendJMS(nil, dst, typ, n)
}

func appendJMS(dst []byte, queue, typ string, n int) []byte {
	r := mqfmt.NewRFH2(mqfmt.EncodingNormal, mqfmt.CCSIDUTF8, mqfmt.FmtString,
		mqfmt.NewFolder("mcd", mqfmt.NewElement("Msd", "jms_text"), mqfmt.NewElement("Type", typ)),
		mqfmt.NewFolder("jms", mqfmt.NewElement("Dst", "queue:///"+queue),
			mqfmt.NewElement("Tms", fmt.Sprint(1764468000000+int64(n))), mqfmt.NewElement("Dlv", "2")))
	bo, _ := mqfmt.EncodingNormal.ByteOrder()
	out, err := r.AppendEncode(dst, bo)
	if err != nil {
		panic(fmt.Sprintf("encode bench RFH2: %v", err)) // fixed, valid input
	}
	return appendBody(out, n)
}

// appendBody writes an order document of about 600 bytes, different per n.
func appendBody(dst []byte, n int) []byte {
	dst = fmt.Appendf(dst, `{"id":"ORD-%08d","customer":"C%05d","currency":"EUR","total":%d.%02d,"lines":[`,
		n, n%7919, n%100000, n%100)
	for l := 0; l < 4; l++ {
		if l > 0 {
			dst = append(dst, ',')
		}
		dst = fmt.Appendf(dst, `{"sku":"SKU-%06d","qty":%d,"price":%d.%02d,"note":"standard delivery, signed receipt required"}`,
			(n*31+l)%999999, 1+(n+l)%9, 10+(n*7+l)%990, (n+l)%100)
	}
	return append(dst, `],"channel":"web"}`...)
}

// deadLetterMessage is the n-th DEADQ message: MQDLH (in the queue manager's
// encoding) in front of the original JMS message.
func deadLetterMessage(n int) (mqfmt.MQMD, []byte) {
	md := mqfmt.NewMQMD()
	md.Format, md.Encoding, md.CodedCharSetId = mqfmt.FmtDeadLetter, mqfmt.EncodingNative, mqfmt.CCSIDUTF8
	md.Persistence = mqfmt.PerPersistent
	w := dlqWriters[n%len(dlqWriters)]
	d := mqfmt.NewDLH()
	d.Reason = dlqReasons[n%len(dlqReasons)]
	d.DestQName, d.DestQMgrName = dlqDests[(n/7)%len(dlqDests)], "QM2"
	d.Encoding, d.CodedCharSetId, d.Format = mqfmt.EncodingNormal, mqfmt.CCSIDUTF8, mqfmt.FmtRFH2
	d.PutApplType, d.PutApplName = w.typ, w.name
	// When the queue manager dead-lettered it: every real MQDLH says.
	d.PutDate, d.PutTime = "20261130", fmt.Sprintf("%02d%02d%02d%02d", 4+n/360000%20, n/6000%60, n/100%60, n%100)
	bo, _ := mqfmt.EncodingNative.ByteOrder()
	data := d.AppendEncode(make([]byte, 0, 1200), bo)
	return md, appendJMS(data, d.DestQName, "Order", n)
}

// backoutMessage is a JMS message the JMS provider moved from queue to its BOQ.
func backoutMessage(queue string, n int) (mqfmt.MQMD, []byte) {
	return jmsMessage(queue, []string{"Order", "OrderAmendment", "Cancel"}[n%3], n)
}

// orderMessage is a plain text message on an input queue.
func orderMessage(n int) (mqfmt.MQMD, []byte) {
	md := mqfmt.NewMQMD()
	md.Format, md.CodedCharSetId = mqfmt.FmtString, mqfmt.CCSIDUTF8
	return md, appendBody(nil, n)
}
