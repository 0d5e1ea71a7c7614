// Package promfleet reads the fleet from a Prometheus-compatible query API:
// the series the poisonwatch exporters serve, one exporter per host,
// scraped by Prometheus (or federated into Thanos, Mimir or
// VictoriaMetrics, which answer the same API), made into one row per queue
// manager for the fleet view (poisonwatch --prometheus). A refresh is a
// fixed number of instant queries, evaluated at one instant, however many
// queue managers there are; with an Alertmanager, two reads more for the
// silences. Nothing here connects to a queue manager.
package promfleet

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/prometheus/client_golang/api"
	v1 "github.com/prometheus/client_golang/api/prometheus/v1"

	"github.com/poisonwatch/poisonwatch/codec/mqfmt"
	"github.com/poisonwatch/poisonwatch/model"
)

// Config says where the fleet's series are and how much of them to read.
type Config struct {
	// URL is the query API's base: Prometheus's http://host:9090, Thanos
	// Query's, Mimir's http://host/prometheus, VictoriaMetrics's.
	URL string
	// Alertmanager, when set, is read for the silences of the rules'
	// alerts (its API v2).
	Alertmanager string
	// Lookback is how long a queue manager whose series stopped stays a
	// row, reading down (default an hour).
	Lookback time.Duration
	// Timeout bounds one refresh (default 30s).
	Timeout time.Duration
	// MaxRows bounds the rows kept, the worst first (default 10,000).
	MaxRows int
	// Now is the clock the queries are evaluated at (default time.Now).
	Now func() time.Time
	// Transport carries the requests (default http.DefaultTransport).
	Transport http.RoundTripper
}

// Defaults and bounds.
const (
	DefaultLookback = time.Hour
	DefaultTimeout  = 30 * time.Second
	DefaultMaxRows  = 10000
)

// maxAnswer bounds one answer's body: the figures of 10,000 queue managers
// are a few MiB; more is not a fleet the view can show. (A variable for
// the test that sends more.)
var maxAnswer int64 = 64 << 20

// Client reads the fleet from one query API.
type Client struct {
	cfg    Config
	prom   v1.API
	am     *alertmanager // nil without one
	source string
}

