package ops_test

import (
	"context"
	"flag"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/poisonwatch/poisonwatch/actions/ops"
	"github.com/poisonwatch/poisonwatch/backend/embedded"
	"github.com/poisonwatch/poisonwatch/codec/mqfmt"
	"github.com/poisonwatch/poisonwatch/mqwatch"
)

var (
	chaosSize = flag.Int("chaos.size", 0, "messages in TestChaos (0: 5000, 2000 with -short); try 100000")
	chaosSeed = flag.Uint64("chaos.seed", 1, "seed of TestChaos's choices and faults")
)

// chaosFaults are the faults the chaos test injects: failed puts and gets
// with the reason codes a queue manager gives, connections broken in the
// middle of a batch and during MQSTAT and MQCMIT, and commits that fail. It
// returns the faults that strike after a batch's gets: the queue manager
// then backs the gets out and counts it in BackoutCount, as IBM MQ does.
func chaosFaults(fs *embedded.Faults) []embedded.FaultID {
	var afterGets []embedded.FaultID
	for _, f := range []embedded.Fault{
		{Verb: embedded.VerbPut, Probability: 0.002, RC: mqfmt.RCQFull},
		{Verb: embedded.VerbPut, Probability: 0.002, RC: mqfmt.RCPutInhibited},
		{Verb: embedded.VerbPut, Probability: 0.001, RC: mqfmt.RCMsgTooBigForQ},
		{Verb: embedded.VerbPut, Probability: 0.001, Break: true},
		{Verb: embedded.VerbGet, Probability: 0.002, RC: mqfmt.RCNoMsgAvailable},
		{Verb: embedded.VerbGet, Probability: 0.001, RC: mqfmt.RCGetInhibited},
		{Verb: embedded.VerbGet, Probability: 0.001, Break: true},
		{Verb: embedded.VerbCommit, Probability: 0.02, Break: true},
		{Verb: embedded.VerbCommit, Probability: 0.01, RC: mqfmt.RCBackedOut},
		{Verb: embedded.VerbBackout, Probability: 0.02, Break: true},
		{Verb: embedded.VerbStat, Probability: 0.01, Break: true},
	} {
		id := fs.Add(f)
		if f.Verb == embedded.VerbGet || f.Verb == embedded.VerbCommit {
			afterGets = append(afterGets, id)
		}
	}
	return afterGets
}

// TestChaos moves 5,000 messages off a DEADQ and two BOQs with requeue,
// move and discard under random faults and cancellations, run after run
// until the sources are empty; then every message (MsgId and data: twins
// and segments share a MsgId) is on a queue or in an archive exactly as
// often as it was put, its data byte for byte: nothing lost, nothing
// duplicated, no message's data under another's name.
// After every run that no fault struck after its gets (the only way IBM MQ
// counts a backout), no message left on a source has a higher BackoutCount.
//
// Every run browses what is left on the sources, so the test's time grows
// faster than its size: 5,000 messages take about as many runs as 10,000
// and are stopped for the same reasons (the tally it logs), in a third of
// the time.
func TestChaos(t *testing.T) {
	n := *chaosSize
	if n == 0 {
		n = 5000
		if testing.Short() {
			n = 2000
		}
	}
	rng := rand.New(rand.NewPCG(*chaosSeed, 99))
	f := newOpFixture(t, "")
	want := chaosPopulate(t, f, n, rng)
	index := chaosIndex(want)
	afterGets := chaosFaults(f.qm.Faults())
	eng := f.engine()
	counts := chaosBackoutCounts(t, f, index)
	var archives []string
	stats := map[string]int{}
	for round := 0; ; round++ {
		left := chaosDepth(t, f, "QM1.DEADQ") + chaosDepth(t, f, "ORDERS.BO") + chaosDepth(t, f, "SHARED.BO")
		if left == 0 {
			t.Logf("%d messages settled in %d runs: %v", n, round, stats)
			break
		}
		if round == 3000 {
			t.Fatalf("%d messages still on the sources after %d runs: %v", left, round, stats)
		}
		req := chaosRequest(f, rng)
		hits := chaosHits(f, afterGets)
		res, broke := chaosRun(t, f, eng, req, rng)
		now := chaosBackoutCounts(t, f, index)
		if !broke && chaosHits(f, afterGets) == hits {
			for k, n := range now {
				if n > counts[k] {
					t.Fatalf("run %d (%s %s): MsgId %x (%.20q) left on the source with BackoutCount %d, was %d; stopped %q",
						round, req.Op, req.Queue, k.id[16:], k.data, n, counts[k], res.Stopped)
				}
			}
		}
		counts = now
		stats[string(req.Op)+" runs"]++
		stats["done"] += res.Done
		if res.Stopped != "" {
			stats["stopped: "+chaosStopKind(res.Stopped)]++
		}
		if res.InDoubt > 0 {
			t.Fatalf("run %d: %d messages in doubt on a queue manager whose backouts can be checked: %s", round, res.InDoubt, res.Stopped)
		}
		if res.ArchiveFile != "" {
			archives = append(archives, res.ArchiveFile)
		}
	}
	f.qm.Faults().Clear()
	got := chaosCount(t, f, archives, index)
	for k, w := range want {
		if got[k] != w {
			t.Errorf("MsgId %x with data %.20q: %d copies, want %d", k.id[16:], k.data, got[k], w)
		}
	}
	for k, g := range got {
		if want[k] == 0 {
			t.Errorf("MsgId %x: %d copies of data never put with it (%.40q)", k.id, g, k.data)
		}
	}
	chaosNoUncommitted(t, f)
}

