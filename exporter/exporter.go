// Package exporter serves the watchers' figures as Prometheus metrics
// (poisonwatch exporter). Each watcher's snapshots are folded into a model
// of their own as the dashboard folds them, and after each fold the figures
// a scrape reports are built once; a scrape reads those and never calls the
// queue manager, so its load does not grow with the number of scrapers.
package exporter

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"sync"
	"sync/atomic"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"github.com/poisonwatch/poisonwatch/codec/mqfmt"
	"github.com/poisonwatch/poisonwatch/model"
	"github.com/poisonwatch/poisonwatch/mqwatch"
)

// Source is one queue manager's feed of snapshots: a watcher.
type Source interface {
	Name() string
	Snapshots() <-chan *mqwatch.Snapshot
}

// Default cardinality caps of the DEADQ breakdowns.
const (
	DefaultMaxReasons      = 20
	DefaultMaxDestinations = 50
)

// Default bounds of one response: see Config.
const (
	DefaultWriteTimeout = time.Minute
	DefaultStallTimeout = 10 * time.Second
)

// Config configures an Exporter.
type Config struct {
	Sources []Source
	// Interval is the watchers' poll interval: the model's staleness and
	// the poll_interval metric.
	Interval time.Duration
	// Now is the queue managers' clock (the demo's is simulated during its
	// warm-up); default time.Now.
	Now func() time.Time
	// MaxReasons and MaxDestinations cap the DEADQ breakdowns per DEADQ:
	// the largest groups get a series each, the rest one "(other)" series.
	MaxReasons, MaxDestinations int
	// WriteTimeout bounds the time a response to a scrape may take, and
	// StallTimeout the time a scraper may leave it unread: past either the
	// connection is closed, so scrapers that never read cannot keep the
	// in-flight slots (default 60s and 10s; Prometheus's own scrape
	// timeout is 10s by default).
	WriteTimeout, StallTimeout time.Duration
	// MaxQueues caps the local queues of one queue manager with series of
	// their own; the rest are summed per role as queue="(other)".
	MaxQueues int
	// Warm, when not nil, is closed when the queue managers' history is
	// complete (the demo's simulated warm-up): the messages that arrived
	// before are the incident's backlog, not arrivals the exporter saw.
	Warm    <-chan struct{}
	Version string
	// Log receives one line when a queue manager stops or starts answering;
	// nil discards.
	Log io.Writer
	// UnattendedAfter is, per queue manager, how long its dead letters may
	// wait before R8f (missing: a day).
	UnattendedAfter map[string]time.Duration
	// Alerts, when set, is the book of alert histories and
	// acknowledgements (kept in the state directory) that
	// poisonwatch_alert_acknowledged reads; nil: nothing is acknowledged.
	Alerts *model.AlertBook
	// AuditPath is the audit log whose act lines (the journal's durable
	// form) poisonwatch_operator_acts_total counts; "": none.
	AuditPath string
}

// Exporter folds snapshots and serves the figures.
type Exporter struct {
	cfg  Config
	lim  limits
	figs []atomic.Pointer[figures] // per source, the last fold's
	reg  *prometheus.Registry
	acts *acts // the journal's acts, from the audit log
}

