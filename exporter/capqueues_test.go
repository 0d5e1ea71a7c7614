package exporter

import (
	"fmt"
	"testing"
)

// --max-queues: the queues that matter keep their series (the DEADQ,
// queues with alerts, backout queues), the rest are summed per role as
// queue="(other)", and qmgr_queues says how many there were.
func TestMaxQueues(t *testing.T) {
	e := newEnvScript(t, manyQueues(40), Config{MaxQueues: 8}, func(t testing.TB, e *env) {
		fillTrouble(t, e)
		for i := range 10 {
			e.put(t, fmt.Sprintf("APP.%04d.A.RATHER.LONG.QUEUE.NAME.FOR.SIZE", i), 1)
		}
	})
	fams := e.scrape(t)
	depths := samples(fams, "poisonwatch_queue_depth_messages", []string{"queue", "role"})
	for _, want := range []string{"QM1.DEADQ/deadq", "ORDERS.BO/boq", "LOOP.IN/input", "STUCK.IN/input", "STUCK.BO/boq",
		"ORDERS.IN/input", "APP.0000.A.RATHER.LONG.QUEUE.NAME.FOR.SIZE/input", "APP.0001.A.RATHER.LONG.QUEUE.NAME.FOR.SIZE/input", "(other)/input"} {
		if _, ok := depths[want]; !ok {
			t.Errorf("no depth for %s: %v", want, depths)
		}
	}
	if len(depths) != 8+1 {
		t.Errorf("%d depth series, want 8 queues and (other) for the input queues left out: %v", len(depths), depths)
	}
	if v, _ := sample(fams, "poisonwatch_qmgr_queues"); v != 46 {
		t.Errorf("qmgr_queues = %v, want the 46 local queues", v)
	}
	// The rest by depth: ORDERS.IN (2), then APP.0000 and APP.0001 (1 each,
	// by name); the other eight APP queues with a message are in (other).
	if v := depths["(other)/input"]; v != 8 {
		t.Errorf("(other) input depth = %v, want 8", v)
	}
	if _, ok := sample(fams, "poisonwatch_queue_max_depth_messages", "queue", Other); ok {
		t.Error("MAXDEPTH does not add up, yet (other) has one")
	}
}
