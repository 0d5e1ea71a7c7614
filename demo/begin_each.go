package demo

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/poisonwatch/poisonwatch/backend/embedded"
	"github.com/poisonwatch/poisonwatch/mqwatch"
)

// Starting is a scenario whose queue managers are still being set up: each
// can be connected to as soon as its own MQSC has run, so a dashboard
// watching fifty of them paints the first while the rest are defined
// (issue 31: a fleet's setup took 1.6 s of blank screen).
type Starting struct {
	run   *Run
	names []string
	qms   []*embedded.QMgr // qms[i] is set before ready[i] is closed
	ready []chan struct{}
	setup chan struct{} // closed once every queue manager is set up, or setup failed
	err   error         // why setup failed; read after setup is closed
}

// BeginEach is Begin without waiting for the queue managers: it returns at
// once, and sets them up, links them, connects the applications and runs
// the warm-up in the background. Connect on QMgr(i) waits until that queue
// manager is defined. A failed setup ends the run (Done, then Wait returns
// the error) and every Connect returns it.
func (s *Scenario) BeginEach(ctx context.Context) (*Starting, error) {
	if err := s.Validate(); err != nil {
		return nil, fmt.Errorf("start scenario %s: %w", s.Name, err)
	}
	now := time.Now()
	clk := newVirtualClock(now.Add(-s.Warmup))
	r := newRunner(ctx, s, clk, false)
	st := &Starting{run: &Run{r: r, done: make(chan struct{}), warm: make(chan struct{})},
		qms: make([]*embedded.QMgr, len(s.QMgrs)), ready: make([]chan struct{}, len(s.QMgrs)), setup: make(chan struct{})}
	for i, q := range s.QMgrs {
		st.names = append(st.names, q.Name)
		st.ready[i] = make(chan struct{})
	}
	r.defined = func(i int, qm *embedded.QMgr) {
		st.qms[i] = qm
		close(st.ready[i])
	}
	go st.begin(now)
	return st, nil
}

func (st *Starting) begin(now time.Time) {
	run, r := st.run, st.run.r
	defer close(run.done)
	defer r.shutdown()
	err := r.setup()
	if err != nil {
		st.err = fmt.Errorf("start scenario %s: %w", r.s.Name, err)
		run.err = st.err
	}
	for i := range st.ready {
		if st.qms[i] == nil {
			close(st.ready[i])
		}
	}
	close(st.setup)
	if err != nil {
		return
	}
	run.simulate(now)
}

// Run is the scenario run; its queue managers are in QMgr until set up.
func (st *Starting) Run() *Run { return st.run }

// Names are the scenario's queue managers, in its order, known at once.
func (st *Starting) Names() []string { return st.names }

// QMgr is the i-th queue manager as a connector that waits for it.
func (st *Starting) QMgr(i int) mqwatch.Connector { return waitingQMgr{st: st, i: i} }

// Ready is closed once the i-th queue manager is defined, or setup failed
// before it.
func (st *Starting) Ready(i int) <-chan struct{} { return st.ready[i] }

// Defined is closed once every queue manager is set up (or setup failed).
func (st *Starting) Defined() <-chan struct{} { return st.setup }

// Err is why setup failed, once Defined is closed.
func (st *Starting) Err() error { return st.err }

// errNotDefined is returned by a waiting connector whose queue manager was
// never defined because the setup of an earlier one failed.
var errNotDefined = errors.New("queue manager not defined: the scenario's setup failed")

type waitingQMgr struct {
	st *Starting
	i  int
}

// Embedded waits until the queue manager is defined and returns it (nil
// when setup failed before it).
func (w waitingQMgr) Embedded() *embedded.QMgr {
	<-w.st.ready[w.i]
	return w.st.qms[w.i]
}

func (w waitingQMgr) Connect(ctx context.Context, opts mqwatch.ConnectOptions) (mqwatch.Conn, error) {
	select {
	case <-ctx.Done():
		return nil, ctx.Err()
	case <-w.st.ready[w.i]:
	}
	if qm := w.st.qms[w.i]; qm != nil {
		return qm.Connect(ctx, opts)
	}
	<-w.st.setup
	return nil, errors.Join(errNotDefined, w.st.err)
}
