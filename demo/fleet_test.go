package demo

import (
	"context"
	"strings"
	"testing"
	"time"
)

func TestParseFleet(t *testing.T) {
	tests := []struct {
		in      string
		want    FleetOptions
		isFleet bool
		err     bool
	}{
		{"fleet", FleetOptions{}, true, false},
		{"fleet:10", FleetOptions{QMgrs: 10}, true, false},
		{"fleet:10x200", FleetOptions{QMgrs: 10, Queues: 200}, true, false},
		{"fleet:0", FleetOptions{}, true, true},
		{"fleet:x5", FleetOptions{}, true, true},
		{"fleet:3x", FleetOptions{}, true, true},
		{"fleet:3x-1", FleetOptions{}, true, true},
		{"fleetwood", FleetOptions{}, false, false},
		{"./fleet", FleetOptions{}, false, false},
		{"scenarios/fleet.toml", FleetOptions{}, false, false},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			got, ok, err := ParseFleet(tt.in)
			if ok != tt.isFleet || (err != nil) != tt.err {
				t.Fatalf("ParseFleet(%q) = %+v, %v, %v", tt.in, got, ok, err)
			}
			if err == nil && got != tt.want {
				t.Fatalf("ParseFleet(%q) = %+v, want %+v", tt.in, got, tt.want)
			}
		})
	}
}

func TestFleetSizesAndTrouble(t *testing.T) {
	tests := []struct {
		o           FleetOptions
		names       []string // first and last queue manager
		queues      int
		stopped     string
		refuseSizes bool
	}{
		{FleetOptions{}, []string{"QM01", "QM50"}, DefaultFleetQueues, "QM50", false},
		{FleetOptions{QMgrs: 1, Queues: MinFleetQueues}, []string{"QM01", "QM01"}, MinFleetQueues, "", false},
		{FleetOptions{QMgrs: 100, Queues: 30}, []string{"QM001", "QM100"}, 30, "QM100", false},
		{FleetOptions{QMgrs: 101}, nil, 0, "", true},
		{FleetOptions{QMgrs: 2, Queues: MinFleetQueues - 1}, nil, 0, "", true},
		{FleetOptions{QMgrs: 2, Queues: MaxFleetQueues + 1}, nil, 0, "", true},
	}
	for _, tt := range tests {
		s, err := Fleet(tt.o)
		if tt.refuseSizes {
			if err == nil {
				t.Errorf("Fleet(%+v) accepted", tt.o)
			}
			continue
		}
		if err != nil {
			t.Fatalf("Fleet(%+v): %v", tt.o, err)
		}
		if first, last := s.QMgrs[0].Name, s.QMgrs[len(s.QMgrs)-1].Name; first != tt.names[0] || last != tt.names[1] {
			t.Errorf("Fleet(%+v) names %s .. %s, want %v", tt.o, first, last, tt.names)
		}
		for _, q := range s.QMgrs {
			// Every queue is defined but the DEADQ, which IBM's default
			// objects hold and the script makes the DEADQ.
			if n := strings.Count(q.Scripts[0].Text, "DEFINE QLOCAL"); n != tt.queues-1 {
				t.Fatalf("%s defines %d queues, want %d and the DEADQ", q.Name, n, tt.queues-1)
			}
		}
		stopped := ""
		for _, e := range s.Events {
			if e.Stop {
				stopped = e.QMgr
			}
		}
		if stopped != tt.stopped {
			t.Errorf("Fleet(%+v) stops %q, want %q", tt.o, stopped, tt.stopped)
		}
	}
}

