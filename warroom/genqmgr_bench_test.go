package warroom

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

// genQMgr is a queue manager whose dead letters are made when they are
// browsed (as cli's TestDeadQTrackedRSS has it): a million of them would
// put about 1.5 GB in this process on the embedded queue manager, which
// would measure the queue manager and not the room. A DEADQ of deadq
// messages and empty input queues up to 1,000 queues; once grown is set,
// the DEADQ gains grow messages each poll. It serves what a watcher asks
// (the queue list and status, browse handles with marks, handle status)
// and refuses the rest.
type genQMgr struct {
	mu     sync.Mutex
	queues []*genQueue
	byName map[string]*genQueue
	grow   int
	grown  atomic.Bool
}

type genQueue struct {
	info  mqwatch.QueueInfo
	depth int
}

const genDeadQ = "SYSTEM.DEAD.LETTER.QUEUE"

func newGenQMgr(deadq int) *genQMgr {
	g := &genQMgr{byName: map[string]*genQueue{}, grow: 100}
	add := func(q *genQueue) {
		q.info.Type, q.info.Usage, q.info.Shareable = mqwatch.QLocal, mqwatch.UsageNormal, true
		g.queues = append(g.queues, q)
		g.byName[q.info.Name] = q
	}
	add(&genQueue{info: mqwatch.QueueInfo{Name: genDeadQ, MaxDepth: int32(2 * deadq), MaxMsgLen: 4194304}, depth: deadq})
	for i := 0; len(g.queues) < 1000; i++ {
		add(&genQueue{info: mqwatch.QueueInfo{Name: fmt.Sprintf("APP.%04d.IN", i), MaxDepth: 50000, MaxMsgLen: 4194304}})
	}
	return g
}

// Connect implements mqwatch.Connector.
func (g *genQMgr) Connect(context.Context, mqwatch.ConnectOptions) (mqwatch.Conn, error) {
	return &genConn{g: g}, nil
}

type genConn struct{ g *genQMgr }

var errGenRefused = mqfmt.Reason(2195) // MQRC_UNEXPECTED_ERROR: not a call a watcher makes

// QMgr is the first call of each poll: the DEADQ grows here.
func (c *genConn) QMgr(context.Context) (mqwatch.QMgrInfo, error) {
	if g := c.g; g.grown.Load() {
		g.mu.Lock()
		g.byName[genDeadQ].depth += g.grow
		g.mu.Unlock()
	}
	return mqwatch.QMgrInfo{Name: "QM1", DeadQ: genDeadQ, MaxMsgLen: 104857600, CommandLevel: 940, Platform: "UNIX"}, nil
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

// genHandle browses one queue: marked is how many messages from the head
// its marks cover (a prefix, as nothing is removed), cursor where a
// browse-next goes.
type genHandle struct {
	g              *genQMgr
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
	md, data := genDeadLetter(n)
	bo, _ := md.Encoding.ByteOrder()
	wire, err := mqfmt.DecodeMQMD(md.Encode(bo), bo) // as a client receives it
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

// Dead letters in a busy DEADQ's mix: unknown queues, full queues,
// authority failures, put-inhibited queues, from channels, JMS and the
// trigger monitor.
var (
	genReasons = []mqfmt.Reason{mqfmt.RCUnknownObjectName, mqfmt.RCQFull, mqfmt.RCNotAuthorized,
		mqfmt.RCPutInhibited, mqfmt.RCMsgTooBigForQ, mqfmt.RCBackoutThresholdReached}
	genDests   = []string{"INVOICE.IN", "PAYMENTS.IN", "ORDERS.IN", "AUDIT.IN", "SHIPPING.IN", "CUSTOMER.UPDATE"}
	genWriters = []string{"amqrmppa", "MQ JMS ConnectionConsumer", "runmqtrm"}
	genEpoch   = time.Date(2026, 11, 30, 1, 0, 0, 0, time.UTC)
)

// genDeadLetter is the n-th DEADQ message: an MQDLH with the time it was
// dead-lettered, an MQRFH2 of a JMS text message, a JSON order.
func genDeadLetter(n int) (mqfmt.MQMD, []byte) {
	at := func(n int) (string, string) {
		t := genEpoch.Add(time.Duration(n) * 10 * time.Millisecond)
		return t.Format("20060102"), t.Format("150405") + fmt.Sprintf("%02d", t.Nanosecond()/1e7)
	}
	md := mqfmt.NewMQMD()
	md.Format, md.Encoding, md.CodedCharSetId, md.Persistence = mqfmt.FmtDeadLetter, mqfmt.EncodingNative, mqfmt.CCSIDUTF8, mqfmt.PerPersistent
	copy(md.MsgId[:], "AMQ QM1         ")
	binary.BigEndian.PutUint64(md.MsgId[16:], uint64(n))
	md.PutApplName, md.UserIdentifier = "OrderService", "app"
	md.PutDate, md.PutTime = at(n)
	d := mqfmt.NewDLH()
	d.Reason, d.DestQName, d.DestQMgrName = genReasons[n%len(genReasons)], genDests[(n/7)%len(genDests)], "QM2"
	d.Encoding, d.CodedCharSetId, d.Format = mqfmt.EncodingNormal, mqfmt.CCSIDUTF8, mqfmt.FmtRFH2
	d.PutApplType, d.PutApplName = mqfmt.ATUnix, genWriters[n%len(genWriters)]
	d.PutDate, d.PutTime = at(n + 100)
	bo, _ := mqfmt.EncodingNative.ByteOrder()
	r := mqfmt.NewRFH2(mqfmt.EncodingNormal, mqfmt.CCSIDUTF8, mqfmt.FmtString,
		mqfmt.NewFolder("mcd", mqfmt.NewElement("Msd", "jms_text"), mqfmt.NewElement("Type", []string{"Order", "Amendment", "Cancel"}[n%3])),
		mqfmt.NewFolder("jms", mqfmt.NewElement("Dst", "queue:///"+d.DestQName), mqfmt.NewElement("Dlv", "2")))
	nbo, _ := mqfmt.EncodingNormal.ByteOrder()
	out, err := r.AppendEncode(d.AppendEncode(make([]byte, 0, 1024), bo), nbo)
	if err != nil {
		panic(fmt.Sprintf("encode RFH2: %v", err)) // fixed, valid input
	}
	return md, fmt.Appendf(out, `{"id":"ORD-%08d","customer":"C%05d","total":%d.%02d}`, n, n%7919, n%100000, n%100)
}
