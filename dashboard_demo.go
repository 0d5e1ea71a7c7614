package main

import (
	"context"

	"github.com/poisonwatch/poisonwatch/actions"

	"github.com/poisonwatch/poisonwatch/internal/demo"
)

// startDemo runs the built-in incident demo (or a scenario) live on embedded
// queue managers; the dashboard watches every one of them. It returns once
// the queue managers exist: the warm-up history is simulated meanwhile, so
// the dashboard paints at once and watches the history fill in.
func startDemo(ctx context.Context, scenario string) (*backend, error) {
	s, err := demo.Builtin()
	if scenario != "" {
		s, err = demo.Load(scenario)
	}
	if err != nil {
		return nil, err
	}
	ctx, cancel := context.WithCancel(ctx)
	run, err := s.Begin(ctx)
	if err != nil {
		cancel()
		return nil, err
	}
	be := &backend{stop: func() { cancel(); <-run.Done() }, styles: map[string]map[string]actions.Style{},
		now: run.Now, warm: run.Warm()}
	for _, c := range s.Consumers {
		st, err := actions.ParseStyle(c.Style)
		if err != nil || c.Queue == "" {
			continue
		}
		if be.styles[c.QMgr] == nil {
			be.styles[c.QMgr] = map[string]actions.Style{}
		}
		be.styles[c.QMgr][c.Queue] = st
	}
	for _, qm := range run.QMgrs() {
		be.qmgrs = append(be.qmgrs, qmgrConn{name: qm.Name(), conn: qm})
	}
	return be, nil
}