// New checks the URLs and makes a client; nothing is asked yet.
func New(cfg Config) (*Client, error) {
	base, err := CheckURL("--prometheus", cfg.URL)
	if err != nil {
		return nil, err
	}
	if cfg.Lookback <= 0 {
		cfg.Lookback = DefaultLookback
	}
	if cfg.Timeout <= 0 {
		cfg.Timeout = DefaultTimeout
	}
	if cfg.MaxRows <= 0 {
		cfg.MaxRows = DefaultMaxRows
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	rt := cfg.Transport
	if rt == nil {
		rt = http.DefaultTransport
	}
	rt = capped{rt: rt, limit: maxAnswer}
	ac, err := api.NewClient(api.Config{Address: base.String(), RoundTripper: rt})
	if err != nil {
		return nil, fmt.Errorf("--prometheus %s: %w", base.Redacted(), err)
	}
	c := &Client{cfg: cfg, prom: v1.NewAPI(ac), source: base.Redacted()}
	if cfg.Alertmanager != "" {
		am, err := CheckURL("--alertmanager", cfg.Alertmanager)
		if err != nil {
			return nil, err
		}
		c.am = &alertmanager{base: am, client: &http.Client{Transport: rt}}
	}
	return c, nil
}

// Source is the query API as the screens name it, credentials removed.
func (c *Client) Source() string { return c.source }

// CheckURL says what is wrong with a query API's URL, in the words of the
// flag that gave it: only http and https, with a host.
func CheckURL(flag, raw string) (*url.URL, error) {
	u, err := url.Parse(strings.TrimSpace(raw))
	example := " (for example http://prometheus:9090)"
	switch {
	case raw == "":
		return nil, fmt.Errorf("%s: no URL given%s", flag, example)
	case err != nil:
		return nil, fmt.Errorf("%s %q: not a URL%s", flag, mqfmt.Sanitize(clip(raw)), example)
	case u.Scheme != "http" && u.Scheme != "https":
		return nil, fmt.Errorf("%s %q: not an http or https URL%s", flag, mqfmt.Sanitize(clip(raw)), example)
	case u.Host == "" || u.Hostname() == "":
		return nil, fmt.Errorf("%s %q: no host%s", flag, mqfmt.Sanitize(clip(raw)), example)
	case u.RawQuery != "" || u.Fragment != "":
		return nil, fmt.Errorf("%s %q: the API's base URL takes no query or fragment%s", flag, mqfmt.Sanitize(clip(raw)), example)
	}
	u.Path = strings.TrimRight(u.Path, "/")
	return u, nil
}

// Fetch reads the fleet: every query at one evaluation instant, at once,
// then the Alertmanager's silences. An error says which query failed and
// why, in words for the operator (unreachable, refused, not a query API);
// an Alertmanager that does not answer is no error: the rows stand without
// their silences and say so.
func (c *Client) Fetch(ctx context.Context) (*model.RemoteFleet, error) {
	ctx, cancel := context.WithTimeout(ctx, c.cfg.Timeout)
	defer cancel()
	start := time.Now()
	at := c.cfg.Now().Truncate(time.Millisecond)
	qs := queries(c.cfg.Lookback)
	answers := make([][]sample, len(qs))
	errs := make([]error, len(qs))
	var wg sync.WaitGroup
	for i, q := range qs {
		wg.Go(func() {
			if answers[i], errs[i] = c.query(ctx, q.expr, at); errs[i] != nil {
				cancel() // one refused query fails the refresh: stop the others
			}
		})
	}
	var sil *silences
	var amErr error
	if c.am != nil {
		wg.Go(func() { sil, amErr = c.am.read(ctx, at) })
	}
	wg.Wait()
	if err := firstError(errs); err != nil {
		return nil, err
	}
	f := build(qs, answers, at, c.cfg.MaxRows)
	f.Source, f.Queries = c.source, len(qs)
	if c.am != nil {
		f.Alertmanager, f.Queries, f.SilenceErr = c.am.base.Redacted(), f.Queries+2, amErr
		if amErr == nil {
			sil.apply(f)
		}
	}
	f.Took = time.Since(start)
	return f, nil
}

// firstError is the first error that is not the cancellation another
// query's failure caused.
func firstError(errs []error) error {
	var out error
	for _, err := range errs {
		switch {
		case err == nil:
		case !errors.Is(err, context.Canceled):
			return err
		case out == nil:
			out = err
		}
	}
	return out
}

// query runs one instant query; the samples it returns are cleaned and
// bounded.
func (c *Client) query(ctx context.Context, expr string, at time.Time) ([]sample, error) {
	v, _, _, err := c.prom.Query(ctx, expr, at)
	if err != nil {
		return nil, c.explain(expr, err)
	}
	out, err := samples(v)
	if err != nil {
		return nil, fmt.Errorf("%s answered %s with %w", c.source, expr, err)
	}
	return out, nil
}

// explain turns a client error into what the operator can act on.
func (c *Client) explain(expr string, err error) error {
	var ue *url.Error
	var ne net.Error
	var ae *v1.Error
	switch {
	case errors.Is(err, context.DeadlineExceeded):
		return fmt.Errorf("%s did not answer within %s", c.source, c.cfg.Timeout)
	case errors.Is(err, context.Canceled):
		return err
	case errors.As(err, &ae) && ae.Type == v1.ErrBadResponse:
		return fmt.Errorf("%s is not a Prometheus query API (its answer to /api/v1/query: %s)", c.source, clip(mqfmt.Sanitize(ae.Msg)))
	case errors.As(err, &ae):
		what := ae.Msg
		if ae.Detail != "" && !strings.Contains(ae.Detail, "<") {
			what += ": " + ae.Detail
		}
		return fmt.Errorf("%s refused the query %s: %s", c.source, expr, clip(mqfmt.Sanitize(what)))
	case errors.As(err, &ue) && errors.As(ue.Err, &ne):
		return fmt.Errorf("cannot reach Prometheus at %s: %s", c.source, clip(mqfmt.Sanitize(ue.Err.Error())))
	case errors.As(err, &ue):
		return fmt.Errorf("cannot reach Prometheus at %s: %s", c.source, clip(mqfmt.Sanitize(ue.Err.Error())))
	}
	return fmt.Errorf("%s: %s", c.source, clip(mqfmt.Sanitize(err.Error())))
}

// clip bounds a text from outside (an error body, a URL) to one line's
// worth.
func clip(s string) string {
	const most = 200
	if len(s) <= most {
		return s
	}
	return cut(s, most)
}

// capped bounds every answer's body: a query API that sends more than
// limit bytes makes the read fail rather than the process's memory grow.
type capped struct {
	rt    http.RoundTripper
	limit int64
}

func (c capped) RoundTrip(r *http.Request) (*http.Response, error) {
	resp, err := c.rt.RoundTrip(r)
	if err == nil {
		resp.Body = &capBody{ReadCloser: resp.Body, left: c.limit, limit: c.limit}
	}
	return resp, err
}

type capBody struct {
	io.ReadCloser
	left, limit int64
}

func (b *capBody) Read(p []byte) (int, error) {
	if b.left <= 0 {
		return 0, fmt.Errorf("an answer larger than %d bytes: not read further", b.limit)
	}
	if int64(len(p)) > b.left {
		p = p[:b.left+1] // one byte over says the answer goes on
	}
	n, err := b.ReadCloser.Read(p)
	b.left -= int64(n)
	return n, err
}
