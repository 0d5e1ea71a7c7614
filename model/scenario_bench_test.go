package model

import (
	"encoding/binary"
	"fmt"
	"maps"
	"slices"
	"time"

	"github.com/poisonwatch/poisonwatch/codec/mqfmt"
	"github.com/poisonwatch/poisonwatch/mqwatch"
)

// foldScenario sizes the snapshots BenchmarkFold folds: issue 5's steady
// state, as mqwatch's BenchmarkRefresh produces it on the embedded queue
// manager.
type foldScenario struct {
	Queues, DeadDepth, BOQs, BOQDepth, PerPoll int
	LoadedEvery                                int // every LoadedEvery-th input queue has a browsed head
}

var issue5Fold = foldScenario{Queues: 1000, DeadDepth: 100_000, BOQs: 10, BOQDepth: 10_000, PerPoll: 100, LoadedEvery: 10}

// issue17Fold is issue 17's large incident: a DEADQ of a million and ten
// BOQs of 100,000.
var issue17Fold = foldScenario{Queues: 1000, DeadDepth: 1_000_000, BOQs: 10, BOQDepth: 100_000, PerPoll: 100, LoadedEvery: 10}

const benchDeadQ = "SYSTEM.DEAD.LETTER.QUEUE"

// benchStart is when the scenario's first message was put; messages follow
// one another by 20 ms, a DEADQ gaining 100 messages per 2-second poll.
var benchStart = time.Date(2026, 11, 30, 1, 0, 0, 0, time.UTC)

const benchPutGap = 20 * time.Millisecond

// foldEnv produces the snapshots of a watcher in steady state, with their
// inventories and deltas, without a queue manager.
type foldEnv struct {
	sc    foldScenario
	views []mqwatch.QueueView
	heads map[string][]mqwatch.Summary
	base  map[string]*mqwatch.Inventory // the inventories of the first poll
	invs  map[string]*mqwatch.Inventory
	seq   uint64
	next  int // serial of the next dead letter
	now   time.Time
}

func newFoldEnv(sc foldScenario) (*foldEnv, error) {
	e := &foldEnv{sc: sc, heads: map[string][]mqwatch.Summary{}, base: map[string]*mqwatch.Inventory{}}
	dead, err := inventoryOf(sc.DeadDepth, func(n int) (mqwatch.Message, error) { return deadLetter(n) })
	if err != nil {
		return nil, err
	}
	e.base[benchDeadQ] = dead
	e.views = append(e.views, benchView(benchDeadQ, mqwatch.RoleDeadQ, sc.DeadDepth, 2*sc.DeadDepth, 0, ""))
	for i := 0; i < sc.BOQs; i++ {
		in := fmt.Sprintf("APP.%04d.IN", i)
		boq, err := inventoryOf(sc.BOQDepth, func(n int) (mqwatch.Message, error) { return jmsMessage(in, n, nil) })
		if err != nil {
			return nil, err
		}
		name := fmt.Sprintf("APP.%04d.BO", i)
		e.base[name] = boq
		e.views = append(e.views, benchView(name, mqwatch.RoleBOQ, sc.BOQDepth, 2*sc.BOQDepth, 0, ""))
	}
	for i := 0; i < sc.Queues-1-sc.BOQs; i++ {
		name, boq, depth := fmt.Sprintf("APP.%04d.IN", i), "", 0
		if i < sc.BOQs {
			boq = fmt.Sprintf("APP.%04d.BO", i)
		}
		if i%sc.LoadedEvery == 0 {
			depth = 3
			m, err := jmsMessage(name, i, nil)
			if err != nil {
				return nil, err
			}
			e.heads[name] = []mqwatch.Summary{mqwatch.Summarize(&m)}
		}
		e.views = append(e.views, benchView(name, mqwatch.RoleInput, depth, 50000, 3, boq))
	}
	slices.SortFunc(e.views, func(a, b mqwatch.QueueView) int { return cmpString(a.Info.Name, b.Info.Name) })
	e.reset()
	return e, nil
}

