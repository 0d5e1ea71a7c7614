package demo

import (
	"context"
	"errors"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"
)

func simulate(t *testing.T, s *Scenario, d time.Duration) *Result {
	t.Helper()
	res, err := s.Simulate(context.Background(), SimOptions{Duration: d})
	if err != nil {
		t.Fatal(err)
	}
	if !res.Accounting.Balanced {
		t.Fatalf("conservation failed: %+v", res.Accounting)
	}
	return res
}

func queue(t *testing.T, res *Result, qmgr, name string) QueueResult {
	t.Helper()
	for _, q := range res.QMgrs {
		for _, qr := range q.Queues {
			if q.Name == qmgr && qr.Name == name {
				return qr
			}
		}
	}
	t.Fatalf("no queue %s on %s", name, qmgr)
	return QueueResult{}
}

func reasons(qr QueueResult) map[string]int {
	m := map[string]int{}
	for _, r := range qr.Reasons {
		m[r.DestQ+" "+strings.TrimPrefix(r.Name, "MQRC_")] += r.Count
	}
	return m
}

func routeRules(res *Result) map[string]int64 {
	m := map[string]int64{}
	for _, r := range res.Routes {
		m[r.Consumer+" "+r.Rule+" "+r.Action] += r.Count
	}
	return m
}

// TestSimulateBuiltinDemo runs the built-in demo for its default ten
// simulated minutes: every message is accounted for exactly once, and every
// incident the README lists is there.
func TestSimulateBuiltinDemo(t *testing.T) {
	s, err := Builtin()
	if err != nil {
		t.Fatal(err)
	}
	res := simulate(t, s, 0)
	a := res.Accounting
	if a.Produced < 3000 || a.Consumed == 0 || a.OnBOQ == 0 || a.OnDeadQ == 0 || a.OnInputQueue == 0 || a.Reported == 0 || a.Reports == 0 {
		t.Errorf("accounting %+v", a)
	}
	for _, c := range []struct {
		name  string
		check func(*testing.T, *Result)
	}{
		{"R1c_poison_loop_on_ORDERS.IN", checkPoisonLoop},
		{"R1f_stuck_poison_on_PAYMENTS.IN", checkStuckPoison},
		{"R2b_full_BOQ_sends_poison_to_the_DEADQ", checkFullBOQ},
		{"R5b_BOQ_move_adds_an_MQRFH2", checkRFH2Added},
		{"channel_dead_letters_on_QM2", checkChannelDeadLetters},
		{"R9c_audit_MDB_pauses_and_is_resumed", checkPausedMDB},
		{"R4f_stalled_ASF_consumers_on_QM3", checkStalledASF},
		{"every_consumer_style_and_removal_rule_ran", checkRules},
	} {
		t.Run(c.name, func(t *testing.T) { c.check(t, res) })
	}
}

func checkPoisonLoop(t *testing.T, res *Result) {
	q := queue(t, res, "QM1", "ORDERS.IN")
	if q.BackoutThresh != 0 || q.OpenInput != 4 || q.MaxBackoutCount < 1000 || q.Depth < 100 || q.OldestAge <= 0 || q.LastGet == "" {
		t.Errorf("%+v", q)
	}
	if !reflect.DeepEqual(q.Handles, []string{"OrderService (input) ×4", "WebShop (output)"}) {
		t.Errorf("handles %q", q.Handles)
	}
}

func checkStuckPoison(t *testing.T, res *Result) {
	q := queue(t, res, "QM1", "PAYMENTS.IN")
	if q.BackoutThresh != 5 || q.MaxBackoutCount < 5 || queue(t, res, "QM1", "PAYMENTS.BO").Depth != 0 {
		t.Errorf("%+v", q)
	}
	if routeRules(res)["payments-mqi R8c loop forever, rolled back"] == 0 {
		t.Error("no R8c loop")
	}
}

func checkFullBOQ(t *testing.T, res *Result) {
	bo := queue(t, res, "QM1", "ORDERS.BO")
	dlq := reasons(queue(t, res, "QM1", "SYSTEM.DEAD.LETTER.QUEUE"))
	if bo.Depth != bo.MaxDepth || dlq["ORDERS.EXPRESS Q_FULL"] == 0 || dlq["SHIPPING.IN BACKOUT_THRESHOLD_REACHED"] == 0 ||
		dlq["ORDERS.RETURNS.IN JMS_FORMAT_ERROR"] == 0 {
		t.Errorf("ORDERS.BO %d/%d, DEADQ %v", bo.Depth, bo.MaxDepth, dlq)
	}
	if len(bo.Examples) != examplesPerQueue {
		t.Errorf("examples %+v", bo.Examples)
	}
}