// TestFleetSimulates runs a small fleet past the moment its last queue
// manager stops: each trouble shows where the fleet says it is, and every
// message is still accounted for once.
func TestFleetSimulates(t *testing.T) {
	s, err := Fleet(FleetOptions{QMgrs: 10, Queues: 50})
	if err != nil {
		t.Fatal(err)
	}
	res, err := s.Simulate(context.Background(), SimOptions{Duration: 11 * time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	if !res.Accounting.Balanced {
		t.Fatalf("conservation check failed: %+v", res.Accounting)
	}
	depth := map[string]int32{}
	maxBO := map[string]int32{}
	for _, q := range res.QMgrs {
		for _, qr := range q.Queues {
			depth[q.Name+" "+qr.Name] = qr.Depth
			maxBO[q.Name+" "+qr.Name] = qr.MaxBackoutCount
		}
	}
	checks := []struct {
		what string
		ok   bool
	}{
		{"QM01 loops on APP.0002.IN (BOTHRESH 0)", maxBO["QM01 APP.0002.IN"] > 100},
		{"QM03's backout queue fills", depth["QM03 APP.0001.BO"] > 50},
		{"QM05's DEADQ gains dead letters", depth["QM05 "+fleetDeadQ] > 100},
		{"QM07's head is past BOTHRESH 5 (stuck)", maxBO["QM07 APP.0002.IN"] >= 5},
		{"the batch job left 3 messages on every tenth queue", depth["QM02 APP.0010.IN"] == 3 && depth["QM02 APP.0040.IN"] == 3},
		{"a quiet queue stays empty", depth["QM02 APP.0011.IN"] == 0},
	}
	for _, c := range checks {
		if !c.ok {
			t.Errorf("%s: not so", c.what)
		}
	}
	if len(res.Events) != 1 || res.Events[0].QMgr != "QM10" || res.Events[0].Error != "" {
		t.Errorf("events %+v, want QM10 stopped", res.Events)
	}
}

// Events that stop and start a queue manager, and a producer over several
// queues, load from TOML; a malformed one is refused with what is wrong.
func TestFleetFeaturesLoad(t *testing.T) {
	base := `
[[qmgr]]
name = "QM1"
script = "DEFINE QLOCAL(A)\nDEFINE QLOCAL(B)"
[[producer]]
name = "P"
rate = 1
`
	tests := []struct {
		name, extra, err string
	}{
		{"queues in turn", "queues = [\"A\", \"B\"]\n", ""},
		{"queue and queues", "queue = \"A\"\nqueues = [\"B\"]\n", "exactly one of queue, queues and topic"},
		{"bad name in queues", "queues = [\"A\", \"B B\"]\n", "not allowed"},
		{"stop and start", "queue = \"A\"\n[[event]]\nat = \"1m\"\nqmgr = \"QM1\"\nstop = true\n[[event]]\nat = \"2m\"\nqmgr = \"QM1\"\nstart = true\n", ""},
		{"stop with MQSC", "queue = \"A\"\n[[event]]\nat = \"1m\"\nqmgr = \"QM1\"\nstop = true\nmqsc = \"ALTER QLOCAL(A) PUT(DISABLED)\"\n", "one of mqsc, stop and start"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Parse([]byte(base + tt.extra))
			if tt.err == "" && err != nil {
				t.Fatalf("refused: %v", err)
			}
			if tt.err != "" && (err == nil || !strings.Contains(err.Error(), tt.err)) {
				t.Fatalf("err %v, want %q", err, tt.err)
			}
		})
	}
}

// A producer over several queues puts on each in turn, and a stopped queue
// manager refuses connections until started again; both in one simulation.
func TestQueuesInTurnAndStopStart(t *testing.T) {
	s, err := Parse([]byte(`
duration = "3m"
[[qmgr]]
name = "QM1"
script = "DEFINE QLOCAL(A)\nDEFINE QLOCAL(B)\nDEFINE QLOCAL(C)"
[[producer]]
name = "P"
queues = ["A", "B", "C"]
rate = 1
count = 7
[[producer]]
name = "Q"
queue = "A"
rate = 1
start = "1m"
stop = "2m30s"
[[event]]
at = "1m30s"
qmgr = "QM1"
stop = true
[[event]]
at = "2m"
qmgr = "QM1"
start = true
`))
	if err != nil {
		t.Fatal(err)
	}
	res, err := s.Simulate(context.Background(), SimOptions{})
	if err != nil {
		t.Fatal(err)
	}
	depth := map[string]int32{}
	for _, q := range res.QMgrs[0].Queues {
		depth[q.Name] = q.Depth
	}
	if depth["B"] != 2 || depth["C"] != 2 {
		t.Errorf("depths %v: want 7 messages over A, B, C in turn (3, 2, 2) plus Q's on A", depth)
	}
	q := res.Producers[1]
	// Q puts once a second from 1m: about 30 before the stop; the puts while
	// the queue manager is down fail with 2009 (its connection broke), and
	// those after the restart too, since nothing reconnects it.
	if q.PutFailed["2009"] == 0 || depth["A"] != int32(3+q.Produced) {
		t.Errorf("producer Q: %+v, A holds %d", q, depth["A"])
	}
	if !res.Accounting.Balanced {
		t.Errorf("conservation check failed: %+v", res.Accounting)
	}
}
