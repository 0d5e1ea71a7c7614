package cli

import (
	"context"
	"strings"
	"sync"

	"github.com/poisonwatch/poisonwatch/backend/embedded"
	"github.com/poisonwatch/poisonwatch/doctor"
	"github.com/poisonwatch/poisonwatch/mqwatch"
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

// doctorTargets are the queue managers of the backend the doctor checks
// from the dashboard: those on IBM MQ, and embedded ones run as a --user
// (as the process user they are administered, with nothing to diagnose).
func (be *backend) doctorTargets() []doctor.Target {
	out := append([]doctor.Target(nil), be.doctor...)
	for _, q := range be.qmgrs {
		if t, ok := ibmmqDoctorTarget(q); ok {
			out = append(out, t)
		}
	}
	return out
}

// runAs makes every connection of the embedded backend run as o.user, the
// watchers' and the action engine's alike, and has the doctor check what
// that user may do (with --mqsc: the demo's queue managers have no
// authority records for anyone but their administrator).
func (be *backend) runAs(o tuiOpts) error {
	for i, q := range be.qmgrs {
		qm, ok := q.conn.(*embedded.QMgr)
		if !ok {
			continue
		}
		ts, stop, err := embeddedDoctorTarget(qm, "defined by --mqsc "+strings.Join(o.mqsc.paths(), ", "), o.user, nil)
		if err != nil {
			return err
		}
		prev := be.stop
		be.stop = func() { stop(); prev() }
		be.doctor = append(be.doctor, ts...)
		be.qmgrs[i].conn = asUser{Connector: qm, user: o.user}
	}
	return nil
}

// asUser connects as user when the caller names nobody.
type asUser struct {
	mqwatch.Connector
	user string
}

func (a asUser) Connect(ctx context.Context, opts mqwatch.ConnectOptions) (mqwatch.Conn, error) {
	if opts.User == "" {
		opts.User = a.user
	}
	return a.Connector.Connect(ctx, opts)
}
