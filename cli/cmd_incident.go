package cli

import (
	"context"
	"flag"
	"fmt"
	"io"
	"path/filepath"
	"time"

	"github.com/poisonwatch/poisonwatch/incident/alertstore"
	"github.com/poisonwatch/poisonwatch/incident/record"
	"github.com/poisonwatch/poisonwatch/model"
	"github.com/poisonwatch/poisonwatch/mqwatch"
	"github.com/poisonwatch/poisonwatch/ui"
)

// recordOpts are the recording flags of the dashboard, serve and exporter.
type recordOpts struct {
	path string
	max  int64
}

func recordFlags(fs *flag.FlagSet, o *recordOpts) {
	fs.StringVar(&o.path, "record", "", "record snapshots, alerts, acknowledgements and actions to FILE for poisonwatch playback and report (serve: on by default in the state directory; off turns it off)")
	fs.Int64Var(&o.max, "record-max-bytes", record.DefaultMaxBytes, "rotate the recording at this size: FILE moves to FILE.1 and a new FILE starts")
}

// openIncident gives the backend's queue managers their book of alert
// histories and acknowledgements, kept in the state directory, and the
// recording when one is asked for (kind: dashboard, serve, exporter). stop
// writes both one last time and closes them.
func openIncident(ctx context.Context, o tuiOpts, be *backend, kind string, stderr io.Writer) (stop func(), err error) {
	var names []string
	for _, q := range be.qmgrs {
		names = append(names, q.name)
	}
	book := model.NewAlertBook()
	st, err := alertstore.Open(alertstore.Path(exportDir(o.audit), names), book)
	if err != nil {
		return nil, err
	}
	path := o.rec.path
	if path == "" && kind == "serve" {
		path = filepath.Join(exportDir(o.audit), "recordings", "serve.pwrec")
	}
	if path != "" && path != "off" {
		be.rec, err = record.Create(path, o.rec.max, record.Header{Started: be.clock(), Interval: o.interval, Source: kind, QMgrs: names})
		if err != nil {
			return nil, err
		}
	}
	be.alerts = book
	if rec := be.rec; rec != nil {
		keep := book.OnChange
		book.OnChange = func(ts []model.Transition) { keep(ts); rec.Transitions(ts) }
		// Every entry of the journal as it is written: the acts the engines
		// carry out, what came back, acknowledgements, joins and leaves.
		be.acts().Subscribe(rec.Entry)
	}
	ctx, cancel := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() { defer close(done); st.Run(ctx, o.interval) }()
	return func() {
		cancel()
		<-done
		if err := st.Err(); err != nil {
			fmt.Fprintf(stderr, "poisonwatch: %v\n", err)
		}
		if be.rec != nil {
			if err := be.rec.Close(); err != nil {
				fmt.Fprintf(stderr, "poisonwatch: %v\n", err)
			}
		}
	}, nil
}

// clock is the backend's clock (the demo's is simulated while it warms up).
func (be *backend) clock() time.Time {
	if be.now != nil {
		return be.now()
	}
	return time.Now()
}

// recorded wraps a source so every snapshot is recorded as it arrives,
// before the dashboard or the exporter reads it (latest-wins, as from the
// watcher).
func (be *backend) recorded(ctx context.Context, s ui.Source) ui.Source {
	if be.rec == nil {
		return s
	}
	r := &recordedSource{Source: s, out: make(chan *mqwatch.Snapshot, 1)}
	go func() {
		defer close(r.out)
		// Until the watcher stops, not ctx: its last snapshot is recorded too.
		mqwatch.Each(context.WithoutCancel(ctx), s, func(snap *mqwatch.Snapshot) {
			// The dashboard first: a snapshot is immutable, and the first
			// write of a large DEADQ takes a while.
			select {
			case <-r.out:
			default:
			}
			r.out <- snap
			be.rec.Snapshot(snap)
		})
	}()
	return r
}

type recordedSource struct {
	ui.Source
	out chan *mqwatch.Snapshot
}

func (r *recordedSource) Snapshots() <-chan *mqwatch.Snapshot { return r.out }
