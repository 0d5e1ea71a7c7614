package promfleet

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/poisonwatch/poisonwatch/model"
)

// fakeAM answers the Alertmanager's API v2 reads with the alerts and
// silences a test gives it, and counts the requests.
type fakeAM struct {
	mu       sync.Mutex
	alerts   []map[string]any
	silences []map[string]any
	requests int
	queries  []string
}

func (a *fakeAM) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.requests++
	a.queries = append(a.queries, r.URL.RawQuery)
	switch r.URL.Path {
	case "/api/v2/alerts":
		json.NewEncoder(w).Encode(a.alerts)
	case "/api/v2/silences":
		json.NewEncoder(w).Encode(a.silences)
	default:
		http.NotFound(w, r)
	}
}

func amAlertJSON(labels map[string]string, silencedBy, inhibitedBy []string) map[string]any {
	state := "active"
	if len(silencedBy)+len(inhibitedBy) > 0 {
		state = "suppressed"
	}
	return map[string]any{"labels": labels, "status": map[string]any{"state": state, "silencedBy": silencedBy, "inhibitedBy": inhibitedBy}}
}

// The Alertmanager's silences hold the alerts they match, by queue
// manager, rule, queue and (when the alert has it) instance: a held alert
// leaves the counts and says who holds it, until when, why. Two requests,
// whatever the fleet.
func TestSilencesHoldTheirAlerts(t *testing.T) {
	f, srv := newFakeProm(t)
	f.fakeUp("a:9464", 1)
	f.fakeUp("b:9464", 1)
	for _, in := range []string{"a:9464", "b:9464"} {
		f.fakeQMgr(in, "QM1", t0)
		f.add(kAlerts, 1, "__name__", "poisonwatch_alert", "instance", in, "job", "poisonwatch", "qmgr", "QM1",
			"rule", "R1c", "queue", "APP.IN", "severity", "critical")
	}
	f.fakeQMgr("a:9464", "QM2", t0)
	f.add(kAlerts, 1, "__name__", "poisonwatch_alert", "instance", "a:9464", "job", "poisonwatch", "qmgr", "QM2",
		"rule", "R8d", "queue", "DLQ", "severity", "warning")
	ends := t0.Add(2 * time.Hour)
	am := &fakeAM{
		alerts: []map[string]any{
			amAlertJSON(map[string]string{"alertname": "PoisonwatchPoisonLoop", "instance": "a:9464", "qmgr": "QM1", "rule": "R1c",
				"queue": "APP.IN", "severity": "critical"}, []string{"s-1"}, nil),
			amAlertJSON(map[string]string{"alertname": "PoisonwatchDeadLettersGrowing", "qmgr": "QM2", "rule": "R8d", "queue": "DLQ"}, nil, []string{"f00"}),
		},
		silences: []map[string]any{
			{"id": "s-1", "status": map[string]any{"state": "active"}, "endsAt": ends, "createdBy": "alice\x1b[31m",
				"comment": "fix deploying\nat 14:00"},
			{"id": "s-0", "status": map[string]any{"state": "expired"}, "createdBy": "bob"},
		},
	}
	amSrv := httptest.NewServer(am)
	defer amSrv.Close()
	fl := fetch(t, Config{URL: srv.URL, Alertmanager: amSrv.URL})
	a1, b1, a2 := rowOf(t, fl, "a:9464", "QM1"), rowOf(t, fl, "b:9464", "QM1"), rowOf(t, fl, "a:9464", "QM2")
	if s := a1.Alerts[0].Silence; s == nil || s.ID != "s-1" || !strings.HasPrefix(s.By, `alice\x1b`) || !s.Ends.Equal(ends) || s.Comment != `fix deploying\nat 14:00` {
		t.Errorf("the silenced alert: %+v", s)
	}
	if a1.Crit != 0 || a1.Held != 1 || a1.Top() != nil {
		t.Errorf("a silenced alert still counts: crit %d held %d top %+v", a1.Crit, a1.Held, a1.Top())
	}
	if b1.Crit != 1 || b1.Alerts[0].Silence != nil {
		t.Errorf("the silence held another instance's alert: %+v", b1.Alerts[0])
	}
	if !a2.Alerts[0].Inhibited || a2.Warn != 0 || a2.Held != 1 {
		t.Errorf("the inhibited alert (no instance label: any): %+v", a2.Alerts[0])
	}
	if am.requests != 2 || fl.Queries != len(queries(DefaultLookback))+2 || fl.Alertmanager != amSrv.URL {
		t.Errorf("%d Alertmanager requests, %d queries in all, %q", am.requests, fl.Queries, fl.Alertmanager)
	}
	if !strings.Contains(am.queries[0], "active=false") || !strings.Contains(am.queries[0], "silenced=true") {
		t.Errorf("the alerts read asks for more than the suppressed ones: %s", am.queries[0])
	}
}

// An Alertmanager that does not answer leaves the rows as Prometheus gave
// them, with the reason; Prometheus not answering fails the refresh.
func TestAlertmanagerDownLeavesTheRows(t *testing.T) {
	f, srv := newFakeProm(t)
	f.fakeQMgr("a:9464", "QM1", t0)
	amSrv := httptest.NewServer(http.NotFoundHandler())
	defer amSrv.Close()
	fl := fetch(t, Config{URL: srv.URL, Alertmanager: amSrv.URL})
	if len(fl.Rows) != 1 || fl.SilenceErr == nil || !strings.Contains(fl.SilenceErr.Error(), "404") {
		t.Fatalf("%d rows, silence error %v", len(fl.Rows), fl.SilenceErr)
	}
}

// The poller publishes each refresh to every waiter; a failed refresh
// keeps the last rows and says why; Refresh asks at once.
func TestPollerPublishes(t *testing.T) {
	f, srv := newFakeProm(t)
	f.fakeQMgr("a:9464", "QM1", t0)
	c, err := New(Config{URL: srv.URL, Now: func() time.Time { return t0 }})
	if err != nil {
		t.Fatal(err)
	}
	first, err := c.Fetch(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	p := NewPoller(c, time.Hour, first) // only Refresh makes it ask again
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan struct{})
	go func() { p.Run(ctx); close(done) }()
	if got, seq := p.Latest(); got != first || seq != 1 {
		t.Fatalf("latest %p %d, want the first answer", got, seq)
	}
	waiters := make(chan *model.RemoteFleet, 2)
	for range 2 {
		go func() {
			fl, _, _ := p.Next(ctx, 1)
			waiters <- fl
		}()
	}
	f.setBody(func(w http.ResponseWriter) { http.Error(w, "gateway down", http.StatusBadGateway) })
	p.Refresh()
	for range 2 {
		fl := <-waiters
		if fl.Err == nil || len(fl.Rows) != 1 || !fl.Failed.Equal(t0) {
			t.Fatalf("after a failed refresh: err %v, %d rows", fl.Err, len(fl.Rows))
		}
	}
	cancel()
	<-done
	if _, _, ok := p.Next(ctx, 5); ok {
		t.Error("Next returned after its context ended")
	}
}
