package demo

import (
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/poisonwatch/poisonwatch/backend/embedded"
)

// SimOptions override a scenario's settings for one simulation.
type SimOptions struct {
	// Duration is how much time to simulate; the scenario's Duration when 0.
	Duration time.Duration
	// Observe, when set, is called every Every of simulated time (from the
	// start) with nothing else running: a recording polls the queue
	// managers then (observe.go).
	Observe func(now time.Time, qms []*embedded.QMgr)
	Every   time.Duration
}

// Simulate runs the scenario on a virtual clock for the simulated duration,
// as fast as the CPU allows, and returns the final state with the
// conservation check of every message produced. The simulated period ends
// at the moment Simulate was called, so message ages read as they would on
// a queue manager that had run that long. Given the scenario's seed, the
// figures are the same on every run.
func (s *Scenario) Simulate(ctx context.Context, opts SimOptions) (*Result, error) {
	if err := s.Validate(); err != nil {
		return nil, fmt.Errorf("simulate %s: %w", s.Name, err)
	}
	d := opts.Duration
	if d == 0 {
		d = s.Duration
	}
	if d < 0 {
		return nil, fmt.Errorf("simulate %s: duration %s is negative", s.Name, d)
	}
	end := time.Now()
	clk := newVirtualClock(end.Add(-d))
	r := newRunner(ctx, s, clk, true)
	defer r.shutdown()
	if err := r.setup(); err != nil {
		return nil, fmt.Errorf("simulate %s: %w", s.Name, err)
	}
	r.observe(opts)
	if err := r.loop(end); err != nil {
		return nil, fmt.Errorf("simulate %s: %w", s.Name, err)
	}
	clk.advance(end)
	if err := r.flush(); err != nil {
		return nil, fmt.Errorf("simulate %s: %w", s.Name, err)
	}
	qms, found, err := r.collect(ctx)
	if err != nil {
		return nil, fmt.Errorf("simulate %s: %w", s.Name, err)
	}
	return &Result{Scenario: s.Name, Seed: s.Seed, Simulated: d.String(), Start: r.start.UTC(), End: end.UTC(),
		Embedded: slices.Clone(r.qms), QMgrs: qms, Routes: r.book.Routes(), Producers: r.book.Producers(), Consumers: r.book.Consumers(),
		Events: r.book.Events(), Accounting: r.ledger.balance(found)}, nil
}
