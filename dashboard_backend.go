package main

import (
	"context"
	"fmt"
	"os"
	"time"

	"github.com/poisonwatch/poisonwatch/actions"
	"github.com/poisonwatch/poisonwatch/mqwatch"
	"github.com/poisonwatch/poisonwatch/mqwatch/embedded"
	"github.com/poisonwatch/poisonwatch/mqwatch/mqfmt"
	"github.com/poisonwatch/poisonwatch/ui"
)

// qmgrConn is one queue manager the dashboard watches.
type qmgrConn struct {
	name string
	conn mqwatch.Connector
}

// backend is what the dashboard runs on: the queue managers, the operations
// engine for actions, and how to stop them.
type backend struct {
	qmgrs  []qmgrConn
	ops    ui.Operations
	rules  ui.RulesOps // the rules table predictions, on the same engines
	stop   func()
	styles map[string]map[string]actions.Style // known consumer styles, per queue manager
	// now is the queue managers' clock when it is not the wall clock (the
	// demo's warm-up); warm is closed once it is.
	now  func() time.Time
	warm <-chan struct{}
}

func startBackend(ctx context.Context, o tuiOpts) (*backend, error) {
	switch o.backend {
	case "ibmmq":
		qs, err := ibmmqBackends(promptPassword)
		if err != nil {
			return nil, err
		}
		return &backend{qmgrs: qs, stop: func() {}}, nil
	case "embedded":
	default:
		return nil, fmt.Errorf("unknown backend %q (embedded or ibmmq)", o.backend)
	}
	if o.mqsc != "" {
		f, err := os.Open(o.mqsc)
		if err != nil {
			return nil, err
		}
		defer f.Close()
		qm := embedded.New(embedded.Options{Name: "QM1"})
		rep, err := qm.RunMQSC(f)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", o.mqsc, err)
		}
		for _, n := range rep.Notes() { // left on the screen when the dashboard exits
			fmt.Fprintf(os.Stderr, "poisonwatch: --mqsc %s: %s\n", mqfmt.Sanitize(o.mqsc), n)
		}
		return &backend{qmgrs: []qmgrConn{{name: qm.Name(), conn: qm}}, stop: func() {}}, nil
	}
	return startDemo(ctx, o.scenario)
}
