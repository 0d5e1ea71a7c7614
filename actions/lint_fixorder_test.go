package actions

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/poisonwatch/poisonwatch/mqwatch"
	"github.com/poisonwatch/poisonwatch/mqwatch/pcf"
)

// finding returns the finding of rule on queue, failing the test without one.
func finding(t *testing.T, fs []Finding, rule, queue string) Finding {
	t.Helper()
	i := slices.IndexFunc(fs, func(f Finding) bool { return f.Rule == rule && f.Queue == queue })
	if i < 0 {
		t.Fatalf("no %s finding on %q in:\n%s", rule, queue, findingsText(fs))
	}
	return fs[i]
}

// demoQM1 is QM1 of the demo as the issue saw it: ORDERS.IN loops with
// BOTHRESH 0, and ORDERS.BO, which its fix would name, is full at 40/40.
func demoQM1() LintInput {
	in := healthy()
	bo := lq("ORDERS.BO", 0, "")
	bo.MaxDepth, bo.MaxMsgLen = 40, mb4+rfh2FixedLen
	orders := lq("ORDERS.IN", 0, "")
	orders.MaxDepth = 10000
	in.Queues = []mqwatch.QueueInfo{orders, lq("ORDERS.EXPRESS.IN", 3, "ORDERS.BO"), bo, in.Queues[2]}
	in.Status = []mqwatch.QueueStatus{{Name: "ORDERS.IN", Depth: 814, OpenInput: 4}, {Name: "ORDERS.BO", Depth: 40}, {Name: "QM1.DEADQ"}}
	in.MaxBackoutSeen = map[string]int32{"ORDERS.IN": 13183}
	return in
}

func TestR1c_FixWaitsForBOQ(t *testing.T) {
	got := Lint(demoQM1())
	r1c := finding(t, got, "R1c", "ORDERS.IN")
	want := []string{"ALTER QLOCAL(ORDERS.BO) MAXDEPTH(5000)", "ALTER QLOCAL(ORDERS.IN) BOTHRESH(3) BOQNAME(ORDERS.BO)"}
	if !slices.Equal(r1c.Fix, want) || r1c.Prereq != 1 {
		t.Fatalf("R1c fix %q (prereq %d), want %q with the BOQ's room first", r1c.Fix, r1c.Prereq, want)
	}
	if len(r1c.After) != 1 || r1c.After[0] != "R8b ORDERS.BO: full, 40 of MAXDEPTH 40" {
		t.Errorf("after %q", r1c.After)
	}
	// The BOQ's own finding proposes the same command, so applying either
	// first leaves the other consistent.
	r8b := finding(t, got, "R8b", "ORDERS.BO")
	if r8b.Severity != Critical || !slices.Equal(r8b.Fix, want[:1]) || r8b.Prereq != 0 {
		t.Errorf("R8b %s fix %q prereq %d", r8b, r8b.Fix, r8b.Prereq)
	}
}

func TestR1b_BOTHRESHFixSaysJMSConsumersMustReconnect(t *testing.T) {
	r1c := finding(t, Lint(demoQM1()), "R1c", "ORDERS.IN")
	if len(r1c.Notes) != 1 || !strings.Contains(r1c.Notes[0], "restart the 4 consumer(s) of ORDERS.IN") || !strings.HasPrefix(r1c.Notes[0], "R1b ") {
		t.Errorf("notes %q", r1c.Notes)
	}
	// A fix that changes no BOTHRESH or BOQNAME has no such note.
	if r8b := finding(t, Lint(demoQM1()), "R8b", "ORDERS.BO"); len(r8b.Notes) != 0 {
		t.Errorf("R8b notes %q", r8b.Notes)
	}
}

