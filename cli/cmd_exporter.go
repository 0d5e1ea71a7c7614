package cli

import (
	"cmp"
	"context"
	"flag"
	"fmt"
	"io"
	"net"
	"strings"
	"time"

	"github.com/poisonwatch/poisonwatch/actions/ops"
	"github.com/poisonwatch/poisonwatch/codec/mqfmt"
	"github.com/poisonwatch/poisonwatch/exporter"
)

func exporterCommand() *command {
	o := &exporterOpts{}
	return &command{name: "exporter", synopsis: "serve the watchers' figures as Prometheus metrics on /metrics: one poll per interval however many scrapers",
		flags: o.register,
		usage: usageText("Usage: poisonwatch exporter [backend flags] [--listen ADDR] [flags]",
			"",
			"Serves the watchers' figures as Prometheus metrics on /metrics, one poll per interval",
			"however many scrapers. With no backend flags it watches the built-in demo, as the",
			"dashboard does (docs/exporter.md)."),
		exits: exitsServer,
		run: func(ctx context.Context, _ *flag.FlagSet, stdout, stderr io.Writer) int {
			return runExporter(ctx, *o, stdout, stderr)
		}}
}

// exporterOpts are the exporter's flags: the dashboard's backend flags, the
// address, and the DEADQ breakdowns' caps.
type exporterOpts struct {
	tuiOpts
	listen                          string
	maxQueues, maxReasons, maxDests int
}

// maxCap bounds the breakdown caps: past a few hundred series a DEADQ's
// breakdown stops being a figure anyone graphs and starts costing
// Prometheus memory per sample.
const maxCap = 1000

// maxQueuesCap bounds --max-queues: a queue is about ten series, and a
// response of a few hundred thousand series is what the cap exists to
// prevent.
const maxQueuesCap = 20000

func (o *exporterOpts) register(fs *flag.FlagSet) {
	// Five seconds, not the dashboard's two: an exporter polls all day, and
	// Prometheus scraping every 15 seconds or more still gets figures at most
	// five seconds old.
	o.registerWatch(fs, 5*time.Second)
	fs.StringVar(&o.listen, "listen", "127.0.0.1:9464", "address the metrics are served on (/metrics)")
	fs.IntVar(&o.maxQueues, "max-queues", exporter.DefaultMaxQueues, "local queues per queue manager with series of their own; the rest are summed per role as queue=\"(other)\"")
	fs.IntVar(&o.maxReasons, "max-reasons", exporter.DefaultMaxReasons, "DEADQ reasons with a series of their own; the rest are summed as reason=\"(other)\"")
	fs.IntVar(&o.maxDests, "max-destinations", exporter.DefaultMaxDestinations, "DEADQ destinations with a series of their own; the rest are summed as destination=\"(other)\"")
}

// runExporter starts one set of watchers and serves their figures until
// interrupted.
func runExporter(ctx context.Context, o exporterOpts, stdout, stderr io.Writer) int {
	fail := func(code int, err error) int {
		fmt.Fprintf(stderr, "poisonwatch exporter: %s\n", safeErr(err))
		return code
	}
	if err := cmp.Or(checkInterval(o.interval), checkDeadline(o.deadline), checkBackend(o.backend)); err != nil {
		return fail(2, err)
	}
	for _, c := range []struct {
		flag, per string
		v, max    int
	}{{"--max-reasons", "series per DEADQ", o.maxReasons, maxCap}, {"--max-destinations", "series per DEADQ", o.maxDests, maxCap},
		{"--max-queues", "queues per queue manager", o.maxQueues, maxQueuesCap}} {
		if c.v < 1 || c.v > c.max {
			return fail(2, fmt.Errorf("%s %d: want 1 to %d %s", c.flag, c.v, c.max, c.per))
		}
	}
	// Listen first: a taken port is reported before any queue manager is
	// connected to.
	l, err := net.Listen("tcp", o.listen)
	if err != nil {
		return fail(1, err)
	}
	defer l.Close()
	be, err := startBackend(ctx, o.tuiOpts)
	if err != nil {
		return fail(1, err)
	}
	defer be.stop()
	stopAlerts, err := openIncident(ctx, o.tuiOpts, be, "exporter", stderr)
	if err != nil {
		return fail(1, err)
	}
	defer stopAlerts()
	return exportMetrics(ctx, o, be, l, stdout, stderr)
}

func exportMetrics(ctx context.Context, o exporterOpts, be *backend, l net.Listener, stdout, stderr io.Writer) int {
	watchCtx, stopWatch := context.WithCancel(context.Background())
	defer stopWatch()
	uiSources, wait := startWatchers(watchCtx, o.tuiOpts, be)
	var sources []exporter.Source
	var names []string
	for _, s := range uiSources {
		sources = append(sources, s)
		names = append(names, mqfmt.Sanitize(s.Name()))
	}
	exp := exporter.New(exporter.Config{Sources: sources, Interval: o.interval, Now: be.now,
		MaxQueues: o.maxQueues, MaxReasons: o.maxReasons, MaxDestinations: o.maxDests, Version: Version, Log: stderr, Warm: be.warm, Alerts: be.alerts,
		AuditPath: auditPathOf(o.audit), UnattendedAfter: be.unattended})
	if be.warm != nil {
		// The demo's first polls are from its simulated past: poll again
		// once it follows the clock, so no queue manager's last poll reads
		// minutes old for an interval.
		go func() {
			select {
			case <-be.warm:
				for _, s := range uiSources {
					s.Refresh()
				}
			case <-watchCtx.Done():
			}
		}()
	}
	folded := make(chan struct{})
	go func() { exp.Run(watchCtx); close(folded) }()
	fmt.Fprintf(stdout, "poisonwatch exporter: serving http://%s/metrics\nwatching %s every %s\n",
		l.Addr(), strings.Join(names, ", "), o.interval)
	err := exp.Serve(ctx, l)
	stopWatch()
	wait()
	<-folded
	if err != nil {
		fmt.Fprintf(stderr, "poisonwatch exporter: %s\n", safeErr(err))
		return 1
	}
	fmt.Fprintln(stdout, "poisonwatch exporter: stopped")
	return 0
}

// auditPathOf is the audit log a command reads: --audit, or the default one
// the dashboards and commands write ("" when there is no state directory).
func auditPathOf(flag string) string {
	if flag != "" {
		return flag
	}
	p, _ := ops.DefaultAuditPath()
	return p
}
