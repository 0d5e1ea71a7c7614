package cli

import (
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/poisonwatch/poisonwatch/backend/embedded"
	"github.com/poisonwatch/poisonwatch/codec/mqfmt"
	"github.com/poisonwatch/poisonwatch/demo"
	"github.com/poisonwatch/poisonwatch/internal/safeload"
	"github.com/poisonwatch/poisonwatch/mqwatch"
)

// openActionBackend returns the queue manager to act on, and the embedded
// one when that is what it is.
func openActionBackend(ctx context.Context, b *backendFlags) (mqwatch.Connector, *embedded.QMgr, error) {
	if b.qmgr == "" && b.kind == "embedded" {
		b.qmgr = "QM1" // as resolveQMgr settles it
	}
	switch b.kind {
	case "embedded":
		qm, err := openEmbedded(ctx, b)
		return qm, qm, err
	case "ibmmq":
		if b.mqsc != "" || len(b.load) > 0 || b.scenario != "" {
			return nil, nil, errors.New("--scenario, --mqsc and --load prepare the embedded queue manager; they do not apply to --backend ibmmq")
		}
		if b.qmgrs != "" {
			c, err := b.mq.listedBackend(promptPassword, b.qmgrs, b.qmgr)
			return c, nil, err
		}
		c, err := b.mq.backend(promptPassword)
		return c, nil, err
	}
	return nil, nil, fmt.Errorf("--backend %q: want embedded or ibmmq", b.kind)
}

// openEmbedded builds the embedded queue manager the command acts on:
// objects from MQSC scripts, then messages from dmpmqmsg files.
func openEmbedded(ctx context.Context, b *backendFlags) (*embedded.QMgr, error) {
	qm := embedded.New(embedded.Options{Name: b.qmgr})
	if b.scenario != "" {
		var err error
		if qm, err = simulated(ctx, b); err != nil {
			return nil, err
		}
	}
	for _, path := range b.mqsc.paths() {
		if _, err := runMQSCFile(qm, path); err != nil {
			return nil, fmt.Errorf("--mqsc: %w", err)
		}
	}
	for _, path := range b.load {
		if err := loadQLoad(ctx, qm, path, b.loadQueue); err != nil {
			return nil, fmt.Errorf("--load %s: %w", path, err)
		}
	}
	return qm, nil
}

// loadQLoad puts a dmpmqmsg file's messages onto a queue with their MQMD
// context (set all), as dmpmqmsg -o loads them.
func loadQLoad(ctx context.Context, qm *embedded.QMgr, path, queue string) error {
	f, err := safeload.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	r := mqfmt.NewQLoadReader(f, mqfmt.QLoadReaderOptions{Whole: true})
	if queue == "" {
		h, err := r.Header()
		if err != nil {
			return err
		}
		if queue = h.Queue; queue == "" {
			return errors.New("the file names no queue ('* Queue =' line): give --load-queue")
		}
	}
	c, err := qm.Connect(ctx, mqwatch.ConnectOptions{})
	if err != nil {
		return err
	}
	defer c.Close()
	q, err := c.Open(ctx, mqwatch.ObjectDesc{Name: queue}, mqwatch.OpenOptions{Output: true, SetAllContext: true})
	if err != nil {
		return err
	}
	defer q.Close(ctx)
	for {
		m, err := r.Next()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return err
		}
		opts := mqwatch.PutOptions{Context: mqwatch.ContextSetAll}
		if !m.HasMQMD {
			opts.Context = mqwatch.ContextDefault
		}
		if err := q.Put(ctx, &m.MD, m.Data, opts); err != nil {
			return err
		}
	}
}

// simulated runs a scenario headless, as `poisonwatch sim` does, and returns
// its queue manager named --qmgr with the messages the run left behind.
// With b.live the scenario keeps running after that simulated history, on
// the wall clock, until b.stop is called: its consumers then go on working
// while a requeue's check watches what comes back (R10f).
func simulated(ctx context.Context, b *backendFlags) (*embedded.QMgr, error) {
	s, err := loadScenario(b.scenario)
	if err != nil {
		return nil, fmt.Errorf("--scenario: %w", err)
	}
	b.styles = scenarioStyles(s, b.qmgr)
	if b.live {
		return liveScenario(ctx, b, s)
	}
	res, err := s.Simulate(ctx, demo.SimOptions{Duration: b.simFor})
	if err != nil {
		return nil, fmt.Errorf("--scenario: %w", err)
	}
	var names []string
	for _, qm := range res.Embedded {
		if qm.Name() == b.qmgr {
			return qm, nil
		}
		names = append(names, qm.Name())
	}
	return nil, fmt.Errorf("--scenario %s has no queue manager %s (it has %v): give --qmgr", b.scenario, b.qmgr, names)
}

// liveScenario starts s with its simulated history (--sim-duration, else
// the scenario's duration) and leaves its applications running until
// b.stop.
func liveScenario(ctx context.Context, b *backendFlags, s *demo.Scenario) (*embedded.QMgr, error) {
	s.Warmup = b.simFor
	if s.Warmup == 0 {
		s.Warmup = s.Duration
	}
	runCtx, cancel := context.WithCancel(context.WithoutCancel(ctx))
	run, err := s.Start(runCtx)
	if err != nil {
		cancel()
		return nil, fmt.Errorf("--scenario: %w", err)
	}
	b.stop = func() { cancel(); <-run.Done() }
	if qm := run.QMgr(b.qmgr); qm != nil {
		return qm, nil
	}
	b.stop()
	var names []string
	for _, qm := range run.QMgrs() {
		names = append(names, qm.Name())
	}
	return nil, fmt.Errorf("--scenario %s has no queue manager %s (it has %v): give --qmgr", b.scenario, b.qmgr, names)
}