func TestR8b_FixOrderedAfterFullBOQ(t *testing.T) {
	for _, tc := range []struct {
		name  string
		edit  func(*LintInput)
		rule  string
		queue string
		first []string
		after string
	}{
		{"R2c_BOQNAME_naming_a_put_inhibited_queue_enables_it_first", func(in *LintInput) {
			bo := lq("PAY.BO", 0, "")
			bo.InhibitPut = true
			in.Queues = append(in.Queues, lq("PAY.IN", 5, ""), bo)
		}, "R2c", "PAY.IN", []string{"ALTER QLOCAL(PAY.BO) PUT(ENABLED)"}, "R8b PAY.BO: PUT(DISABLED)"},
		{"R2c_BOQNAME_naming_a_too_small_queue_raises_MAXMSGL_first", func(in *LintInput) {
			bo := lq("PAY.BO", 0, "")
			bo.MaxMsgLen = 1024
			in.Queues = append(in.Queues, lq("PAY.IN", 5, ""), bo)
		}, "R2c", "PAY.IN", []string{"ALTER QMGR MAXMSGL(4194340)", "ALTER QLOCAL(PAY.BO) MAXMSGL(4194340)"}, "R8b PAY.BO: MAXMSGL 1024, smaller than PAY.IN's 4194304"},
		{"R2c_BOQNAME_naming_a_near_full_queue_makes_room_first", func(in *LintInput) {
			in.Queues = append(in.Queues, lq("PAY.IN", 5, ""), lq("PAY.BO", 0, ""))
			setStatus(in, "PAY.BO", 4900)
		}, "R2c", "PAY.IN", []string{"ALTER QLOCAL(PAY.BO) MAXDEPTH(10000)"}, "R8b PAY.BO: near MAXDEPTH, 4900 of 5000"},
		{"R8a_DEADQ_naming_a_full_queue_makes_room_first", func(in *LintInput) {
			in.QMgr.DeadQ = ""
			dlq := lq(defaultDeadQ, 0, "")
			dlq.MaxDepth, dlq.MaxMsgLen = 100, mb4+dlhLen
			in.Queues = append(in.Queues, dlq)
			setStatus(in, defaultDeadQ, 100)
		}, "R8a", "QM1", []string{"ALTER QLOCAL(SYSTEM.DEAD.LETTER.QUEUE) MAXDEPTH(5000)"}, "R8a SYSTEM.DEAD.LETTER.QUEUE: full, 100 of MAXDEPTH 100"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := finding(t, Lint(edit(healthy(), tc.edit)), tc.rule, tc.queue)
			if f.Prereq != len(tc.first) || !slices.Equal(f.Fix[:f.Prereq], tc.first) {
				t.Fatalf("fix %q prereq %d, want first %q", f.Fix, f.Prereq, tc.first)
			}
			if !slices.Contains(f.After, tc.after) {
				t.Errorf("after %q, want %q", f.After, tc.after)
			}
		})
	}
}

func TestR8b_FixOfAHealthyBOQNeedsNothingFirst(t *testing.T) {
	in := edit(healthy(), func(in *LintInput) { in.Queues = append(in.Queues, lq("PAY.IN", 5, ""), lq("PAY.BO", 0, "")) })
	f := finding(t, Lint(in), "R2c", "PAY.IN")
	if f.Prereq != 0 || len(f.After) != 0 || !slices.Equal(f.Fix, []string{"ALTER QLOCAL(PAY.IN) BOTHRESH(5) BOQNAME(PAY.BO)"}) {
		t.Errorf("fix %q prereq %d after %q", f.Fix, f.Prereq, f.After)
	}
}

// TestR8a_R8b_DefaultMaxMsgLNoiseIsOneInfoPerQMgr: queues left at the
// default MAXMSGL are one info finding listing them, not a warning each;
// a BOQ or DEADQ really smaller than what feeds it still warns.
func TestR8a_R8b_DefaultMaxMsgLNoiseIsOneInfoPerQMgr(t *testing.T) {
	in := edit(healthy(), func(in *LintInput) {
		setQueue(in, "ORDERS.BO", func(q *mqwatch.QueueInfo) { q.MaxMsgLen = mb4 })
		setQueue(in, "QM1.DEADQ", func(q *mqwatch.QueueInfo) { q.MaxMsgLen = mb4 })
		small := lq("PAY.BO", 0, "")
		small.MaxMsgLen = 1024
		in.Queues = append(in.Queues, lq("INVOICES.IN", 3, "INVOICES.BO"), lq("INVOICES.BO", 0, ""), lq("PAY.IN", 3, "PAY.BO"), small)
	})
	got := Lint(in)
	g := finding(t, got, "R8b", "")
	if g.Severity != Info || !slices.Equal(g.Queues, []string{"INVOICES.BO", "ORDERS.BO", "QM1.DEADQ"}) {
		t.Errorf("group %s queues %q", g, g.Queues)
	}
	if g.Fix[0] != "ALTER QMGR MAXMSGL(4194512)" || len(g.Fix) != 4 {
		t.Errorf("group fix %q: the queue manager's MAXMSGL once, first, then each queue", g.Fix)
	}
	// Applied, the group's fix leaves no MAXMSGL finding behind: the DEADQ
	// is sized for the BOQs as the same fix raises them.
	after := edit(in, func(in *LintInput) {
		for _, c := range g.Fix {
			var n int32
			if _, err := fmt.Sscanf(c, "ALTER QMGR MAXMSGL(%d)", &n); err == nil {
				in.QMgr.MaxMsgLen = n
				continue
			}
			q, v, _ := fixAttr(c, pcf.CmdChangeQ, "MAXMSGL")
			fmt.Sscanf(v, "%d", &n)
			setQueue(in, q, func(qi *mqwatch.QueueInfo) { qi.MaxMsgLen = n })
		}
	})
	for _, f := range Lint(after) {
		if strings.Contains(f.Why, "MAXMSGL") && f.Queue != "PAY.BO" {
			t.Errorf("after the group's fix: %s", f)
		}
	}
	var warns []string
	for _, f := range got {
		if f.Severity == Warning {
			warns = append(warns, f.Rule+" "+f.Queue)
		}
	}
	if !slices.Equal(warns, []string{"R8b PAY.BO"}) {
		t.Errorf("warnings %q, want only the BOQ that is really too small", warns)
	}
}
