package cli

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/poisonwatch/poisonwatch/model"
	"github.com/poisonwatch/poisonwatch/mqwatch"
)

// fixWatchInterval is how often `fix` polls while it checks the alert.
const fixWatchInterval = time.Second

// fixWatch folds one watcher's snapshots into a model of its own, as the
// dashboard does, so `fix` sees the alerts the dashboard shows.
type fixWatch struct {
	name  string
	w     *mqwatch.Watcher
	state *model.State
	last  *model.QMgrState // the last poll until saw
}

// newAlerts are the alerts of the last poll on the queues a plan touched
// that were not firing before it: what the fix made visible (a loop's
// BOTHRESH set, its stuck messages now show as R8c).
func (f *fixWatch) newAlerts(before []model.Alert, queues map[string]bool) []model.Alert {
	if f.last == nil {
		return nil
	}
	was := map[string]bool{}
	for _, a := range before {
		was[a.ID()] = true
	}
	var out []model.Alert
	for _, a := range f.last.Alerts {
		if queues[a.Queue] && !was[a.ID()] {
			out = append(out, a)
		}
	}
	return out
}

func newFixWatch(ctx context.Context, conn mqwatch.Connector, qmgr string) *fixWatch {
	w := mqwatch.NewWatcher(mqwatch.WatchConfig{Name: qmgr, Connector: conn, Interval: fixWatchInterval,
		Connect: mqwatch.ConnectOptions{ApplName: "poisonwatch fix"}})
	go w.Run(ctx)
	return &fixWatch{name: qmgr, w: w, state: model.New(time.Now, fixWatchInterval)}
}

// next waits for the next complete poll and returns the queue manager's
// state with it folded in.
func (f *fixWatch) next(ctx context.Context) (*model.QMgrState, error) {
	for {
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case s, ok := <-f.w.Snapshots():
			if !ok {
				return nil, errors.New("the watcher stopped")
			}
			f.state.Fold(s)
			switch {
			case s.Scan != nil:
				continue // a partial read of a long inventory: the poll's own follows
			case !s.Connected:
				return nil, fmt.Errorf("%s: %v", f.name, s.Err)
			}
			return f.state.QMgr(s.QMgrName), nil
		}
	}
}

// until polls until alert id no longer fires or d has passed; it returns
// whether it cleared, when, and the alert's text if it still fires.
func (f *fixWatch) until(ctx context.Context, id string, d time.Duration) (bool, time.Duration, string) {
	f.last = nil
	start := time.Now()
	ctx, cancel := context.WithTimeout(ctx, d)
	defer cancel()
	f.w.Refresh()
	still := "(no poll answered)"
	for {
		qs, err := f.next(ctx)
		if err != nil {
			return false, time.Since(start), still
		}
		f.last = qs
		al, ok := findAlert(qs, id)
		if !ok {
			return true, time.Since(start), ""
		}
		still = al.ID() + " " + al.Text
	}
}
