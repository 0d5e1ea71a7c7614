package journal

import (
	"strings"
	"sync"
	"testing"
	"time"
)

var t0 = time.Date(2026, 3, 9, 21, 35, 41, 0, time.UTC)

func TestAppendNumbersInOrderAndTellsSubscribers(t *testing.T) {
	j := New()
	var got []uint64
	cancel := j.Subscribe(func(e Entry) { got = append(got, e.Seq) })
	a := j.Append(Entry{Kind: Run})
	b := j.Append(Entry{Kind: CameBack, Ref: a.Seq})
	cancel()
	j.Append(Entry{Kind: Ack})
	if a.Seq != 1 || b.Seq != 2 || len(got) != 2 || got[1] != 2 {
		t.Fatalf("seqs %d %d, told %v", a.Seq, b.Seq, got)
	}
	if es := j.Entries(); len(es) != 3 || es[2].Seq != 3 {
		t.Fatalf("entries %+v", es)
	}
}

func TestConcurrentAppendsAreToldInTheirOrder(t *testing.T) {
	j := New()
	var mu sync.Mutex
	var told []uint64
	j.Subscribe(func(e Entry) { mu.Lock(); told = append(told, e.Seq); mu.Unlock() })
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			for range 50 {
				j.Append(Entry{Kind: Run})
			}
		})
	}
	wg.Wait()
	for i, s := range told {
		if s != uint64(i+1) {
			t.Fatalf("entry %d told as %d: out of order", i+1, s)
		}
	}
}

func TestNilJournalRecordsNothing(t *testing.T) {
	var j *Journal
	if e := j.Append(Entry{Kind: Run}); e.Seq != 0 || j.Entries() != nil || j.Len() != 0 {
		t.Fatal("a nil journal kept something")
	}
	j.Subscribe(func(Entry) {})()
}

func TestJournalIsBoundedInMemory(t *testing.T) {
	j := New()
	for range maxEntries + 10 {
		j.Append(Entry{Kind: Ack})
	}
	if n := j.Len(); n > maxEntries {
		t.Fatalf("%d entries held, cap %d", n, maxEntries)
	}
	es := j.Entries()
	if last := es[len(es)-1].Seq; last != maxEntries+10 {
		t.Fatalf("last seq %d: numbering restarted", last)
	}
}

func TestActsFoldWhatCameBackIntoTheRun(t *testing.T) {
	run := Entry{Seq: 1, At: t0, Kind: Run, Op: "requeue", User: "alice", Text: "Requeue 22 messages from ORDERS.BO to ORDERS.IN",
		Outcome: "22 requeued", Status: OK, Counts: Counts{Requested: 22, Done: 22}}
	back := Entry{Seq: 3, Ref: 1, Kind: CameBack, Outcome: "all 22 came back (R10f) to SYSTEM.DEAD.LETTER.QUEUE within 4 s (2053: ORDERS.BO full)",
		Status: Returned, Counts: Counts{CameBack: 22}}
	quiet := Entry{Seq: 5, At: t0, Kind: Run, Op: "move", Outcome: "1 moved", Status: OK}
	none := Entry{Seq: 6, Ref: 5, Kind: CameBack, Outcome: "none of the 1 came back within 30 s", Status: OK}
	acts := Acts([]Entry{run, {Seq: 2, Kind: Join, User: "bob"}, back, {Seq: 4, Kind: Ack, User: "bob"}, quiet, none})
	if len(acts) != 3 {
		t.Fatalf("%d acts, want run, ack, move: %+v", len(acts), acts)
	}
	if a := acts[0]; a.Status != Returned || a.Counts.CameBack != 22 || !strings.HasPrefix(a.Outcome, "all 22 came back (R10f)") || strings.Contains(a.Outcome, "22 requeued") {
		t.Errorf("run folded as %q (%s)", a.Outcome, a.Status)
	}
	if a := acts[2]; a.Outcome != "1 moved · none of the 1 came back within 30 s" || a.Status != OK {
		t.Errorf("move folded as %q", a.Outcome)
	}
}

func TestACompletionWithoutItsActStandsAlone(t *testing.T) {
	acts := Acts([]Entry{{Seq: 9, Ref: 2, Kind: CameBack, Outcome: "it came back"}})
	if len(acts) != 1 || acts[0].Outcome != "it came back" {
		t.Fatalf("%+v", acts)
	}
}

func TestSentences(t *testing.T) {
	cases := []struct {
		name string
		e    Entry
		want string
	}{
		{"run", Entry{Kind: Run, User: "alice", Text: "Requeue 21 messages from ORDERS.BO to ORDERS.IN", Outcome: "21 requeued"},
			"alice: requeue 21 messages from ORDERS.BO to ORDERS.IN — 21 requeued"},
		{"came_back", Entry{Kind: CameBack, User: "alice", Text: "the check after Requeue 21 messages from ORDERS.BO", Outcome: "all 21 came back (R10f)"},
			"alice's Requeue 21 messages from ORDERS.BO: all 21 came back (R10f)"},
		{"fix_keeps_mqsc_case", Entry{Kind: Inhibit, User: "alice", Text: "ALTER QLOCAL(ORDERS.IN) GET(DISABLED)", Outcome: "applied"},
			"alice: ALTER QLOCAL(ORDERS.IN) GET(DISABLED) — applied"},
		{"ack", Entry{Kind: Ack, User: "bob", Text: "R1c on ORDERS.IN", Note: "looking"}, `bob acknowledged R1c on ORDERS.IN: "looking"`},
		{"join", Entry{Kind: Join, User: "carol", Note: "viewer"}, "carol joined the room as viewer"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if got := tc.e.Sentence(); got != tc.want {
				t.Errorf("got  %q\nwant %q", got, tc.want)
			}
		})
	}
}

// Who set GET off is the newest applied inhibit of GET, until one enables
// it again; PUT's and other queues' do not count.
func TestInhibitedIsTheNewestApplied(t *testing.T) {
	j := New()
	inhibit := func(queue, mqsc string, applied bool) {
		j.Append(Entry{At: t0, Kind: Inhibit, User: "alice (ssh key SHA256:x)", QMgr: "QM1", Queue: queue,
			Steps: []Step{{MQSC: mqsc, Applied: applied}}})
	}
	inhibit("ORDERS.IN", "ALTER QLOCAL(ORDERS.IN) GET(DISABLED)", true)
	inhibit("ORDERS.IN", "ALTER QLOCAL(ORDERS.IN) PUT(ENABLED)", true)
	inhibit("ORDERS.IN", "ALTER QLOCAL(ORDERS.IN) GET(ENABLED)", false) // refused: GET stays off
	inhibit("OTHER.IN", "ALTER QLOCAL(OTHER.IN) GET(ENABLED)", true)
	if e, ok := j.Inhibited("QM1", "ORDERS.IN", "GET"); !ok || e.Who() != "alice" {
		t.Fatalf("GET: %+v %v, want alice's inhibit", e, ok)
	}
	if _, ok := j.Inhibited("QM1", "ORDERS.IN", "PUT"); ok {
		t.Fatal("PUT was enabled, not disabled")
	}
	inhibit("ORDERS.IN", "ALTER QLOCAL(ORDERS.IN) GET(ENABLED)", true)
	if _, ok := j.Inhibited("QM1", "ORDERS.IN", "GET"); ok {
		t.Fatal("GET is enabled again")
	}
}
