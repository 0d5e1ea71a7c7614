// Package genqm is a test's queue manager whose messages are made when they
// are browsed: the dashboard's, the war room's and a playback's own memory
// can be measured at a million messages, which the embedded queue manager,
// keeping every message whole in the same process (about 1.5 GB for a
// million dead letters), would dwarf. It serves what a watcher asks of a
// static queue manager that only gains messages and refuses everything
// else.
package genqm

import (
	"context"
	"encoding/binary"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"github.com/poisonwatch/poisonwatch/codec/mqfmt"
	"github.com/poisonwatch/poisonwatch/mqwatch"
)

// QMgr serves the queue list and status, browse handles with marks (a
// handle's marks are a prefix of the queue, as they are when nothing is
// removed), and handle status; it is an mqwatch.Connector.
type QMgr struct {
	mu     sync.Mutex
	queues []*genQueue
	byName map[string]*genQueue
	// Polls counts the QMgr inquiries (one a poll), Browsed the messages
	// browsed.
	Polls, Browsed atomic.Int64
	// grow is how many messages the DEADQ gains per poll once Grown is set.
	grow  int
	Grown atomic.Bool
}

type genQueue struct {
	info  mqwatch.QueueInfo
	depth int
	mk    func(n int) (mqfmt.MQMD, []byte)
}

// DeadQ is the queue manager's dead-letter queue.
const DeadQ = "SYSTEM.DEAD.LETTER.QUEUE"

// New is a DEADQ of deadq messages, boqs BOQs of boqDepth messages each
// named by an input queue, and empty input queues up to 1,000 queues; once
// Grown is set the DEADQ gains 100 messages a poll.
func New(deadq, boqs, boqDepth int) *QMgr {
	g := &QMgr{byName: map[string]*genQueue{}, grow: 100}
	add := func(q *genQueue) {
		q.info.Type, q.info.Usage, q.info.Shareable = mqwatch.QLocal, mqwatch.UsageNormal, true
		g.queues = append(g.queues, q)
		g.byName[q.info.Name] = q
	}
	add(&genQueue{info: mqwatch.QueueInfo{Name: DeadQ, MaxDepth: int32(2 * deadq), MaxMsgLen: 4194304}, depth: deadq, mk: DeadLetter})
	for i := 0; i < boqs; i++ {
		in := fmt.Sprintf("APP.%04d.IN", i)
		add(&genQueue{info: mqwatch.QueueInfo{Name: fmt.Sprintf("APP.%04d.BO", i), MaxDepth: int32(2 * boqDepth), MaxMsgLen: 4194304},
			depth: boqDepth, mk: func(n int) (mqfmt.MQMD, []byte) { return genBackedOut(in, n) }})
	}
	for i := 0; len(g.queues) < 1000; i++ {
		q := &genQueue{info: mqwatch.QueueInfo{Name: fmt.Sprintf("APP.%04d.IN", i), MaxDepth: 50000, MaxMsgLen: 4194304}}
		if i < boqs {
			q.info.BackoutThresh, q.info.BackoutQName = 3, fmt.Sprintf("APP.%04d.BO", i)
		}
		add(q)
	}
	return g
}

// Connect implements mqwatch.Connector.
func (g *QMgr) Connect(context.Context, mqwatch.ConnectOptions) (mqwatch.Conn, error) {
	return &genConn{g: g}, nil
}

type genConn struct{ g *QMgr }

var errGenRefused = mqfmt.Reason(2195) // MQRC_UNEXPECTED_ERROR: not a call a watcher makes

func (c *genConn) QMgr(context.Context) (mqwatch.QMgrInfo, error) {
	g := c.g
	if g.Grown.Load() {
		g.mu.Lock()
		g.byName[DeadQ].depth += g.grow
		g.mu.Unlock()
	}
	g.Polls.Add(1)
	return mqwatch.QMgrInfo{Name: "QM1", DeadQ: DeadQ, MaxMsgLen: 104857600, CommandLevel: 940, Platform: "UNIX"}, nil
}

func (c *genConn) Queues(context.Context, string) ([]mqwatch.QueueInfo, error) {
	out := make([]mqwatch.QueueInfo, len(c.g.queues))
	for i, q := range c.g.queues {
		out[i] = q.info
	}
	return out, nil
}

