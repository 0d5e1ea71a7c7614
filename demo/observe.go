package demo

import (
	"time"

	"github.com/poisonwatch/poisonwatch/backend/embedded"
)

// observer calls its function every interval of simulated time.
type observer struct {
	every time.Duration
	qms   []*embedded.QMgr
	fn    func(time.Time, []*embedded.QMgr)
}

func (o *observer) step(now time.Time) (time.Time, bool) {
	o.fn(now, o.qms)
	return now.Add(o.every), true
}

// observe schedules the simulation's observer, if it has one.
func (r *runner) observe(opts SimOptions) {
	if opts.Observe == nil {
		return
	}
	every := opts.Every
	if every <= 0 {
		every = 2 * time.Second
	}
	r.agenda.schedule(r.start, &observer{every: every, qms: r.qms, fn: opts.Observe})
}
