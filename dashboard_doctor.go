package main

import (
	"context"
	"sync"

	"github.com/poisonwatch/poisonwatch/internal/doctor"
)

// startDoctor runs the doctor's checks on each target once, in the
// background, as the dashboard connects; the function it returns says
// what was found off on a queue manager (nothing until its checks end),
// for the header.
func startDoctor(ctx context.Context, targets []doctor.Target) func(qmgr string) []string {
	var mu sync.Mutex
	found := map[string][]string{}
	for _, t := range targets {
		go func() {
			r := doctor.Run(ctx, t)
			if ctx.Err() != nil {
				return
			}
			mu.Lock()
			found[t.Name] = r.Problems()
			mu.Unlock()
		}()
	}
	return func(qmgr string) []string {
		mu.Lock()
		defer mu.Unlock()
		return found[qmgr]
	}
}

// doctorTargets are the queue managers of the backend the doctor can
// check from the dashboard: those on IBM MQ. The embedded queue managers
// run in this process as an administrator, with nothing to diagnose.
func (be *backend) doctorTargets() []doctor.Target {
	var out []doctor.Target
	for _, q := range be.qmgrs {
		if t, ok := ibmmqDoctorTarget(q); ok {
			out = append(out, t)
		}
	}
	return out
}