func (c *genConn) QueueStatus(context.Context, string) ([]mqwatch.QueueStatus, error) {
	c.g.mu.Lock()
	defer c.g.mu.Unlock()
	out := make([]mqwatch.QueueStatus, len(c.g.queues))
	for i, q := range c.g.queues {
		out[i] = mqwatch.QueueStatus{Name: q.info.Name, Depth: int32(q.depth)}
	}
	return out, nil
}

func (c *genConn) Handles(context.Context, string) ([]mqwatch.Handle, error) { return nil, nil }

func (c *genConn) Open(_ context.Context, od mqwatch.ObjectDesc, opts mqwatch.OpenOptions) (mqwatch.Queue, error) {
	q := c.g.byName[od.Name]
	if q == nil {
		return nil, mqwatch.NewError("MQOPEN", od.Name, mqfmt.RCUnknownObjectName)
	}
	if !opts.Browse || opts.Input || opts.Output {
		return nil, mqwatch.NewError("MQOPEN", od.Name, errGenRefused)
	}
	return &genHandle{g: c.g, q: q}, nil
}

func (c *genConn) Subscribe(context.Context, mqwatch.SubDesc) (mqwatch.Queue, error) {
	return nil, mqwatch.NewError("MQSUB", "", errGenRefused)
}
func (c *genConn) Commit(context.Context) error  { return nil }
func (c *genConn) Backout(context.Context) error { return nil }
func (c *genConn) AsyncStatus(context.Context) (mqwatch.AsyncStatus, error) {
	return mqwatch.AsyncStatus{}, nil
}
func (c *genConn) Close() error { return nil }

// genHandle browses one queue: marked is how many messages from the head its
// marks cover, cursor where a browse-next goes.
type genHandle struct {
	g              *QMgr
	q              *genQueue
	marked, cursor int
}

func (h *genHandle) Name() string { return h.q.info.Name }

func (h *genHandle) Browse(_ context.Context, o mqwatch.BrowseOptions) (mqwatch.Message, error) {
	h.g.mu.Lock()
	depth := h.q.depth
	h.g.mu.Unlock()
	if o.MsgId != nil || o.CorrelId != nil {
		return mqwatch.Message{}, mqwatch.NewError("MQGET", h.Name(), errGenRefused)
	}
	n := h.cursor
	switch {
	case o.Unmarked:
		n = h.marked
	case o.First:
		n = 0
	}
	if n >= depth {
		return mqwatch.Message{}, mqwatch.NewError("MQGET", h.Name(), mqfmt.RCNoMsgAvailable)
	}
	if o.Unmarked {
		h.marked = n + 1
	}
	h.cursor = n + 1
	h.g.Browsed.Add(1)
	md, data := h.q.mk(n)
	// As a client receives it: the MQMD decoded from its wire bytes.
	bo, _ := md.Encoding.ByteOrder()
	wire, err := mqfmt.DecodeMQMD(md.Encode(bo), bo)
	if err != nil {
		return mqwatch.Message{}, err
	}
	if o.MaxBytes > 0 && len(data) > o.MaxBytes {
		return mqwatch.Message{MD: wire, Data: data[:o.MaxBytes], Length: len(data)}, nil
	}
	return mqwatch.Message{MD: wire, Data: data, Length: len(data)}, nil
}

func (h *genHandle) Get(context.Context, mqwatch.GetOptions) (mqwatch.Message, error) {
	return mqwatch.Message{}, mqwatch.NewError("MQGET", h.Name(), errGenRefused)
}
func (h *genHandle) Put(context.Context, *mqfmt.MQMD, []byte, mqwatch.PutOptions) error {
	return mqwatch.NewError("MQPUT", h.Name(), errGenRefused)
}
func (h *genHandle) Inquire(context.Context) (mqwatch.QueueInfo, error) { return h.q.info, nil }
func (h *genHandle) Close(context.Context) error                        { return nil }

