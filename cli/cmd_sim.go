package cli

import (
	"cmp"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/poisonwatch/poisonwatch/codec/mqfmt"
	"github.com/poisonwatch/poisonwatch/demo"
)

// mqscFlags collects repeated --mqsc values: FILE for the first queue
// manager, or QMGR=FILE.
type mqscFlags []string

func (m *mqscFlags) String() string     { return strings.Join(*m, ",") }
func (m *mqscFlags) Set(v string) error { *m = append(*m, v); return nil }

type simOpts struct {
	scenario string
	mqsc     mqscFlags
	duration time.Duration
	seed     uint64
	seedSet  bool
	json     bool
	record   string
	interval time.Duration
}

func simCommand() *command {
	o := &simOpts{}
	return &command{name: "sim", synopsis: "run a scenario headless on embedded queue managers and print the final state",
		flags: o.register,
		usage: usageText("Usage: poisonwatch sim [--scenario DIR|FILE] [--mqsc [QMGR=]FILE] [--duration D] [--seed N] [--json] [--record FILE [--interval D]]",
			"\nRuns a scenario headless on embedded queue managers, on a simulated clock as fast as",
			"the CPU allows, and prints the final state: every queue's depth and attributes, how many",
			"messages took each route of the poison engine, decoded examples from the backout and",
			"dead-letter queues, and a check that every message produced is accounted for once."),
		exits: []exitStatus{{0, "every message produced is accounted for once"}, {1, "the check failed, or the scenario could not run"}, exitUsage},
		run: func(ctx context.Context, fs *flag.FlagSet, stdout, stderr io.Writer) int {
			if fs.NArg() != 0 || o.duration < 0 {
				fs.Usage()
				return ExitUsage
			}
			fs.Visit(func(f *flag.Flag) { o.seedSet = o.seedSet || f.Name == "seed" })
			return runSim(ctx, *o, stdout, stderr)
		}}
}

func runSim(ctx context.Context, o simOpts, stdout, stderr io.Writer) int {
	s, err := loadSimScenario(o, stderr)
	if err != nil {
		fmt.Fprintf(stderr, "poisonwatch sim: %v\n", safeErr(err))
		return 1
	}
	sopts := demo.SimOptions{Duration: o.duration}
	var rec *simRecorder
	if o.record != "" {
		if rec, err = newSimRecorder(ctx, o.record, o.interval, s); err != nil {
			fmt.Fprintf(stderr, "poisonwatch sim: %v\n", err)
			return 1
		}
		sopts.Observe, sopts.Every = rec.observe, o.interval
	}
	res, err := s.Simulate(ctx, sopts)
	if rec != nil {
		err = cmp.Or(err, rec.close())
	}
	if err != nil {
		fmt.Fprintf(stderr, "poisonwatch sim: %v\n", safeErr(err))
		return 1
	}
	// Names were validated on load; the safe writers make sure of it.
	if o.json {
		enc := json.NewEncoder(mqfmt.NewJSONSafeWriter(stdout))
		enc.SetIndent("", "  ")
		err = enc.Encode(res)
	} else {
		sw := mqfmt.NewSafeWriter(stdout)
		err = cmp.Or(res.WriteText(sw), sw.Flush())
	}
	if err != nil {
		fmt.Fprintf(stderr, "poisonwatch sim: write: %v\n", err)
		return 1
	}
	if !res.Accounting.Balanced {
		fmt.Fprintln(stderr, "poisonwatch sim: the conservation check failed: some messages are missing or counted twice")
		return 1
	}
	return 0
}

func (o *simOpts) register(fs *flag.FlagSet) {
	fs.StringVar(&o.scenario, "scenario", "", "scenario directory (with scenario.toml) or TOML file; default: the built-in demo")
	fs.Var(&o.mqsc, "mqsc", "extra MQSC `FILE` run after the scenario's own, on the first queue manager, or QMGR=FILE (repeatable)")
	fs.DurationVar(&o.duration, "duration", 0, "simulated time (default: the scenario's duration)")
	fs.Uint64Var(&o.seed, "seed", 0, "random seed (default: the scenario's seed)")
	fs.BoolVar(&o.json, "json", false, "print the final state as JSON")
	fs.StringVar(&o.record, "record", "", "record what the dashboard would have seen, polling every --interval of simulated time, to `FILE` (for poisonwatch playback and report)")
	fs.DurationVar(&o.interval, "interval", 2*time.Second, "with --record: the simulated poll interval")
}

func loadSimScenario(o simOpts, stderr io.Writer) (*demo.Scenario, error) {
	var s *demo.Scenario
	var err error
	if s, err = loadScenario(o.scenario); err != nil {
		return nil, err
	}
	if o.seedSet {
		s.Seed = o.seed
	}
	for _, m := range o.mqsc {
		qmgr, file := "", m
		if i := strings.IndexByte(m, '='); i > 0 {
			qmgr, file = m[:i], m[i+1:]
		}
		text, err := readFile(file, maxMQSCFile)
		if err != nil {
			return nil, fmt.Errorf("--mqsc: %w", err)
		}
		if err := s.AddMQSC(qmgr, file, string(text)); err != nil {
			return nil, err
		}
		printMQSCNotes(stderr, "poisonwatch sim", []string{file})
	}
	return s, nil
}
