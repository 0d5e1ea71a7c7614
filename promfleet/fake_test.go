package promfleet

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strconv"
	"sync"
	"testing"
	"time"
)

// fakeProm answers the refresh's queries from series the test gives per
// kind of query, as Prometheus's /api/v1/query does (POST form or GET);
// any other expression is refused as Prometheus refuses a bad one. It
// counts the requests.
type fakeProm struct {
	mu       sync.Mutex
	answers  map[kind][]series
	requests int
	exprs    map[string]kind
	// body, when set, is sent instead of an answer (a web page, a huge one).
	body func(w http.ResponseWriter)
}

// series is one series of an answer: its labels and value.
type series struct {
	labels map[string]string
	value  float64
}

func newFakeProm(t *testing.T) (*fakeProm, *httptest.Server) {
	f := &fakeProm{answers: map[kind][]series{}, exprs: map[string]kind{}}
	for _, q := range queries(DefaultLookback) {
		f.exprs[q.expr] = q.kind
	}
	srv := httptest.NewServer(f)
	t.Cleanup(srv.Close)
	return f, srv
}

func (f *fakeProm) add(k kind, value float64, labels ...string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	m := map[string]string{}
	for i := 0; i+1 < len(labels); i += 2 {
		m[labels[i]] = labels[i+1]
	}
	f.answers[k] = append(f.answers[k], series{m, value})
}

func (f *fakeProm) setBody(body func(w http.ResponseWriter)) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.body = body
}

func (f *fakeProm) count() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.requests
}

func (f *fakeProm) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.requests++
	if f.body != nil {
		f.body(w)
		return
	}
	if r.URL.Path != "/api/v1/query" || r.ParseForm() != nil {
		http.NotFound(w, r)
		return
	}
	k, ok := f.exprs[r.Form.Get("query")]
	if !ok {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusBadRequest)
		fmt.Fprintf(w, `{"status":"error","errorType":"bad_data","error":"unknown query %q"}`, r.Form.Get("query"))
		return
	}
	ts, _ := strconv.ParseFloat(r.Form.Get("time"), 64)
	type result struct {
		Metric map[string]string `json:"metric"`
		Value  [2]any            `json:"value"`
	}
	out := []result{}
	for _, s := range f.answers[k] {
		out = append(out, result{s.labels, [2]any{ts, strconv.FormatFloat(s.value, 'g', -1, 64)}})
	}
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(map[string]any{"status": "success", "data": map[string]any{"resultType": "vector", "result": out}})
}

// fakeQMgr adds the series of one healthy queue manager as its exporter
// serves them: polled at last, connected, 100 queues, a DEADQ of 40 of
// 5,000 messages.
func (f *fakeProm) fakeQMgr(instance, qmgr string, lastGood time.Time) {
	l := []string{"instance", instance, "job", "poisonwatch", "qmgr", qmgr}
	with := func(extra ...string) []string { return append(append([]string{}, l...), extra...) }
	f.add(kRows, 12, l...)
	f.add(kFresh, float64(lastGood.Unix()), l...)
	f.add(kLastGood, float64(lastGood.UnixNano())/1e9, l...)
	f.add(kFigures, 1, with("__name__", "poisonwatch_qmgr_connected")...)
	f.add(kFigures, 100, with("__name__", "poisonwatch_qmgr_queues")...)
	f.add(kFigures, 5, with("__name__", "poisonwatch_qmgr_poll_interval_seconds")...)
	dlq := with("queue", "SYSTEM.DEAD.LETTER.QUEUE", "role", "deadq")
	f.add(kFigures, 40, append(dlq, "__name__", "poisonwatch_queue_depth_messages")...)
	f.add(kFigures, 5000, append(dlq, "__name__", "poisonwatch_queue_max_depth_messages")...)
}

// fakeUp adds an exporter's up.
func (f *fakeProm) fakeUp(instance string, up float64) {
	f.add(kUp, up, "__name__", "up", "instance", instance, "job", "poisonwatch")
}