// chaosPopulate puts n messages: half dead-lettered for three input queues,
// a quarter on ORDERS.BO, a quarter on SHARED.BO (half of them without a JMS
// destination, so only a move or a target can clear them). About one in
// twenty is a pair of twins (the same MQMD, different data) and one in
// twenty a message in three segments sharing its MsgId. It returns how many
// times each (MsgId, data) was put.
func chaosPopulate(t *testing.T, f *opFixture, n int, rng *rand.Rand) map[chaosKey]int {
	c := f.conn()
	want := make(map[chaosKey]int, n)
	dests := []string{"ORDERS.IN", "PAYMENTS.IN", "REFUNDS.IN"}
	for i := 1; i <= n; i++ {
		md, data := original(i)
		mds, datas := []mqfmt.MQMD{md}, [][]byte{data}
		switch rng.IntN(20) {
		case 0:
			mds, datas = []mqfmt.MQMD{md, md}, [][]byte{[]byte(fmt.Sprintf("twin a %d", i)), []byte(fmt.Sprintf("twin b %d", i))}
		case 1:
			mds, datas = nil, nil
			for s := range 3 {
				seg := md
				seg.GroupId, seg.Offset, seg.MsgFlags = msgID(700_000+i), int32(10*s), mqfmt.MFSegment
				if s == 2 {
					seg.MsgFlags |= mqfmt.MFLastSegment
				}
				mds, datas = append(mds, seg), append(datas, []byte(fmt.Sprintf("segment %d of %d", s, i)))
			}
		}
		k, dest, dst := rng.IntN(4), dests[rng.IntN(len(dests))], ""
		rc := []mqfmt.Reason{mqfmt.RCQFull, mqfmt.RCPutInhibited}[rng.IntN(2)]
		if rng.IntN(2) == 0 {
			dst = "queue:///" + dests[1+rng.IntN(2)]
		}
		for j := range mds {
			switch {
			case k < 2:
				f.deadLetterMsg(c, mds[j], datas[j], dest, "QM1", rc)
			case k == 2:
				f.backedOutMsg(c, mds[j], datas[j], "ORDERS.BO", "")
			default:
				f.backedOutMsg(c, mds[j], datas[j], "SHARED.BO", dst)
			}
			want[chaosKey{mds[j].MsgId, string(datas[j])}]++
		}
	}
	return want
}

// chaosKey identifies a message as the application put it: its MsgId and
// its data, which every move keeps byte for byte after whatever headers it
// carries (an MQDLH, an MQRFH2).
type chaosKey struct {
	id   [24]byte
	data string
}

// chaosIndex lists the messages put with each MsgId.
func chaosIndex(want map[chaosKey]int) map[[24]byte][]chaosKey {
	out := map[[24]byte][]chaosKey{}
	for k := range want {
		out[k.id] = append(out[k.id], k)
	}
	return out
}

// chaosKeyOf finds which message put a message found is: the one with its
// MsgId whose data its data ends with (an unknown one keeps its own data).
func chaosKeyOf(id [24]byte, data []byte, index map[[24]byte][]chaosKey) chaosKey {
	for _, k := range index[id] {
		if strings.HasSuffix(string(data), k.data) {
			return k
		}
	}
	return chaosKey{id: id, data: string(data)}
}

// chaosRequest picks the next action at random.
func chaosRequest(f *opFixture, rng *rand.Rand) ops.OpRequest {
	req := ops.OpRequest{All: true, Batch: 1 + rng.IntN(200), Workers: 1 + rng.IntN(4)}
	switch rng.IntN(7) {
	case 0, 1:
		req.Op, req.Queue = ops.OpRequeue, "QM1.DEADQ"
	case 2:
		req.Op, req.Queue = ops.OpRequeue, "ORDERS.BO"
	case 3:
		req.Op, req.Queue = ops.OpRequeue, "SHARED.BO"
	case 4:
		req.Op, req.Queue, req.Target = ops.OpMove, []string{"SHARED.BO", "QM1.DEADQ"}[rng.IntN(2)], "PARKING.Q"
	case 5:
		req.Op, req.Queue = ops.OpDiscard, []string{"QM1.DEADQ", "ORDERS.BO"}[rng.IntN(2)]
		req.Filter, req.All = &ops.Filter{Reason: int32(mqfmt.RCPutInhibited)}, req.Queue == "ORDERS.BO"
	default:
		// The operator's own selection: some of the messages shown.
		req.Op, req.Queue, req.Target, req.All = ops.OpMove, "QM1.DEADQ", "PARKING.Q", false
		for _, s := range f.summaries("QM1.DEADQ") {
			if rng.IntN(3) == 0 {
				req.Messages = append(req.Messages, s)
			}
		}
		if len(req.Messages) == 0 {
			req.All = true
		}
	}
	return req
}

