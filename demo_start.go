package main

import (
	"context"

	"github.com/poisonwatch/poisonwatch/actions"

	"github.com/poisonwatch/poisonwatch/mqwatch/embedded/demo"
)

// startDemo runs the built-in incident demo (or a scenario) live on embedded
// queue managers; the dashboard watches every one of them.
func startDemo(ctx context.Context, scenario string) (*backend, error) {
	s, err := demo.Builtin()
	if scenario != "" {
		s, err = demo.Load(scenario)
	}
	if err != nil {
		return nil, err
	}
	ctx, cancel := context.WithCancel(ctx)
	run, err := s.Start(ctx)
	if err != nil {
		cancel()
		return nil, err
	}
	be := &backend{stop: func() { cancel(); <-run.Done() }, styles: map[string]map[string]actions.Style{}}
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
