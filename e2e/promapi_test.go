//go:build linux

package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"sync"
	"testing"
	"time"
)

// promAPI asks Prometheus's HTTP API.
type promAPI struct {
	base string
	t    *testing.T
}

func (p promAPI) get(path string, q url.Values, into any) error {
	resp, err := http.Get(p.base + path + "?" + q.Encode())
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	var env struct {
		Status string          `json:"status"`
		Error  string          `json:"error"`
		Data   json.RawMessage `json:"data"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&env); err != nil {
		return fmt.Errorf("%s: %s: %w", path, resp.Status, err)
	}
	if env.Status != "success" {
		return fmt.Errorf("%s %s: %s", path, q.Encode(), env.Error)
	}
	return json.Unmarshal(env.Data, into)
}

// waitReady waits for Prometheus and Alertmanager to answer ready.
func (p promAPI) waitReady(ctx context.Context, alertmanager string) {
	p.t.Helper()
	for _, u := range []string{p.base + "/-/ready", alertmanager + "/-/ready"} {
		until(ctx, p.t, 30*time.Second, u+" ready", func() (bool, string) {
			resp, err := http.Get(u)
			if err != nil {
				return false, err.Error()
			}
			resp.Body.Close()
			return resp.StatusCode == http.StatusOK, resp.Status
		})
	}
}

// firstScrape waits for the exporter's first scrape and returns its time.
func (p promAPI) firstScrape(ctx context.Context) time.Time {
	p.t.Helper()
	var at time.Time
	until(ctx, p.t, 30*time.Second, "Prometheus's first scrape of the exporter", func() (bool, string) {
		var data struct {
			Result []struct {
				Value [2]any `json:"value"`
			} `json:"result"`
		}
		if err := p.get("/api/v1/query", url.Values{"query": {`timestamp(up{job="poisonwatch"} == 1)`}}, &data); err != nil {
			return false, err.Error()
		}
		if len(data.Result) == 0 {
			return false, "no scrape yet"
		}
		sec, err := strconv.ParseFloat(fmt.Sprint(data.Result[0].Value[1]), 64)
		if err != nil {
			return false, err.Error()
		}
		at = time.Unix(0, int64(sec*1e9))
		return true, ""
	})
	return at
}

// presentAt says whether an instant query of selector at t returns a
// series: a series a scrape stopped carrying is stale from that scrape on.
func (p promAPI) presentAt(selector string, t time.Time) bool {
	p.t.Helper()
	var data struct {
		Result []json.RawMessage `json:"result"`
	}
	q := url.Values{"query": {selector}, "time": {strconv.FormatFloat(float64(t.UnixNano())/1e9, 'f', 3, 64)}}
	if err := p.get("/api/v1/query", q, &data); err != nil {
		p.t.Fatalf("%s at %s: %v", selector, t, err)
	}
	return len(data.Result) > 0
}

// firstSample is the time of the first sample Prometheus holds of a
// series (to the second, the subquery's step).
func (p promAPI) firstSample(selector string) time.Time {
	p.t.Helper()
	var data struct {
		Result []struct {
			Value [2]any `json:"value"`
		} `json:"result"`
	}
	if err := p.get("/api/v1/query", url.Values{"query": {"min_over_time(timestamp(" + selector + ")[10m:1s])"}}, &data); err != nil || len(data.Result) != 1 {
		p.t.Fatalf("first sample of %s: %v %+v", selector, err, data.Result)
	}
	sec, err := strconv.ParseFloat(fmt.Sprint(data.Result[0].Value[1]), 64)
	if err != nil {
		p.t.Fatal(err)
	}
	return time.Unix(0, int64(sec*1e9))
}

// waitAlerts waits until every expected alert is firing in Prometheus and
// returns when each became active.
func (p promAPI) waitAlerts(ctx context.Context, want []promAlert, limit time.Duration) map[string]time.Time {
	p.t.Helper()
	active := map[string]time.Time{}
	until(ctx, p.t, limit, "the demo's alerts firing in Prometheus", func() (bool, string) {
		var data struct {
			Alerts []struct {
				Labels   map[string]string `json:"labels"`
				State    string            `json:"state"`
				ActiveAt time.Time         `json:"activeAt"`
			} `json:"alerts"`
		}
		if err := p.get("/api/v1/alerts", nil, &data); err != nil {
			return false, err.Error()
		}
		firing := map[string]bool{}
		for _, a := range data.Alerts {
			if a.State == "firing" {
				k := promAlert{labels: a.Labels}.key()
				firing[k], active[k] = true, a.ActiveAt
			}
		}
		var missing []string
		for _, e := range want {
			if !firing[e.key()] {
				missing = append(missing, e.key())
			}
		}
		return len(missing) == 0, fmt.Sprintf("not firing: %v; firing: %v", missing, firing)
	})
	return active
}

// query runs an instant query and says how many series it returned.
func (p promAPI) query(expr string) (int, error) {
	var data struct {
		Result json.RawMessage `json:"result"`
	}
	if err := p.get("/api/v1/query", url.Values{"query": {expr}}, &data); err != nil {
		return 0, err
	}
	var series []json.RawMessage
	if err := json.Unmarshal(data.Result, &series); err != nil {
		return 1, nil // a scalar or a string: data all the same
	}
	return len(series), nil
}

// webhook is the Alertmanager receiver: it keeps the last notification of
// every alert.
type webhook struct {
	mu     sync.Mutex
	alerts map[string]amAlert
}

type amAlert struct {
	Status      string            `json:"status"`
	Labels      map[string]string `json:"labels"`
	Annotations map[string]string `json:"annotations"`
}

func newWebhook() *webhook { return &webhook{alerts: map[string]amAlert{}} }

func (h *webhook) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	var msg struct {
		Version string    `json:"version"`
		Alerts  []amAlert `json:"alerts"`
	}
	if r.URL.Path != "/hook" || json.NewDecoder(r.Body).Decode(&msg) != nil {
		http.Error(w, "not a notification", http.StatusBadRequest)
		return
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	for _, a := range msg.Alerts {
		if a.Status == "firing" {
			h.alerts[promAlert{labels: a.Labels}.key()] = a
		}
	}
}

func (h *webhook) wait(ctx context.Context, t *testing.T, want []promAlert, limit time.Duration) map[string]amAlert {
	t.Helper()
	var got map[string]amAlert
	until(ctx, t, limit, "Alertmanager's notifications", func() (bool, string) {
		h.mu.Lock()
		defer h.mu.Unlock()
		var missing []string
		for _, e := range want {
			if _, ok := h.alerts[e.key()]; !ok {
				missing = append(missing, e.key())
			}
		}
		got = map[string]amAlert{}
		for k, v := range h.alerts {
			got[k] = v
		}
		return len(missing) == 0, fmt.Sprintf("not delivered: %v", missing)
	})
	return got
}