// reset goes back to the first poll's inventories.
func (e *foldEnv) reset() {
	e.invs = maps.Clone(e.base)
	e.next = e.sc.DeadDepth
	e.now = benchStart.Add(time.Duration(e.sc.DeadDepth) * benchPutGap)
}

func cmpString(a, b string) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

func benchView(name string, role mqwatch.Role, depth, maxDepth int, bothresh int32, boq string) mqwatch.QueueView {
	return mqwatch.QueueView{
		Info: mqwatch.QueueInfo{Name: name, Type: mqwatch.QLocal, MaxDepth: int32(maxDepth),
			BackoutThresh: bothresh, BackoutQName: boq, MaxMsgLen: 4194304, Shareable: true},
		Status:    mqwatch.QueueStatus{Name: name, Depth: int32(depth), Monitored: true},
		HasStatus: true, Role: role,
	}
}

// snapshot wraps the current inventories; deltas nil means a resync.
func (e *foldEnv) snapshot(deltas map[string]mqwatch.InventoryDelta) *mqwatch.Snapshot {
	e.seq++
	e.now = e.now.Add(2 * time.Second)
	views := slices.Clone(e.views)
	for i := range views {
		if inv, ok := e.invs[views[i].Info.Name]; ok {
			views[i].Status.Depth = int32(inv.Len())
		}
	}
	if deltas == nil {
		deltas = map[string]mqwatch.InventoryDelta{}
		for name := range e.invs {
			deltas[name] = mqwatch.InventoryDelta{Resync: true}
		}
	}
	return &mqwatch.Snapshot{Seq: e.seq, Time: e.now, QMgrName: "QM1", Connected: true,
		QMgr:   mqwatch.QMgrInfo{Name: "QM1", DeadQ: benchDeadQ},
		Queues: views, Inventories: maps.Clone(e.invs), Deltas: deltas, Heads: e.heads,
		Poll: mqwatch.PollStats{Duration: 15 * time.Millisecond, Calls: 427}}
}

// steady is the next poll: PerPoll dead letters arrived and, when drop is set,
// a consumer took PerPoll from the head; the BOQs did not change.
func (e *foldEnv) steady(drop bool) (*mqwatch.Snapshot, error) {
	added, err := summaries(e.sc.PerPoll, func(int) (mqwatch.Message, error) {
		e.next++
		return deadLetter(e.next - 1)
	})
	if err != nil {
		return nil, err
	}
	deltas := map[string]mqwatch.InventoryDelta{}
	for name := range e.invs {
		deltas[name] = mqwatch.InventoryDelta{}
	}
	inv := e.invs[benchDeadQ].Append(added...)
	d := mqwatch.InventoryDelta{Added: added}
	if drop {
		for i := 0; i < e.sc.PerPoll; i++ {
			d.Dropped = append(d.Dropped, *inv.At(i))
		}
		inv = inv.DropHead(e.sc.PerPoll)
	}
	e.invs[benchDeadQ], deltas[benchDeadQ] = inv, d
	return e.snapshot(deltas), nil
}

// inventoryOf is the inventory of the summaries of mk's first n messages,
// built a thousand at a time as a watcher does.
func inventoryOf(n int, mk func(int) (mqwatch.Message, error)) (*mqwatch.Inventory, error) {
	var inv *mqwatch.Inventory
	for from := 0; from < n; from += 1000 {
		batch, err := summaries(min(1000, n-from), func(i int) (mqwatch.Message, error) { return mk(from + i) })
		if err != nil {
			return nil, err
		}
		for i := range batch {
			batch[i].Arrival = uint64(from + i + 1)
		}
		inv = inv.Append(batch...)
	}
	return inv, nil
}

func summaries(n int, mk func(int) (mqwatch.Message, error)) ([]mqwatch.Summary, error) {
	out := make([]mqwatch.Summary, n)
	for i := range out {
		m, err := mk(i)
		if err != nil {
			return nil, err
		}
		out[i] = mqwatch.Summarize(&m)
		out[i].Arrival = uint64(i + 1)
	}
	return out, nil
}