// chaosRun runs req, now and then cancelled part way or with every
// connection broken under it, and checks that the counts add up.
func chaosRun(t *testing.T, f *opFixture, eng *ops.Engine, req ops.OpRequest, rng *rand.Rand) (ops.OpResult, bool) {
	ctx, cancel := context.WithCancel(f.ctx)
	defer cancel()
	stopAt := -1
	if rng.IntN(5) == 0 {
		stopAt = rng.IntN(300)
	}
	breakAll := rng.IntN(10) == 0
	delay := time.Duration(1+rng.IntN(3000)) * time.Microsecond
	done, broke := make(chan struct{}), make(chan struct{})
	var brokeAll bool
	go func() {
		defer close(broke)
		if !breakAll {
			return
		}
		select {
		case <-time.After(delay):
			f.qm.BreakAll()
			brokeAll = true
		case <-done:
		}
	}()
	res, _ := eng.Run(ctx, req, func(p ops.OpProgress) {
		if stopAt >= 0 && p.Done >= stopAt {
			cancel()
		}
	})
	close(done)
	<-broke
	if sum := res.Done + res.Skipped + res.Failed + res.InDoubt + res.NotDone; sum != len(res.Items) {
		t.Fatalf("%s: done %d + skipped %d + failed %d + in doubt %d + not done %d != %d items",
			req.Op, res.Done, res.Skipped, res.Failed, res.InDoubt, res.NotDone, len(res.Items))
	}
	return res, brokeAll
}

// chaosHits counts the hits of faults.
func chaosHits(f *opFixture, ids []embedded.FaultID) int {
	n := 0
	for _, id := range ids {
		n += f.qm.Faults().Hits(id)
	}
	return n
}

// chaosBackoutCounts is the BackoutCount of every message on the sources.
func chaosBackoutCounts(t *testing.T, f *opFixture, index map[[24]byte][]chaosKey) map[chaosKey]int32 {
	out := map[chaosKey]int32{}
	c, err := f.qm.Connect(f.ctx, mqwatch.ConnectOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	for _, name := range []string{"QM1.DEADQ", "ORDERS.BO", "SHARED.BO"} {
		q, err := c.Open(f.ctx, mqwatch.ObjectDesc{Name: name}, mqwatch.OpenOptions{Browse: true})
		if err != nil {
			t.Fatal(err)
		}
		opts := mqwatch.BrowseOptions{First: true}
		for {
			m, err := q.Browse(f.ctx, opts)
			if err != nil {
				break
			}
			out[chaosKeyOf(m.MD.MsgId, m.Data, index)] = m.MD.BackoutCount
			opts.First = false
		}
		_ = q.Close(f.ctx)
	}
	return out
}

// chaosCount counts every message, by MsgId and data, on every application
// queue and in the archives.
func chaosCount(t *testing.T, f *opFixture, archives []string, index map[[24]byte][]chaosKey) map[chaosKey]int {
	got := map[chaosKey]int{}
	for _, q := range []string{"QM1.DEADQ", "ORDERS.BO", "SHARED.BO", "ORDERS.IN", "PAYMENTS.IN", "REFUNDS.IN", "PARKING.Q", "QM2"} {
		for _, m := range f.browse(q) {
			got[chaosKeyOf(m.MD.MsgId, m.Data, index)]++
		}
	}
	for _, a := range archives {
		for _, m := range readArchive(t, a) {
			got[chaosKeyOf(m.MD.MsgId, m.Data, index)]++
		}
	}
	return got
}

// chaosDepth is CURDEPTH: one inquiry instead of browsing the queue.
func chaosDepth(t *testing.T, f *opFixture, queue string) int {
	c, err := f.qm.Connect(f.ctx, mqwatch.ConnectOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	st, err := c.QueueStatus(f.ctx, queue)
	if err != nil || len(st) != 1 {
		t.Fatalf("status of %s: %v", queue, err)
	}
	return int(st[0].Depth)
}

func chaosNoUncommitted(t *testing.T, f *opFixture) {
	st, err := f.conn().QueueStatus(f.ctx, "*")
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range st {
		if s.Uncommitted != 0 {
			t.Errorf("%s has %d uncommitted messages", s.Name, s.Uncommitted)
		}
	}
}

// chaosStopKind shortens a stop message for the tally.
func chaosStopKind(s string) string {
	for _, k := range []string{"cancelled", "connection broken", "is full", "MQCMIT", "MQGET", "MQPUT", "open"} {
		if strings.Contains(s, k) {
			return k
		}
	}
	return fmt.Sprintf("%.40s", s)
}
