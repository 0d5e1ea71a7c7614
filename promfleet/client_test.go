package promfleet

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/poisonwatch/poisonwatch/actions"
	"github.com/poisonwatch/poisonwatch/model"
)

var t0 = time.Date(2026, 6, 4, 10, 0, 0, 0, time.UTC)

func fetch(t *testing.T, cfg Config) *model.RemoteFleet {
	t.Helper()
	if cfg.Now == nil {
		cfg.Now = func() time.Time { return t0 }
	}
	c, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	f, err := c.Fetch(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return f
}

func rowOf(t *testing.T, f *model.RemoteFleet, instance, qmgr string) model.RemoteRow {
	t.Helper()
	for _, r := range f.Rows {
		if r.Instance == instance && r.QMgr == qmgr {
			return r
		}
	}
	t.Fatalf("no row %s/%s among %d", instance, qmgr, len(f.Rows))
	return model.RemoteRow{}
}

// Each queue manager's link comes from its series: fresh and connected is
// up; the exporter's connected 0 is not connected; series the last scrape
// did not carry, or an exporter whose up is 0, is down; a last good poll
// older than three intervals is stale; no poll yet is connecting.
func TestLinksFromTheSeries(t *testing.T) {
	f, srv := newFakeProm(t)
	f.fakeUp("a:9464", 1)
	f.fakeUp("b:9464", 0)
	f.fakeQMgr("a:9464", "QM.UP", t0.Add(-2*time.Second))
	f.fakeQMgr("a:9464", "QM.OLD", t0.Add(-time.Minute)) // interval 5s: three are 15s
	f.fakeQMgr("b:9464", "QM.GONE", t0.Add(-40*time.Second))
	// The exporter cannot reach QM.NC: connected 0, its queue series withdrawn.
	l := []string{"instance", "a:9464", "job", "poisonwatch", "qmgr", "QM.NC"}
	f.add(kRows, 3, l...)
	f.add(kFresh, float64(t0.Unix()), l...)
	f.add(kLastGood, float64(t0.Add(-90*time.Second).Unix()), l...)
	f.add(kFigures, 0, append(l, "__name__", "poisonwatch_qmgr_connected")...)
	// QM.NEW: served, no poll ended; QM.STALE: seen within the lookback,
	// not in the last scrape (the exporter no longer watches it).
	f.add(kRows, 0, "instance", "a:9464", "job", "poisonwatch", "qmgr", "QM.NEW")
	f.add(kFresh, float64(t0.Unix()), "instance", "a:9464", "job", "poisonwatch", "qmgr", "QM.NEW")
	f.add(kRows, 9, "instance", "a:9464", "job", "poisonwatch", "qmgr", "QM.STALE")
	f.add(kLastGood, float64(t0.Add(-5*time.Minute).Unix()), "instance", "a:9464", "job", "poisonwatch", "qmgr", "QM.STALE")
	fl := fetch(t, Config{URL: srv.URL})
	tests := []struct {
		instance, qmgr string
		link           model.RemoteLink
		why            string
		age            time.Duration
	}{
		{"a:9464", "QM.UP", model.RemoteUp, "", 2 * time.Second},
		{"a:9464", "QM.OLD", model.RemoteStale, "", time.Minute},
		{"b:9464", "QM.GONE", model.RemoteDown, "exporter down (up 0)", 40 * time.Second},
		{"a:9464", "QM.NC", model.RemoteNotConnected, "", 90 * time.Second},
		{"a:9464", "QM.NEW", model.RemoteConnecting, "", 0},
		{"a:9464", "QM.STALE", model.RemoteDown, "series stale", 5 * time.Minute},
	}
	for _, tt := range tests {
		r := rowOf(t, fl, tt.instance, tt.qmgr)
		if r.Link != tt.link || r.Why != tt.why || r.Age(t0) != tt.age {
			t.Errorf("%s/%s: link %d %q age %s, want %d %q %s", tt.instance, tt.qmgr, r.Link, r.Why, r.Age(t0), tt.link, tt.why, tt.age)
		}
	}
	var order []string
	for _, r := range fl.Rows {
		order = append(order, r.QMgr)
	}
	// Nobody can see the first three; then stale, then the rest by name.
	if got := strings.Join(order, " "); got != "QM.GONE QM.NC QM.STALE QM.OLD QM.NEW QM.UP" {
		t.Errorf("order %s", got)
	}
}

// The figures of a row: its DEADQ, the fullest backout queue, the largest
// reasons held and arriving, the looping queues, and the exporter's
// alerts (same rule ids as the dashboard), counted without those
// acknowledged, worst first.
func TestRowFigures(t *testing.T) {
	f, srv := newFakeProm(t)
	f.fakeUp("a:9464", 1)
	f.fakeQMgr("a:9464", "QM1", t0)
	l := func(extra ...string) []string {
		return append([]string{"instance", "a:9464", "job", "poisonwatch", "qmgr", "QM1"}, extra...)
	}
	f.add(kFigures, 0.5, l("__name__", "poisonwatch_queue_arrivals_per_second", "queue", "SYSTEM.DEAD.LETTER.QUEUE", "role", "deadq")...)
	f.add(kWorstBOQ, 0.85, l("queue", "APP.0001.BO", "role", "boq")...)
	f.add(kReasons, 30, l("reason", "2085", "reason_name", "MQRC_UNKNOWN_OBJECT_NAME")...)
	f.add(kReasons, 10, l("reason", "2053", "reason_name", "MQRC_Q_FULL")...)
	f.add(kArriving, 0.25, l("reason", "2085", "reason_name", "MQRC_UNKNOWN_OBJECT_NAME")...)
	f.add(kLoopCount, 4, l()...)
	f.add(kLoopQueues, 40, l("queue", "APP.0007.IN", "role", "input")...)
	f.add(kAlerts, 1, l("__name__", "poisonwatch_alert", "rule", "R8b", "queue", "APP.0001.BO", "severity", "warning")...)
	f.add(kAlerts, 1, l("__name__", "poisonwatch_alert", "rule", "R1c", "queue", "APP.0007.IN", "severity", "critical")...)
	f.add(kAlerts, 2, l("__name__", "poisonwatch_alert", "rule", "R2c", "queue", "APP.0002.IN", "severity", "info")...)
	f.add(kAlerts, 1, l("__name__", "poisonwatch_alert", "rule", "R8c", "queue", "APP.0009.IN", "severity", "critical")...)
	f.add(kAlerts, 1, l("__name__", "poisonwatch_alert_acknowledged", "rule", "R8c", "queue", "APP.0009.IN", "severity", "critical")...)
	r := rowOf(t, fetch(t, Config{URL: srv.URL}), "a:9464", "QM1")
	if r.DeadQ != "SYSTEM.DEAD.LETTER.QUEUE" || r.DeadDepth != 40 || r.DeadMax != 5000 || !r.DeadRateOK || r.DeadRate != 30 {
		t.Errorf("DEADQ %q %v/%v at %v/min (%v)", r.DeadQ, r.DeadDepth, r.DeadMax, r.DeadRate, r.DeadRateOK)
	}
	if r.WorstBOQ != "APP.0001.BO" || r.WorstFill != 0.85 || r.Queues != 100 || r.Interval != 5*time.Second {
		t.Errorf("BOQ %q %v, %d queues, interval %s", r.WorstBOQ, r.WorstFill, r.Queues, r.Interval)
	}
	if len(r.Reasons) != 2 || r.Reasons[0].Code != "2085" || r.Reasons[1].Value != 10 || len(r.Arriving) != 1 || r.Arriving[0].Value != 15 {
		t.Errorf("reasons %+v arriving %+v", r.Reasons, r.Arriving)
	}
	if r.Looping != 4 || len(r.LoopQueues) != 1 || r.LoopQueues[0] != "APP.0007.IN" {
		t.Errorf("looping %d %v", r.Looping, r.LoopQueues)
	}
	if r.Crit != 1 || r.Warn != 1 || r.Info != 2 || r.Held != 1 || r.Level() != 2 {
		t.Errorf("alerts crit %d warn %d info %d held %d level %d", r.Crit, r.Warn, r.Info, r.Held, r.Level())
	}
	if top := r.Top(); top == nil || top.Rule != "R1c" || top.Severity != actions.Critical {
		t.Errorf("top %+v", top)
	}
	if last := r.Alerts[len(r.Alerts)-1]; last.Rule != "R8c" || !last.Acked {
		t.Errorf("the acknowledged alert comes last: %+v", last)
	}
}

// The refresh asks the same number of queries at 10 and at 1,000 queue
// managers: none per queue manager.
func TestFixedQueriesWhateverTheFleet(t *testing.T) {
	counts := map[int]int{}
	for _, n := range []int{10, 1000} {
		f, srv := newFakeProm(t)
		for i := range n {
			f.fakeUp(fmt.Sprintf("host%d:9464", i/50), 1)
			f.fakeQMgr(fmt.Sprintf("host%d:9464", i/50), fmt.Sprintf("QM%04d", i), t0)
		}
		fl := fetch(t, Config{URL: srv.URL})
		if len(fl.Rows) != n {
			t.Fatalf("%d rows, want %d", len(fl.Rows), n)
		}
		counts[n] = f.count()
		if fl.Queries != counts[n] {
			t.Errorf("the fleet says %d queries, the server counted %d", fl.Queries, counts[n])
		}
	}
	if counts[10] != counts[1000] || counts[10] != len(queries(DefaultLookback)) {
		t.Errorf("queries per refresh: %v, want %d at every size", counts, len(queries(DefaultLookback)))
	}
}

// Label values are outside input: escape sequences and control
// characters are escaped, invalid UTF-8 replaced, long values cut, and
// the rows past MaxRows dropped (the worst kept).
func TestHostileLabelsAreBounded(t *testing.T) {
	f, srv := newFakeProm(t)
	evil := "QM\x1b[31mRED\x07\xff" + strings.Repeat("X", 500)
	f.fakeQMgr("a:9464\x1b]0;title\x07", evil, t0)
	for i := range 5 {
		f.fakeQMgr("a:9464", fmt.Sprintf("QM%d", i), t0)
	}
	fl := fetch(t, Config{URL: srv.URL, MaxRows: 3})
	if len(fl.Rows) != 3 || fl.Dropped != 3 {
		t.Fatalf("%d rows, %d dropped; want 3 and 3", len(fl.Rows), fl.Dropped)
	}
	fl = fetch(t, Config{URL: srv.URL})
	for _, r := range fl.Rows {
		for _, s := range []string{r.QMgr, r.Instance, r.DeadQ} {
			if strings.ContainsAny(s, "\x1b\x07") || !utf8.ValidString(s) || len(s) > maxLabel {
				t.Errorf("label %q (%d bytes) not made safe", s, len(s))
			}
		}
	}
}

func TestBadURLs(t *testing.T) {
	for raw, want := range map[string]string{
		"":                        "no URL given",
		"prometheus:9090":         "not an http or https URL",
		"ftp://prom:9090":         "not an http or https URL",
		"http://":                 "no host",
		"http://prom:9090/?x=1":   "takes no query",
		"http://prom\x1b[2J:9090": "not a URL",
	} {
		_, err := New(Config{URL: raw})
		if err == nil || !strings.Contains(err.Error(), want) || strings.Contains(err.Error(), "\x1b") {
			t.Errorf("%q: %v, want %q", raw, err, want)
		}
	}
	if _, err := New(Config{URL: "http://prom:9090", Alertmanager: "am:9093"}); err == nil || !strings.HasPrefix(err.Error(), "--alertmanager") {
		t.Errorf("a bad Alertmanager URL: %v", err)
	}
	c, err := New(Config{URL: "http://user:secret@prom:9090/prometheus/"})
	if err != nil || strings.Contains(c.Source(), "secret") || !strings.HasSuffix(c.Source(), "/prometheus") {
		t.Errorf("source %q, %v: the password is never shown", c.Source(), err)
	}
}

// What goes wrong says what to do: nothing listens, something that is not
// a query API answers, a query is refused, an answer is too large.
func TestUnreachableAndWrongServers(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	closed := "http://" + l.Addr().String()
	l.Close()
	c, _ := New(Config{URL: closed})
	if _, err := c.Fetch(context.Background()); err == nil || !strings.Contains(err.Error(), "cannot reach Prometheus at "+closed) ||
		!strings.Contains(err.Error(), "refused") {
		t.Errorf("nothing listening: %v", err)
	}
	f, srv := newFakeProm(t)
	f.setBody(func(w http.ResponseWriter) {
		w.Header().Set("Content-Type", "text/html")
		fmt.Fprint(w, "<html><body>Grafana\x1b[2J</body></html>")
	})
	c, _ = New(Config{URL: srv.URL})
	if _, err := c.Fetch(context.Background()); err == nil || !strings.Contains(err.Error(), "is not a Prometheus query API") || strings.Contains(err.Error(), "\x1b") {
		t.Errorf("a web page: %v", err)
	}
	f.setBody(func(w http.ResponseWriter) {
		w.WriteHeader(http.StatusUnprocessableEntity)
		fmt.Fprint(w, `{"status":"error","errorType":"execution","error":"query timed out in expression evaluation"}`)
	})
	if _, err := c.Fetch(context.Background()); err == nil || !strings.Contains(err.Error(), "refused the query") || !strings.Contains(err.Error(), "timed out") {
		t.Errorf("a refused query: %v", err)
	}
	old := maxAnswer
	maxAnswer = 1000
	defer func() { maxAnswer = old }()
	f.setBody(func(w http.ResponseWriter) {
		fmt.Fprint(w, `{"status":"success","data":{"resultType":"vector","result":[`+strings.Repeat(`{"metric":{},"value":[1,"1"]},`, 100)+`]}}`)
	})
	c, _ = New(Config{URL: srv.URL})
	if _, err := c.Fetch(context.Background()); err == nil || !strings.Contains(err.Error(), "larger than") {
		t.Errorf("an answer over the cap: %v", err)
	}
}
