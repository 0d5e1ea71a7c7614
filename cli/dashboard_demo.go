package cli

import (
	"context"

	"github.com/poisonwatch/poisonwatch/actions"

	"github.com/poisonwatch/poisonwatch/demo"
)

// startDemo runs the built-in incident demo (or a scenario) live on embedded
// queue managers; the dashboard watches every one of them. It returns at
// once: the queue managers are defined one after the other meanwhile (a
// connection to one waits until it is), then the warm-up history is
// simulated, so the dashboard paints at once, each queue manager's row as
// its first poll ends, and watches the history fill in.
func startDemo(ctx context.Context, scenario string) (*backend, error) {
	s, err := loadScenario(scenario)
	if err != nil {
		return nil, err
	}
	ctx, cancel := context.WithCancel(ctx)
	st, err := s.BeginEach(ctx)
	if err == nil {
		err = setupError(st)
	}
	if err != nil {
		cancel()
		return nil, err
	}
	run := st.Run()
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
	for i, name := range st.Names() {
		be.qmgrs = append(be.qmgrs, qmgrConn{name: name, conn: st.QMgr(i)})
	}
	return be, nil
}

// setupError waits until the first queue manager is defined: a scenario
// file with a bad MQSC line usually fails there, and then the command says
// so and exits, as before. A later failure shows on the rows of the queue
// managers not defined.
func setupError(st *demo.Starting) error {
	if len(st.Names()) == 0 {
		<-st.Defined()
		return st.Err()
	}
	<-st.Ready(0)
	select {
	case <-st.Defined():
		return st.Err()
	default:
		return nil
	}
}

// loadScenario reads the scenario --scenario names: the built-in demo when
// empty or "builtin", a generated fleet for fleet, fleet:N or fleet:NxM (a directory
// called fleet is ./fleet), else a directory or TOML file.
func loadScenario(name string) (*demo.Scenario, error) {
	if name == "" || name == "builtin" {
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
