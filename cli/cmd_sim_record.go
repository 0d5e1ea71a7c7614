package cli

import (
	"context"
	"fmt"
	"sync/atomic"
	"time"

	"github.com/poisonwatch/poisonwatch/backend/embedded"
	"github.com/poisonwatch/poisonwatch/demo"
	"github.com/poisonwatch/poisonwatch/incident/record"
	"github.com/poisonwatch/poisonwatch/model"
	"github.com/poisonwatch/poisonwatch/mqwatch"
)

// simRecorder polls a simulation's queue managers at every interval of
// simulated time, with the simulation stopped meanwhile, and records what
// the dashboard's watchers would have seen: fast (no waiting) and the same
// on every run of a seed.
type simRecorder struct {
	ctx      context.Context
	cancel   context.CancelFunc
	rec      *record.Writer
	state    *model.State
	now      atomic.Int64
	watchers []*mqwatch.Watcher
}

func newSimRecorder(ctx context.Context, path string, interval time.Duration, s *demo.Scenario) (*simRecorder, error) {
	var names []string
	for _, q := range s.QMgrs {
		names = append(names, q.Name)
	}
	rec, err := record.Create(path, 0, record.Header{Interval: interval, Source: "sim", QMgrs: names})
	if err != nil {
		return nil, err
	}
	r := &simRecorder{rec: rec}
	r.ctx, r.cancel = context.WithCancel(ctx)
	r.state = model.New(r.clock, interval)
	r.state.Book.OnChange = rec.Transitions
	return r, nil
}

func (r *simRecorder) clock() time.Time { return time.Unix(0, r.now.Load()) }

// observe is the simulation's observer: one poll of every queue manager.
func (r *simRecorder) observe(now time.Time, qms []*embedded.QMgr) {
	r.now.Store(now.UnixNano())
	first := r.watchers == nil
	if first {
		for _, qm := range qms {
			// An hour between polls: this observer asks for each one.
			w := mqwatch.NewWatcher(mqwatch.WatchConfig{Name: qm.Name(), Connector: qm, Interval: time.Hour, Now: r.clock,
				Connect: mqwatch.ConnectOptions{ApplName: "poisonwatch"}})
			go w.Run(r.ctx)
			r.watchers = append(r.watchers, w)
		}
	}
	for _, w := range r.watchers {
		if !first {
			w.Refresh()
		}
		for snap := range w.Snapshots() {
			if snap.Time.Equal(now) && !snap.Partial() {
				r.rec.Snapshot(snap)
				r.state.Fold(snap)
				break
			}
		}
	}
}

// close stops the watchers and ends the recording.
func (r *simRecorder) close() error {
	r.cancel()
	if err := r.rec.Close(); err != nil {
		return fmt.Errorf("--record: %w", err)
	}
	return nil
}
