package exporter

import (
	"context"
	"testing"
	"time"

	dto "github.com/prometheus/client_model/go"

	"github.com/poisonwatch/poisonwatch/mqwatch"
)

// silent is a queue manager whose first poll never ends.
type silent struct{}

func (silent) Name() string                        { return "QM1" }
func (silent) Snapshots() <-chan *mqwatch.Snapshot { return nil }

// The failed-poll counter has its HELP, TYPE and a zero series before any
// poll fails, and before the first poll ends: increase() and rate() then
// see the first failure, where a series born at 1 would hide it.
func TestPollErrorsCountFromZero(t *testing.T) {
	t.Run("before_the_first_poll", func(t *testing.T) {
		exp := New(Config{Sources: []Source{silent{}}, Interval: time.Hour})
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		go exp.Run(ctx)
		fams, err := exp.Registry().Gather()
		if err != nil {
			t.Fatal(err)
		}
		byName := map[string]*dto.MetricFamily{}
		for _, f := range fams {
			byName[f.GetName()] = f
		}
		checkZeroCounter(t, byName, "poisonwatch_qmgr_poll_errors_total")
		checkZeroCounter(t, byName, "poisonwatch_qmgr_polls_total")
	})
	t.Run("polls_answered", func(t *testing.T) {
		e := newEnv(t, Config{}, fillTrouble)
		fams := e.scrape(t)
		checkZeroCounter(t, fams, "poisonwatch_qmgr_poll_errors_total")
		if got := samples(fams, "poisonwatch_qmgr_poll_errors_by_reason_total", []string{"reason"}); len(got) != 0 {
			t.Errorf("no poll failed, yet reasons are served: %v", got)
		}
	})
}

func checkZeroCounter(t *testing.T, fams map[string]*dto.MetricFamily, name string) {
	t.Helper()
	f := fams[name]
	if f == nil {
		t.Fatalf("%s is not served", name)
	}
	if f.GetHelp() == "" || f.GetType() != dto.MetricType_COUNTER {
		t.Errorf("%s: help %q, type %v; want a help text and counter", name, f.GetHelp(), f.GetType())
	}
	if v, ok := sample(fams, name, "qmgr", "QM1"); !ok || v != 0 {
		t.Errorf("%s{qmgr=QM1} = %v (present %v), want a zero series", name, v, ok)
	}
}

// Messages that arrive while the queue managers' history is still being
// made (the demo's warm-up) are the incident's backlog: the counter leaves
// them out and counts from the first poll after the warm-up.
func TestArrivalsOfTheWarmUpAreNotCounted(t *testing.T) {
	warm := make(chan struct{})
	e := newEnv(t, Config{Warm: warm}, fillTrouble)
	arrivals := func(queue string) float64 {
		t.Helper()
		v, ok := sample(e.scrape(t), "poisonwatch_queue_arrivals_total", "queue", queue)
		if !ok {
			t.Fatalf("arrivals_total{queue=%q} is not served", queue)
		}
		return v
	}
	e.putDeadLetters(t, []deadLetter{{2085, "NEW.IN"}, {2085, "NEW.IN"}, {2035, "DEST.00"}})
	e.poll(t)
	if v := arrivals("QM1.DEADQ"); v != 0 {
		t.Fatalf("arrivals during the warm-up = %v, want 0", v)
	}
	close(warm)
	// The poll the exporter folds as it sees the warm-up end began before:
	// what it finds is still the warm-up's.
	e.putDeadLetters(t, []deadLetter{{2085, "OLD.IN"}})
	e.poll(t)
	e.putDeadLetters(t, []deadLetter{{2085, "NEW.IN"}, {2087, "NEW.IN"}})
	e.poll(t)
	if v := arrivals("QM1.DEADQ"); v != 2 {
		t.Errorf("arrivals after the warm-up = %v, want the 2 put after it", v)
	}
}