// New builds an exporter on the sources; Run folds their snapshots.
func New(cfg Config) *Exporter {
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.WriteTimeout <= 0 {
		cfg.WriteTimeout = DefaultWriteTimeout
	}
	if cfg.StallTimeout <= 0 {
		cfg.StallTimeout = DefaultStallTimeout
	}
	if cfg.MaxQueues <= 0 {
		cfg.MaxQueues = DefaultMaxQueues
	}
	if cfg.MaxReasons <= 0 {
		cfg.MaxReasons = DefaultMaxReasons
	}
	if cfg.MaxDestinations <= 0 {
		cfg.MaxDestinations = DefaultMaxDestinations
	}
	if cfg.Log == nil {
		cfg.Log = io.Discard
	}
	cfg.Log = &lockedWriter{w: cfg.Log} // the watchers and the HTTP server log at once
	e := &Exporter{cfg: cfg, lim: limits{queues: cfg.MaxQueues, reasons: cfg.MaxReasons, dests: cfg.MaxDestinations},
		figs: make([]atomic.Pointer[figures], len(cfg.Sources)), reg: prometheus.NewRegistry(), acts: newActs(cfg.AuditPath, cfg.Sources)}
	e.reg.MustRegister(collector{e}, collectors.NewGoCollector(),
		collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	return e
}

// Registry is where the exporter's metrics are gathered from, for serving
// them on another mux.
func (e *Exporter) Registry() *prometheus.Registry { return e.reg }

// Run folds every source's snapshots until ctx ends or every source closes.
func (e *Exporter) Run(ctx context.Context) {
	var wg sync.WaitGroup
	for i := range e.cfg.Sources {
		wg.Go(func() { e.watch(ctx, i) })
	}
	wg.Wait()
}

// watch folds one source. Each source has its own model, so a queue
// manager that is slow to fold never holds up another's figures.
func (e *Exporter) watch(ctx context.Context, i int) {
	src := e.cfg.Sources[i]
	st := model.New(e.cfg.Now, e.cfg.Interval)
	if e.cfg.Alerts != nil {
		st.Book = e.cfg.Alerts
	}
	st.QMgr(src.Name()).UnattendedAfter = e.cfg.UnattendedAfter[src.Name()]
	t := tally{warm: e.cfg.Warm}
	was := true
	mqwatch.Each(ctx, src, func(snap *mqwatch.Snapshot) {
		t.observe(snap)
		t.fold(snap)
		st.Fold(snap)
		e.figs[i].Store(build(src.Name(), st.QMgrs[snap.QMgrName], snap, &t, e.lim))
		if snap.Connected != was {
			e.logTransition(src.Name(), snap)
			was = snap.Connected
		}
	})
}

// logTransition says a queue manager stopped or started answering. Names
// and error texts are the queue manager's: sanitised for the terminal.
func (e *Exporter) logTransition(name string, snap *mqwatch.Snapshot) {
	name = mqfmt.Sanitize(name)
	if snap.Connected {
		fmt.Fprintf(e.cfg.Log, "poisonwatch exporter: %s: connected\n", name)
		return
	}
	why := "unknown error"
	if snap.Err != nil {
		why = mqfmt.Sanitize(snap.Err.Error())
	}
	fmt.Fprintf(e.cfg.Log, "poisonwatch exporter: %s: not connected: %s\n", name, why)
}

// Handler serves /metrics and a page that links to it.
func (e *Exporter) Handler() http.Handler {
	mux := http.NewServeMux()
	mux.Handle("/metrics", e.bounded(promhttp.HandlerFor(e.reg, promhttp.HandlerOpts{
		ErrorLog: log.New(e.cfg.Log, "poisonwatch exporter: ", 0),
		// A metric that cannot be sent costs that metric, not the scrape.
		ErrorHandling: promhttp.ContinueOnError,
		// Scrapes are cheap, but a flood of them must not take the CPU the
		// watchers need. No timeout: a scrape waits on nothing (the figures
		// are in memory), and promhttp's would buffer every response whole.
		// A scraper that stops reading is cut off (bounded), so it holds
		// a slot for StallTimeout at most.
		MaxRequestsInFlight: 8,
	})))
	mux.HandleFunc("/{$}", func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprint(w, `<html><head><title>poisonwatch exporter</title></head><body><h1>poisonwatch exporter</h1><p><a href="/metrics">Metrics</a></p></body></html>`)
	})
	return mux
}

// Serve answers HTTP on l until ctx ends, then gives scrapes in flight five
// seconds to finish.
func (e *Exporter) Serve(ctx context.Context, l net.Listener) error {
	srv := &http.Server{Handler: e.Handler(), ReadHeaderTimeout: 5 * time.Second, ReadTimeout: 10 * time.Second, WriteTimeout: e.cfg.WriteTimeout,
		IdleTimeout: time.Minute,
		ErrorLog:    log.New(e.cfg.Log, "poisonwatch exporter: ", 0)}
	done := make(chan error, 1)
	go func() { done <- srv.Serve(l) }()
	select {
	case err := <-done:
		return err
	case <-ctx.Done():
	}
	stop, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	err := srv.Shutdown(stop)
	if serr := <-done; !errors.Is(serr, http.ErrServerClosed) && err == nil {
		err = serr
	}
	return err
}

// lockedWriter serialises writes, so log lines never interleave.
type lockedWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}