func checkRFH2Added(t *testing.T, res *Result) {
	found := false
	for _, e := range queue(t, res, "QM1", "ORDERS.BO").Examples {
		found = found || (e.PutApplName == "StoreKiosk" && e.Format == "MQHRF2" && e.CCSID == 1208 &&
			strings.Contains(strings.Join(e.Headers, ""), "then MQSTR CCSID 819 Encoding 546"))
	}
	if !found || routeRules(res)["ExpressMDB R5b move to BOQ"] == 0 {
		t.Errorf("no R5b move among %+v", queue(t, res, "QM1", "ORDERS.BO").Examples)
	}
}

func checkChannelDeadLetters(t *testing.T, res *Result) {
	dlq := reasons(queue(t, res, "QM2", "QM2.DEAD.LETTER.QUEUE"))
	for _, want := range []string{"INVOICE.IN UNKNOWN_OBJECT_NAME", "AUDIT.IN Q_FULL", "STOCK.IN UNKNOWN_REMOTE_Q_MGR",
		"PAYROLL.IN NOT_AUTHORIZED", "PRICING.CLUSTER.Q CLUSTER_RESOLUTION_ERROR"} {
		if dlq[want] == 0 {
			t.Errorf("no %s in %v", want, dlq)
		}
	}
	if dlq["INVOICE.IN UNKNOWN_OBJECT_NAME"] < 500 {
		t.Errorf("no burst of 2085: %v", dlq)
	}
}

func checkPausedMDB(t *testing.T, res *Result) {
	r := routeRules(res)
	if r["AuditMDB R9c pause consumer"] == 0 || r["AuditMDB R9b move to queue"] == 0 {
		t.Errorf("routes %v", r)
	}
}

func checkStalledASF(t *testing.T, res *Result) {
	q := queue(t, res, "QM3", "BILLING.IN")
	dlq := queue(t, res, "QM3", "SYSTEM.DEAD.LETTER.QUEUE")
	if q.OpenInput != 2 || q.Depth < 100 || !dlq.PutInhibited || dlq.Depth != 0 {
		t.Errorf("BILLING.IN %+v DEADQ %+v", q, dlq)
	}
	for _, c := range res.Consumers {
		if c.Name == "BillingMDB" && c.State != "stopped (R4f)" {
			t.Errorf("BillingMDB %s", c.State)
		}
	}
}

func checkRules(t *testing.T, res *Result) {
	rules := map[string]bool{}
	for _, r := range res.Routes {
		rules[r.Rule] = true
	}
	for _, want := range []string{"R1a", "R1c", "R1d", "R1f", "R2b", "R4f", "R5a", "R5b", "R6a", "R6b", "R8c", "R9", "R9b", "R9c"} {
		if !rules[want] {
			t.Errorf("no route by %s", want)
		}
	}
}

func TestSimulateIsReproducible(t *testing.T) {
	run := func(seed uint64) *Result {
		s, err := Builtin()
		if err != nil {
			t.Fatal(err)
		}
		s.Seed = seed
		return simulate(t, s, 3*time.Minute)
	}
	// Managed queue names, like MsgIds, are made from the queue manager's
	// start time, as on IBM MQ: only the figures must repeat.
	figures := func(r *Result) []any {
		routes := slices.Clone(r.Routes)
		for i := range routes {
			if n := routes[i].Queue; strings.HasPrefix(n, "SYSTEM.MANAGED.") {
				routes[i].Queue = n[:strings.LastIndexByte(n, '.')]
			}
		}
		var depths []int32
		for _, q := range r.QMgrs {
			for _, qr := range q.Queues {
				depths = append(depths, qr.Depth, qr.MaxBackoutCount)
			}
		}
		return []any{r.Accounting, routes, r.Producers, depths}
	}
	a, b, c := run(42), run(42), run(43)
	fa, fb := figures(a), figures(b)
	for i := range fa {
		if !reflect.DeepEqual(fa[i], fb[i]) {
			t.Fatalf("two runs with seed 42 differ:\n%+v\n%+v", fa[i], fb[i])
		}
	}
	if reflect.DeepEqual(figures(a), figures(c)) {
		t.Fatal("seeds 42 and 43 gave the same figures")
	}
}

