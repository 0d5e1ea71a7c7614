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
	s, err := loadScenario(scenario)
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
		if m := c.MaxSequentialDeliveryFailures; m != nil && *m >= 0 && st == actions.ASF {
			be.pauseAfter = addPauseAfter(be.pauseAfter, c.QMgr, c.Queue, *m+1)
		}
	}
	for _, qm := range run.QMgrs() {
		be.qmgrs = append(be.qmgrs, qmgrConn{name: qm.Name(), conn: qm})
	}
	return be, nil
}

// loadScenario reads the scenario --scenario names: the built-in demo when
// empty, a generated fleet for fleet, fleet:N or fleet:NxM (a directory
// called fleet is ./fleet), else a directory or TOML file.
func loadScenario(name string) (*demo.Scenario, error) {
	if name == "" {
		return demo.Builtin()
	}
	o, isFleet, err := demo.ParseFleet(name)
	switch {
	case err != nil:
		return nil, err
	case isFleet:
		return demo.Fleet(o)
	}
	return demo.Load(name)
}

// addPauseAfter records an asf MDB's maxSequentialDeliveryFailures + 1 for
// the route predictions (R6i).
func addPauseAfter(m map[string]map[string]int32, qmgr, queue string, n int32) map[string]map[string]int32 {
	if m == nil {
		m = map[string]map[string]int32{}
	}
	if m[qmgr] == nil {
		m[qmgr] = map[string]int32{}
	}
	m[qmgr][queue] = n
	return m
}
