package exporter

import (
	"bytes"
	"context"
	"fmt"
	"net"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"go.uber.org/goleak"

	"github.com/poisonwatch/poisonwatch/actions"
	"github.com/poisonwatch/poisonwatch/backend/embedded"
	"github.com/poisonwatch/poisonwatch/backend/embedded/embeddedtest"
	"github.com/poisonwatch/poisonwatch/model"
	"github.com/poisonwatch/poisonwatch/mqwatch"
)

// Every local queue's depth, MAXDEPTH and BOTHRESH are what the queue
// manager itself reports; a definition without status (the alias) has none.
func TestQueueFiguresMatchTheQueueManager(t *testing.T) {
	e := newEnv(t, Config{}, fillTrouble)
	fams := e.scrape(t)
	stats, err := e.conn.QueueStatus(e.ctx, "*")
	if err != nil {
		t.Fatal(err)
	}
	infos, err := e.conn.Queues(e.ctx, "*")
	if err != nil {
		t.Fatal(err)
	}
	attrs := map[string]mqwatch.QueueInfo{}
	for _, q := range infos {
		attrs[q.Name] = q
	}
	depths := samples(fams, "poisonwatch_queue_depth_messages", []string{"queue"}, "qmgr", "QM1")
	checked := 0
	for _, s := range stats {
		if strings.HasPrefix(s.Name, "SYSTEM.") {
			continue // not watched
		}
		checked++
		for _, c := range []struct {
			metric string
			want   int32
		}{{"poisonwatch_queue_depth_messages", s.Depth}, {"poisonwatch_queue_max_depth_messages", attrs[s.Name].MaxDepth},
			{"poisonwatch_queue_backout_threshold", attrs[s.Name].BackoutThresh}, {"poisonwatch_queue_open_input_handles", s.OpenInput}} {
			if got, ok := sample(fams, c.metric, "qmgr", "QM1", "queue", s.Name); !ok || got != float64(c.want) {
				t.Errorf("%s{queue=%q} = %v (present %v), the queue manager says %d", c.metric, s.Name, got, ok, c.want)
			}
		}
	}
	if checked != 6 || len(depths) != 6 {
		t.Errorf("checked %d queues, the scrape has depths for %v; want the 6 local queues", checked, depths)
	}
	if _, ok := depths["ORDERS.ALIAS"]; ok {
		t.Error("an alias has no depth of its own, but the scrape gives it one")
	}
	want := map[string]string{"QM1.DEADQ": "deadq", "ORDERS.BO": "boq", "STUCK.BO": "boq", "ORDERS.IN": "input"}
	roles := samples(fams, "poisonwatch_queue_depth_messages", []string{"queue", "role"})
	for q, role := range want {
		if _, ok := roles[q+"/"+role]; !ok {
			t.Errorf("%s should have role %q: %v", q, role, roles)
		}
	}
}

// The head figures of input queues: LOOP.IN's head was rolled back twice
// under BOTHRESH 0, STUCK.IN's twice against BOTHRESH 2 (stuck, R8c).
func TestHeadFigures(t *testing.T) {
	e := newEnv(t, Config{}, fillTrouble)
	fams := e.scrape(t)
	tests := []struct {
		queue               string
		head, risk, stuck   float64
		backoutThresholdSet bool
	}{
		{"ORDERS.IN", 0, 0, 0, true},
		{"LOOP.IN", 2, 1, 0, false},
		{"STUCK.IN", 2, 1, 1, true},
	}
	for _, tt := range tests {
		t.Run(tt.queue, func(t *testing.T) {
			for metric, want := range map[string]float64{"poisonwatch_queue_head_max_backouts": tt.head,
				"poisonwatch_queue_at_risk_messages": tt.risk, "poisonwatch_queue_stuck_poison_messages": tt.stuck} {
				if got, ok := sample(fams, metric, "queue", tt.queue); !ok || got != want {
					t.Errorf("%s = %v (present %v), want %v", metric, got, ok, want)
				}
			}
		})
	}
	if got := samples(fams, "poisonwatch_queue_head_max_backouts", []string{"queue"}); len(got) != 3 {
		t.Errorf("head figures are for input queues only: %v", got)
	}
}