// Dead-letter reasons, destinations and writers in the mix a busy DEADQ shows.
var (
	benchReasons = []mqfmt.Reason{mqfmt.RCUnknownObjectName, mqfmt.RCQFull, mqfmt.RCNotAuthorized,
		mqfmt.RCPutInhibited, mqfmt.RCMsgTooBigForQ, mqfmt.RCBackoutThresholdReached}
	benchDests = []string{"INVOICE.IN", "PAYMENTS.IN", "ORDERS.IN", "AUDIT.IN", "SHIPPING.IN",
		"CUSTOMER.UPDATE", "STOCK.RESERVE", "PRICING.IN", "LEDGER.POST", "NOTIFY.EMAIL", "RETURNS.IN", "FX.RATES"}
	benchWriters = []string{"amqrmppa", "MQ JMS ConnectionConsumer", "runmqtrm"}
)

// deadLetter is the n-th DEADQ message: MQDLH, then a JMS message.
func deadLetter(n int) (mqwatch.Message, error) {
	d := mqfmt.NewDLH()
	d.Reason = benchReasons[n%len(benchReasons)]
	d.DestQName, d.DestQMgrName = benchDests[(n/7)%len(benchDests)], "QM2"
	d.Encoding, d.CodedCharSetId, d.Format = mqfmt.EncodingNormal, mqfmt.CCSIDUTF8, mqfmt.FmtRFH2
	d.PutApplType, d.PutApplName = mqfmt.ATUnix, benchWriters[n%len(benchWriters)]
	// Dead-lettered a second after it was put, as every real MQDLH records.
	at := benchStart.Add(time.Duration(n)*benchPutGap + time.Second)
	d.PutDate, d.PutTime = at.Format("20060102"), at.Format("150405")+fmt.Sprintf("%02d", at.Nanosecond()/1e7)
	bo, _ := mqfmt.EncodingNative.ByteOrder()
	m, err := jmsMessage(d.DestQName, n, d.AppendEncode(nil, bo))
	m.MD.Format, m.MD.Encoding = mqfmt.FmtDeadLetter, mqfmt.EncodingNative
	return m, err
}

// jmsMessage is the n-th JMS text message for queue, after prefix.
func jmsMessage(queue string, n int, prefix []byte) (mqwatch.Message, error) {
	md := mqfmt.NewMQMD()
	md.Format, md.Encoding, md.CodedCharSetId = mqfmt.FmtRFH2, mqfmt.EncodingNormal, mqfmt.CCSIDUTF8
	md.PutApplName, md.UserIdentifier = "OrderService", "app"
	binary.BigEndian.PutUint64(md.MsgId[16:], uint64(n))
	at := benchStart.Add(time.Duration(n) * benchPutGap)
	md.PutDate, md.PutTime = at.Format("20060102"), at.Format("150405")+fmt.Sprintf("%02d", at.Nanosecond()/1e7)
	r := mqfmt.NewRFH2(mqfmt.EncodingNormal, mqfmt.CCSIDUTF8, mqfmt.FmtString,
		mqfmt.NewFolder("mcd", mqfmt.NewElement("Msd", "jms_text"), mqfmt.NewElement("Type", []string{"Order", "Amendment", "Cancel"}[n%3])),
		mqfmt.NewFolder("jms", mqfmt.NewElement("Dst", "queue:///"+queue), mqfmt.NewElement("Dlv", "2")))
	bo, _ := mqfmt.EncodingNormal.ByteOrder()
	data, err := r.AppendEncode(prefix, bo)
	if err != nil {
		return mqwatch.Message{}, fmt.Errorf("bench message %d: %w", n, err)
	}
	data = fmt.Appendf(data, `{"id":"ORD-%08d","customer":"C%05d","total":%d.%02d,"lines":[{"sku":"SKU-%06d","qty":%d}]}`,
		n, n%7919, n%100000, n%100, n*31%999999, 1+n%9)
	return mqwatch.Message{MD: md, Data: data, Length: len(data)}, nil
}
