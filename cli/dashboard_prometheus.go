package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"time"

	"github.com/poisonwatch/poisonwatch/promfleet"
)

// fleetFlags are the dashboard's and serve's flags for the fleet read from
// Prometheus: where the exporters' series are, and the Alertmanager whose
// silences go with their alerts.
type fleetFlags struct {
	prometheus   string
	alertmanager string
}

func (f *fleetFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&f.prometheus, "prometheus", "", "open the fleet view on the poisonwatch exporters' series in this Prometheus-compatible query `URL` "+
		"(Prometheus, Thanos Query, Mimir, VictoriaMetrics): one row per queue manager, refreshed every --interval; enter opens a row live "+
		"only through a connection the backend flags name (--qmgrs), none is made for the others (docs/fleet.md)")
	fs.StringVar(&f.alertmanager, "alertmanager", "", "with --prometheus: the Alertmanager `URL` whose silences the fleet view shows with the alerts")
}

// errNoPrometheus is --alertmanager without --prometheus.
var errNoPrometheus = errors.New("--alertmanager needs --prometheus: the silences are shown on the fleet read from it")

// fleetStartLimit bounds the first read: a Prometheus that has not answered
// in this time is not one the dashboard can show a fleet from.
const fleetStartLimit = 15 * time.Second

// startPrometheusFleet reads the fleet once before the screen opens, so that a bad
// URL (exit 2) or a Prometheus that cannot be reached or is not a query
// API (exit 1) is said on the command line, and the first frame has its
// rows; then it refreshes every interval until ctx ends. nil, 0, nil
// without --prometheus.
func startPrometheusFleet(ctx context.Context, f fleetFlags, interval time.Duration) (*promfleet.Poller, int, error) {
	if f.prometheus == "" {
		if f.alertmanager != "" {
			return nil, 2, errNoPrometheus
		}
		return nil, 0, nil
	}
	c, err := promfleet.New(promfleet.Config{URL: f.prometheus, Alertmanager: f.alertmanager})
	if err != nil {
		return nil, 2, err
	}
	first, cancel := context.WithTimeout(ctx, fleetStartLimit)
	defer cancel()
	fl, err := c.Fetch(first)
	if err != nil {
		return nil, 1, fmt.Errorf("%w (--prometheus %s)", err, c.Source())
	}
	p := promfleet.NewPoller(c, interval, fl)
	go p.Run(ctx)
	return p, 0, nil
}

// namesQMgrs says whether the backend flags name queue managers. With
// --prometheus, only those are connected to (the fleet's rows open live
// through them); without any, nothing is, not even the built-in demo.
func namesQMgrs(o tuiOpts) bool {
	return o.backend == "ibmmq" || o.scenario != "" || o.mqsc != "" || o.qmgrs != "" || o.qmgr != ""
}

// fleetBackend starts what the fleet view runs on: the backend the flags
// name, or, with --prometheus and none named, no queue manager at all.
func fleetBackend(ctx context.Context, o tuiOpts) (*backend, error) {
	if o.fleet.prometheus != "" && !namesQMgrs(o) {
		return &backend{stop: func() {}}, nil
	}
	return startBackend(ctx, o)
}