// The alert gauges carry exactly the dashboard model's alerts for the same
// snapshots: rule, queue and severity, counted.
func TestAlertsMatchTheModel(t *testing.T) {
	e := newEnv(t, Config{}, fillTrouble)
	e.poll(t)
	st := model.New(time.Now, time.Hour)
	for _, s := range e.src.snapshots() {
		st.Fold(s)
	}
	sev := map[actions.Severity]string{actions.Info: "info", actions.Warning: "warning", actions.Critical: "critical"}
	want := map[string]float64{}
	for _, a := range st.QMgr("QM1").Alerts {
		want[a.Rule+"/"+a.Queue+"/"+sev[a.Severity]]++
	}
	got := samples(e.scrape(t), "poisonwatch_alert", []string{"rule", "queue", "severity"}, "qmgr", "QM1")
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("alerts\n got %v\nwant %v", got, want)
	}
	for _, k := range []string{"R8b/ORDERS.BO/critical", "R1c/LOOP.IN/warning", "R8c/STUCK.IN/critical"} {
		if got[k] == 0 {
			t.Errorf("no alert %s among %v", k, got)
		}
	}
}

// The DEADQ breakdown: exact counts by reason and destination, the largest
// groups kept under the cap and the rest summed as "(other)".
func TestDeadQBreakdown(t *testing.T) {
	tests := []struct {
		name         string
		cfg          Config
		reasons      map[string]float64
		destinations map[string]float64
	}{
		{"under_the_caps", Config{},
			map[string]float64{"2085/MQRC_UNKNOWN_OBJECT_NAME": 30, "2053/MQRC_Q_FULL": 20, "2087/MQRC_UNKNOWN_REMOTE_Q_MGR": 10},
			map[string]float64{"DEST.00/QM1": 27, "DEST.01/QM1": 3, "DEST.02/QM1": 3, "DEST.03/QM1": 3, "DEST.04/QM1": 3,
				"DEST.05/QM1": 3, "DEST.06/QM1": 3, "DEST.07/QM1": 3, "DEST.08/QM1": 3, "DEST.09/QM1": 3, "DEST.10/QM1": 3, "DEST.11/QM1": 3}},
		{"capped", Config{MaxReasons: 2, MaxDestinations: 5},
			map[string]float64{"2085/MQRC_UNKNOWN_OBJECT_NAME": 30, "2053/MQRC_Q_FULL": 20, "(other)/(other)": 10},
			// Ties keep the first names, so the same series survive every scrape.
			map[string]float64{"DEST.00/QM1": 27, "DEST.01/QM1": 3, "DEST.02/QM1": 3, "DEST.03/QM1": 3, "DEST.04/QM1": 3,
				"(other)/(other)": 21}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := newEnv(t, tt.cfg, fillTrouble)
			fams := e.scrape(t)
			got := samples(fams, "poisonwatch_deadq_messages_by_reason", []string{"reason", "reason_name"}, "qmgr", "QM1", "queue", "QM1.DEADQ")
			if fmt.Sprint(got) != fmt.Sprint(tt.reasons) {
				t.Errorf("by reason\n got %v\nwant %v", got, tt.reasons)
			}
			got = samples(fams, "poisonwatch_deadq_messages_by_destination", []string{"destination", "destination_qmgr"}, "queue", "QM1.DEADQ")
			if fmt.Sprint(got) != fmt.Sprint(tt.destinations) {
				t.Errorf("by destination\n got %v\nwant %v", got, tt.destinations)
			}
			for metric, want := range map[string]float64{"poisonwatch_deadq_reasons": 3, "poisonwatch_deadq_destinations": 12} {
				if v, ok := sample(fams, metric, "queue", "QM1.DEADQ"); v != want || !ok {
					t.Errorf("%s = %v, want %v (before the cap)", metric, v, want)
				}
			}
		})
	}
}