// Dead letters in a busy DEADQ's mix: unknown queues, full queues, authority
// failures, put-inhibited queues, from channels, JMS and the trigger monitor.
var (
	genReasons = []mqfmt.Reason{mqfmt.RCUnknownObjectName, mqfmt.RCQFull, mqfmt.RCNotAuthorized,
		mqfmt.RCPutInhibited, mqfmt.RCMsgTooBigForQ, mqfmt.RCBackoutThresholdReached}
	genDests   = []string{"INVOICE.IN", "PAYMENTS.IN", "ORDERS.IN", "AUDIT.IN", "SHIPPING.IN", "CUSTOMER.UPDATE"}
	genWriters = []string{"amqrmppa", "MQ JMS ConnectionConsumer", "runmqtrm"}
	genEpoch   = time.Date(2026, 11, 30, 1, 0, 0, 0, time.UTC)
)

func genTimes(n int) (date, tod string) {
	t := genEpoch.Add(time.Duration(n) * 10 * time.Millisecond)
	return t.Format("20060102"), t.Format("150405") + fmt.Sprintf("%02d", t.Nanosecond()/1e7)
}

func genMD(n int, format string, enc mqfmt.Encoding) mqfmt.MQMD {
	md := mqfmt.NewMQMD()
	md.Format, md.Encoding, md.CodedCharSetId, md.Persistence = format, enc, mqfmt.CCSIDUTF8, mqfmt.PerPersistent
	copy(md.MsgId[:], "AMQ QM1         ")
	binary.BigEndian.PutUint64(md.MsgId[16:], uint64(n))
	md.PutApplName, md.UserIdentifier = "OrderService", "app"
	md.PutDate, md.PutTime = genTimes(n)
	return md
}

// DeadLetter is the n-th DEADQ message: an MQDLH with the time it was
// dead-lettered, an MQRFH2 of a JMS text message, a JSON order.
func DeadLetter(n int) (mqfmt.MQMD, []byte) {
	md := genMD(n, mqfmt.FmtDeadLetter, mqfmt.EncodingNative)
	d := mqfmt.NewDLH()
	d.Reason, d.DestQName, d.DestQMgrName = genReasons[n%len(genReasons)], genDests[(n/7)%len(genDests)], "QM2"
	d.Encoding, d.CodedCharSetId, d.Format = mqfmt.EncodingNormal, mqfmt.CCSIDUTF8, mqfmt.FmtRFH2
	d.PutApplType, d.PutApplName = mqfmt.ATUnix, genWriters[n%len(genWriters)]
	d.PutDate, d.PutTime = genTimes(n + 100)
	bo, _ := mqfmt.EncodingNative.ByteOrder()
	return md, genJMS(d.AppendEncode(make([]byte, 0, 1024), bo), d.DestQName, n)
}

// genBackedOut is the n-th message a JMS consumer of queue backed out
// three times and moved to its BOQ.
func genBackedOut(queue string, n int) (mqfmt.MQMD, []byte) {
	md := genMD(n, mqfmt.FmtRFH2, mqfmt.EncodingNormal)
	md.BackoutCount = 3
	return md, genJMS(make([]byte, 0, 1024), queue, n)
}

func genJMS(dst []byte, queue string, n int) []byte {
	r := mqfmt.NewRFH2(mqfmt.EncodingNormal, mqfmt.CCSIDUTF8, mqfmt.FmtString,
		mqfmt.NewFolder("mcd", mqfmt.NewElement("Msd", "jms_text"), mqfmt.NewElement("Type", []string{"Order", "Amendment", "Cancel"}[n%3])),
		mqfmt.NewFolder("jms", mqfmt.NewElement("Dst", "queue:///"+queue), mqfmt.NewElement("Dlv", "2")))
	bo, _ := mqfmt.EncodingNormal.ByteOrder()
	out, err := r.AppendEncode(dst, bo)
	if err != nil {
		panic(fmt.Sprintf("encode RFH2: %v", err)) // fixed, valid input
	}
	return fmt.Appendf(out, `{"id":"ORD-%08d","customer":"C%05d","total":%d.%02d,"lines":[{"sku":"SKU-%06d","qty":%d,"note":"standard delivery, signed receipt required"}]}`,
		n, n%7919, n%100000, n%100, n*31%999999, 1+n%9)
}
