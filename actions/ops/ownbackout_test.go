package ops_test

import (
	"fmt"
	"testing"

	"github.com/poisonwatch/poisonwatch/actions/ops"
	"github.com/poisonwatch/poisonwatch/backend/embedded"
	"github.com/poisonwatch/poisonwatch/codec/mqfmt"
)

// TestR10a_EngineBackoutRaisesACountOnceAtMost pins the engine's own
// MQBACK (issue 24 §4): when a message of a batch is taken by someone else
// between the browse and its get (2033 here), the batch is backed out, and
// IBM MQ counts a backout for each message got before it. Those messages are
// tried again each in a unit of work of its own, where the get is the last
// call before MQCMIT, so a second failure never raises a count again; the
// messages after the gone one were never got and keep their count.
func TestR10a_EngineBackoutRaisesACountOnceAtMost(t *testing.T) {
	f := newOpFixture(t, "")
	c := f.conn()
	for n := 1; n <= 5; n++ {
		md, data := original(n)
		f.putSetAll(c, "ORDERS.BO", md, data)
	}
	// Gets 3, 5 and 6 find their message gone (consumers racing). Batch:
	// 1 and 2 got, 3 gone, backed out (1 and 2 count one backout). Then 1
	// goes alone, 2 alone finds itself gone, and of 4 and 5, 4 is gone
	// first thing. Tried together again instead, 1 would be got and backed
	// out a second time and then left with a count of 2.
	for _, after := range []int{2, 4, 5} {
		f.qm.Faults().Add(embedded.Fault{Verb: embedded.VerbGet, After: after, Times: 1, RC: mqfmt.RCNoMsgAvailable})
	}
	res := f.run(f.engine(), ops.OpRequest{Op: ops.OpMove, Queue: "ORDERS.BO", All: true, Target: "PARKING.Q", Workers: 1, Batch: 5})
	if res.Done != 2 || res.Skipped != 3 {
		t.Fatalf("done %d skipped %d, want 2 and 3", res.Done, res.Skipped)
	}
	var moved []string
	for _, m := range f.browse("PARKING.Q") {
		moved = append(moved, string(m.Data))
	}
	if fmt.Sprint(moved) != `[{"order":1} {"order":5}]` {
		t.Errorf("moved %v, want orders 1 and 5 in order", moved)
	}
	counts := map[string]int32{}
	for _, m := range f.browse("ORDERS.BO") {
		counts[string(m.Data)] = m.MD.BackoutCount
	}
	want := map[string]int32{`{"order":2}`: 1, `{"order":3}`: 0, `{"order":4}`: 0}
	if fmt.Sprint(counts) != fmt.Sprint(want) {
		t.Errorf("left on the source with BackoutCounts %v, want %v: message 2 raised once by the engine's backout, never twice; message 3 never got", counts, want)
	}
}