// Arrivals on the DEADQ count from the exporter's start: the first poll's
// inventory is what was there, later polls' deltas are what arrived.
func TestDeadQArrivals(t *testing.T) {
	e := newEnv(t, Config{}, fillTrouble)
	if v, ok := sample(e.scrape(t), "poisonwatch_queue_arrivals_total", "queue", "QM1.DEADQ"); !ok || v != 0 {
		t.Fatalf("arrivals after the first poll = %v (present %v), want 0", v, ok)
	}
	e.putDeadLetters(t, []deadLetter{{2085, "NEW.IN"}, {2085, "NEW.IN"}, {2035, "DEST.00"}, {2085, "NEW.IN"}, {2085, "NEW.IN"}})
	e.poll(t)
	fams := e.scrape(t)
	for _, c := range []struct {
		metric string
		match  []string
		want   float64
	}{
		{"poisonwatch_queue_arrivals_total", []string{"queue", "QM1.DEADQ"}, 5},
		{"poisonwatch_queue_depth_messages", []string{"queue", "QM1.DEADQ"}, 65},
		{"poisonwatch_deadq_messages_by_reason", []string{"reason", "2085"}, 34},
		{"poisonwatch_deadq_messages_by_reason", []string{"reason_name", "MQRC_NOT_AUTHORIZED"}, 1},
		{"poisonwatch_deadq_messages_by_destination", []string{"destination", "NEW.IN"}, 4},
		{"poisonwatch_queue_arrivals_total", []string{"queue", "ORDERS.BO"}, 0},
	} {
		if v, ok := sample(fams, c.metric, c.match...); !ok || v != c.want {
			t.Errorf("%s%v = %v (present %v), want %v", c.metric, c.match, v, ok, c.want)
		}
	}
	if _, ok := sample(fams, "poisonwatch_queue_arrivals_per_second", "queue", "QM1.DEADQ"); !ok {
		t.Error("two polls give the DEADQ an arrival rate, but none is served")
	}
}

// A scrape reads the last fold: however many scrapes, the queue manager
// sees no call until the watcher polls.
func TestScrapesCostTheQueueManagerNothing(t *testing.T) {
	e := newEnv(t, Config{}, fillTrouble)
	e.qm.ResetStats()
	var wg sync.WaitGroup
	for range 4 {
		wg.Go(func() {
			for range 10 {
				e.scrape(t)
			}
		})
	}
	wg.Wait()
	if n := e.qm.Stats().Total().Calls; n != 0 {
		t.Fatalf("40 scrapes made %d MQ calls, want 0", n)
	}
	snap := e.poll(t)
	calls := e.qm.Stats().Total().Calls
	if calls == 0 || int64(snap.Poll.Calls) != calls {
		t.Fatalf("one poll: the queue manager counted %d calls, the snapshot %d", calls, snap.Poll.Calls)
	}
	if v, _ := sample(e.scrape(t), "poisonwatch_qmgr_poll_calls", "qmgr", "QM1"); v != float64(calls) {
		t.Errorf("poll_calls = %v, want %d", v, calls)
	}
}