// features exercises producer counts, windows and bursts, a publication to
// two subscriptions and a timed event.
const features = `
name = "features"
[[qmgr]]
name = "QM1"
script = """
DEFINE QLOCAL(IN) BOTHRESH(1) BOQNAME(IN.BO)
DEFINE QLOCAL(IN.BO)
DEFINE QLOCAL(DLQ)
ALTER QMGR DEADQ(DLQ)
DEFINE TOPIC(T) TOPICSTR('a/b')
"""
[[producer]]
name = "Counted"
queue = "IN"
rate = 10
count = 5
[[producer]]
name = "Window"
queue = "IN"
rate = 1
start = "10s"
stop = "20s"
[[producer]]
name = "Bursty"
queue = "IN"
burst = { every = "30s", count = 4, rate = 100 }
[[producer]]
name = "Poison"
queue = "IN"
rate = 0.5
poison = 1
start = "30s"
[[producer]]
name = "Publisher"
topic = "a/b"
rate = 1
count = 3
[[consumer]]
name = "Reader"
queue = "IN"
style = "sync-nontransacted"
start = "32s"
fail = "body contains POISON"
[[consumer]]
name = "Sub1"
subscription = { topic = "a/#" }
style = "async"
[[consumer]]
name = "Sub2"
subscription = { topic = "a/b", durable = true, name = "S2" }
style = "async"
[[event]]
at = "40s"
qmgr = "QM1"
mqsc = "ALTER QLOCAL(IN.BO) PUT(DISABLED)"
`

func TestSimulateScenarioFeatures(t *testing.T) {
	s, err := Parse([]byte(features))
	if err != nil {
		t.Fatal(err)
	}
	res := simulate(t, s, 59*time.Second)
	produced := map[string]int64{}
	for _, p := range res.Producers {
		produced[p.Name] = p.Produced
		if p.Name == "Publisher" && p.Copies != 6 {
			t.Errorf("publisher copies %d, want 2 subscriptions × 3", p.Copies)
		}
	}
	// Window: from 10s to 20s at 1/s with ±50% jitter; Bursty: 4 at 0s and 4 at 30s.
	if produced["Counted"] != 5 || produced["Window"] < 6 || produced["Window"] > 20 || produced["Bursty"] != 8 || produced["Poison"] < 10 {
		t.Errorf("produced %v", produced)
	}
	if len(res.Events) != 1 || res.Events[0].Error != "" {
		t.Errorf("events %+v", res.Events)
	}
	dlq := reasons(queue(t, res, "QM1", "DLQ"))
	if dlq["IN PUT_INHIBITED"] == 0 || queue(t, res, "QM1", "IN.BO").Depth == 0 {
		t.Errorf("poison before the event should be on IN.BO, after it on the DLQ with 2051: %v", dlq)
	}
}

func TestSimulateRejectsBadSetup(t *testing.T) {
	tests := []struct{ name, toml, want string }{
		{"failing_MQSC", "[[qmgr]]\nname = \"QM1\"\nscript = \"ALTER QLOCAL(NOPE) PUT(DISABLED)\"\n", "not found"},
		{"consumer_of_a_missing_queue", "[[qmgr]]\nname = \"QM1\"\n[[consumer]]\nname = \"C\"\nqueue = \"NOPE\"\nstyle = \"async\"\n", "2085"},
		{"producer_to_a_missing_queue", "[[qmgr]]\nname = \"QM1\"\n[[producer]]\nname = \"P\"\nqueue = \"NOPE\"\nrate = 1\n", "2085"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, err := Parse([]byte(tt.toml))
			if err != nil {
				t.Fatal(err)
			}
			_, err = s.Simulate(context.Background(), SimOptions{Duration: time.Second})
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("error %v, want %q", err, tt.want)
			}
		})
	}
	t.Run("negative_duration", func(t *testing.T) {
		s, _ := Parse([]byte(minimal))
		if _, err := s.Simulate(context.Background(), SimOptions{Duration: -time.Second}); err == nil {
			t.Fatal("accepted")
		}
	})
	t.Run("too_many_messages_to_account_for", func(t *testing.T) {
		s, _ := Parse([]byte(minimal))
		r := newRunner(context.Background(), s, newVirtualClock(time.Now()), true)
		defer r.shutdown()
		r.ledger.limit = 10
		if err := r.setup(); err != nil {
			t.Fatal(err)
		}
		if err := r.loop(time.Now().Add(time.Hour)); !errors.Is(err, errLedgerFull) {
			t.Fatalf("error %v", err)
		}
	})
	t.Run("cancelled_context", func(t *testing.T) {
		s, _ := Parse([]byte(minimal))
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		if _, err := s.Simulate(ctx, SimOptions{}); err == nil {
			t.Fatal("a cancelled simulation reported success")
		}
	})
}