// A queue manager that stops answering: connected 0, the failed polls by
// reason, its figures withdrawn but for the "not connected" alert, and back
// when it answers again.
func TestWatcherHealthWhenDisconnected(t *testing.T) {
	var log bytes.Buffer
	var mu sync.Mutex
	e := newEnv(t, Config{Log: writerFunc(func(p []byte) (int, error) { mu.Lock(); defer mu.Unlock(); return log.Write(p) })}, fillTrouble)
	e.qm.Faults().Add(embedded.Fault{Break: true})
	e.poll(t) // the connection breaks: MQRC_CONNECTION_BROKEN
	e.poll(t) // reconnecting fails: MQRC_Q_MGR_NOT_AVAILABLE
	fams := e.scrape(t)
	for _, c := range []struct {
		metric string
		match  []string
		want   float64
	}{
		{"poisonwatch_qmgr_connected", nil, 0},
		{"poisonwatch_qmgr_polls_total", nil, 3},
		{"poisonwatch_qmgr_poll_errors_total", nil, 2},
		{"poisonwatch_qmgr_poll_errors_by_reason_total", []string{"reason", "MQRC_CONNECTION_BROKEN"}, 1},
		{"poisonwatch_qmgr_poll_errors_by_reason_total", []string{"reason", "MQRC_Q_MGR_NOT_AVAILABLE"}, 1},
		{"poisonwatch_alert", []string{"rule", "", "queue", "", "severity", "critical"}, 1},
	} {
		if v, ok := sample(fams, c.metric, append([]string{"qmgr", "QM1"}, c.match...)...); !ok || v != c.want {
			t.Errorf("%s%v = %v (present %v), want %v", c.metric, c.match, v, ok, c.want)
		}
	}
	if age, ok := sample(fams, "poisonwatch_qmgr_last_poll_age_seconds"); !ok || age < 0 {
		t.Errorf("last_poll_age_seconds = %v (present %v): the last good poll's age must stay visible", age, ok)
	}
	for _, gone := range []string{"poisonwatch_queue_depth_messages", "poisonwatch_deadq_messages_by_reason"} {
		if got := samples(fams, gone, []string{"queue"}); len(got) != 0 {
			t.Errorf("%s is still served while not connected: %v", gone, got)
		}
	}
	if got := samples(fams, "poisonwatch_alert", []string{"rule"}); len(got) != 1 {
		t.Errorf("while not connected only the not-connected alert stays: %v", got)
	}
	e.qm.Faults().Clear()
	e.poll(t)
	fams = e.scrape(t)
	if v, _ := sample(fams, "poisonwatch_qmgr_connected"); v != 1 {
		t.Errorf("connected = %v after the queue manager answers again", v)
	}
	if v, ok := sample(fams, "poisonwatch_queue_depth_messages", "queue", "ORDERS.BO"); !ok || v != 10 {
		t.Errorf("ORDERS.BO depth = %v (present %v) after reconnecting, want 10", v, ok)
	}
	mu.Lock()
	defer mu.Unlock()
	for _, want := range []string{"QM1: not connected: ", "MQRC_CONNECTION_BROKEN (2009)", "QM1: connected\n"} {
		if !strings.Contains(log.String(), want) {
			t.Errorf("log lacks %q:\n%s", want, log.String())
		}
	}
}

type writerFunc func([]byte) (int, error)

func (f writerFunc) Write(p []byte) (int, error) { return f(p) }

// Once its context ends the exporter leaves nothing running: its folding
// goroutines, the HTTP server and the connections scrapers had open.
func TestStopLeavesNothingRunning(t *testing.T) {
	defer goleak.VerifyNone(t, goleak.IgnoreCurrent())
	qm := embeddedtest.New(t, embeddedtest.Options{Name: "QM1"})
	ctx, cancel := context.WithCancel(context.Background())
	w := mqwatch.NewWatcher(mqwatch.WatchConfig{Name: "QM1", Connector: qm, Interval: time.Hour})
	exp := New(Config{Sources: []Source{named{w}}, Interval: time.Hour})
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	wg.Go(func() { w.Run(ctx) })
	wg.Go(func() { exp.Run(ctx) })
	served := make(chan error, 1)
	go func() { served <- exp.Serve(ctx, l) }()
	client := &http.Client{Transport: &http.Transport{}}
	resp, err := client.Get("http://" + l.Addr().String() + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	cancel()
	wg.Wait()
	if err := <-served; err != nil {
		t.Fatalf("serve: %v", err)
	}
	client.CloseIdleConnections()
}

type named struct{ *mqwatch.Watcher }

func (named) Name() string { return "QM1" }

// client_golang's pedantic registry finds nothing to object to: every
// metric sent was described, no series is sent twice, connected or not.
func TestCollectorIsConsistent(t *testing.T) {
	e := newEnv(t, Config{MaxReasons: 1, MaxDestinations: 2}, fillTrouble)
	reg := prometheus.NewPedanticRegistry()
	reg.MustRegister(collector{e.exp})
	gather := func(when string) {
		fams, err := reg.Gather()
		if err != nil {
			t.Fatalf("%s: %v", when, err)
		}
		for _, f := range fams {
			if _, ok := served[f.GetName()]; !ok {
				t.Errorf("%s: %s is served but not listed", when, f.GetName())
			}
		}
	}
	gather("connected")
	e.qm.Faults().Add(embedded.Fault{Break: true})
	e.poll(t)
	gather("not connected")
}
